#if os(macOS) || os(Linux)
  import Foundation

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// What one run of a program in a process of its own printed, and how it ended: the one way
  /// the tests start a program, be it a product `swift test` built, `swiftc`, `swift build`,
  /// `git` or `python3`. ``CommandRun`` runs a command in this process instead.
  ///
  /// ```swift
  /// let run = try ProcessRun([productPath, "--help"], environment: ["NO_COLOR": "1"])
  /// #expect(run.ending == .exited(0))
  /// ```
  ///
  /// The program's standard input is read from a file holding `input`, and its standard output
  /// and standard error are written to files, read once it has ended, all in a temporary
  /// folder of the run's own: no pipe can fill up while nobody reads it, and a descriptor that
  /// another test's child inherits meanwhile cannot keep a read waiting.
  ///
  /// The time limit is there to stop a hang, not to judge: a run that ends within it is
  /// reported as it ended, however slow, and one that does not is stopped and thrown as
  /// ``ProcessRun/Hang``, a failure of the test, never a result it could take for a pass.
  package struct ProcessRun: Sendable {
    /// How a process ended.
    package enum Ending: Equatable, Sendable, CustomStringConvertible {
      /// It exited with this status.
      case exited(Int32)
      /// This signal ended it.
      case signaled(Int32)

      /// "exit status 0", "signal 9".
      package var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signaled(let signal): "signal \(signal)"
        }
      }
    }

    /// A program that had not ended when its time limit passed: it was stopped, and the test
    /// fails with this error.
    package struct Hang: Error, CustomStringConvertible {
      /// The program and its arguments.
      package var arguments: [String]
      /// The time limit it ran past.
      package var timeLimit: Duration
      /// What it wrote on standard output before it was stopped.
      package var output: String
      /// What it wrote on standard error before it was stopped.
      package var error: String

      /// The program, that it hung, and what it printed.
      package var description: String {
        "\(arguments.joined(separator: " ")) had not ended after \(timeLimit), and was stopped: "
          + "a hang, a failure\n--- standard output:\n\(output)\n--- standard error:\n\(error)"
      }
    }

    /// Everything the program wrote on standard output; empty when it went elsewhere.
    package var output: String
    /// Everything the program wrote on standard error.
    package var error: String
    /// How the program ended.
    package var ending: Ending

    /// The exit status; `nil` when a signal ended the program, so that no status compared with
    /// it matches then.
    package var status: Int32? {
      if case .exited(let status) = ending { status } else { nil }
    }

    /// Standard output, then standard error: for a check that does not mind which stream a
    /// line went to, or a message that shows both.
    package var outputAndError: String { output + error }

    /// Runs `arguments` in a process of its own and waits for it to end.
    ///
    /// - Parameters:
    ///   - arguments: The program, then its arguments. A program whose name has no `/` is
    ///     found on the `PATH`, as a reader's shell finds it; otherwise it is that file.
    ///   - environment: Variables set for the program, over this process's own, which it
    ///     inherits.
    ///   - folder: The folder it runs in; this process's current folder when `nil`.
    ///   - input: What it reads on standard input, then the end of the file.
    ///   - standardOutput: Where its standard output goes instead of being captured (a full
    ///     disk, a pipe without a reader, the null device); ``output`` is then empty.
    ///   - timeLimit: How long it may run before it is taken for hung: killed (`SIGKILL`) and
    ///     thrown as ``Hang``. Far above any run's normal time on a busy machine: it stops a
    ///     hang and decides nothing else. What the program started itself is not killed.
    /// - Throws: ``Hang`` when the program outlives `timeLimit`; an error when it cannot be
    ///   started, or its streams cannot be set up or read.
    package init(
      _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
      input: String = "", standardOutput: FileHandle? = nil,
      timeLimit: Duration = .seconds(600)
    ) throws {
      precondition(!arguments.isEmpty, "a run needs a program")
      (output, error, ending) = try withTemporaryFolder("process-run") { streams in
        let (inputFile, outputFile, errorFile) = (
          streams.appending(path: "input"), streams.appending(path: "output"),
          streams.appending(path: "error")
        )
        try Data(input.utf8).write(to: inputFile)
        for file in [outputFile, errorFile] { try Data().write(to: file) }
        let process = Process()
        if arguments[0].contains("/") {
          process.executableURL = URL(fileURLWithPath: arguments[0])
          process.arguments = Array(arguments.dropFirst())
        } else {
          process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
          process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let folder { process.currentDirectoryURL = folder }
        let handles = (
          input: try FileHandle(forReadingFrom: inputFile),
          output: try FileHandle(forWritingTo: outputFile),
          error: try FileHandle(forWritingTo: errorFile)
        )
        defer {
          for handle in [handles.input, handles.output, handles.error] { try? handle.close() }
        }
        process.standardInput = handles.input
        process.standardOutput = standardOutput ?? handles.output
        process.standardError = handles.error
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let seconds =
          Double(timeLimit.components.seconds) + Double(timeLimit.components.attoseconds) / 1e18
        let hung = ended.wait(timeout: .now() + seconds) == .timedOut
        if hung {
          // Not SIGTERM: a child inherits the signal mask of the thread that starts it, and
          // on Linux a Dispatch worker's blocks SIGTERM (measured: a `sleep` started from a
          // test outlived `terminate()` by ten minutes).
          kill(process.processIdentifier, SIGKILL)
          ended.wait()
        }
        process.waitUntilExit()
        let printed = (
          output: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
          error: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
        )
        if hung {
          throw Hang(
            arguments: arguments, timeLimit: timeLimit, output: printed.output,
            error: printed.error)
        }
        let ending: Ending =
          process.terminationReason == .uncaughtSignal
          ? .signaled(process.terminationStatus) : .exited(process.terminationStatus)
        return (printed.output, printed.error, ending)
      }
    }
  }
#endif
