import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command reads and writes, and what it knows of its process: the real terminal in
/// `main`, strings a test can read in tests.
///
/// Every command of this package has one shape, `run(_ arguments: [String], io: CommandIO) ->
/// ExitCode`, in a library; its `main` only builds ``standard`` and exits with what `run`
/// returns.
package struct CommandIO: Sendable {
  /// Writes to standard output, as given: no newline is added.
  package var write: @Sendable (String) -> Void
  /// Writes to standard error, as given.
  package var writeError: @Sendable (String) -> Void
  /// Reads one line of standard input, without its newline; `nil` at the end.
  package var readLine: @Sendable () -> String?
  /// The process environment.
  package var environment: [String: String]
  /// Whether standard output is a terminal.
  package var isTerminal: Bool

  package init(
    write: @escaping @Sendable (String) -> Void,
    writeError: @escaping @Sendable (String) -> Void,
    readLine: @escaping @Sendable () -> String? = { nil },
    environment: [String: String] = [:], isTerminal: Bool = false
  ) {
    self.write = write
    self.writeError = writeError
    self.readLine = readLine
    self.environment = environment
    self.isTerminal = isTerminal
  }

  /// The process's own streams and environment, for a command's `main`.
  ///
  /// A write that fails ends the process: the command's name and the system's reason go to
  /// standard error, if it can be written, as in
  /// "compare-stages: cannot write to standard output: No space left on device", and the status
  /// is ``ExitCode/ioError`` (74, `EX_IOERR`). That holds for a full disk, a closed standard
  /// output and a reader that went away alike (`EPIPE`, as in `compare-stages | head -1`): one
  /// rule, and a short line that says why the output stops, rather than the silent death by
  /// `SIGPIPE` most Unix tools choose. A write to standard error that fails is lost, and changes
  /// nothing else: `compare-stages foo 2>&-` still exits 64, for its bad usage.
  ///
  /// First use readies the process for that, once:
  /// - `SIGPIPE` is ignored, so that a write to a pipe nobody reads fails with `EPIPE`, which
  ///   the command reports, instead of killing the process before it can say a word.
  /// - A standard stream that is closed (`command >&-`) is opened on `/dev/null`, read-only,
  ///   so that writes to it still fail (`EBADF`), and no file the command opens later can take
  ///   its number and receive what was meant for the terminal.
  package static let standard: CommandIO = {
    readyStandardStreams()
    let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "command").lastPathComponent
    return writing(
      output: STDOUT_FILENO, error: STDERR_FILENO, readLine: { Swift.readLine() },
      environment: ProcessInfo.processInfo.environment,
      isTerminal: isatty(STDOUT_FILENO) == 1
    ) { failure in
      // A standard error that cannot be written has nobody to tell: the text is lost and the
      // command goes on, to end with the status it would have had (64 for bad usage).
      guard failure.stream == .output else { return }
      _ = write("\(name): \(failure.message)\n", to: STDERR_FILENO)
      exit(ExitCode.ioError.rawValue)
    }
  }()

  /// Streams that write to file descriptors, and report a write that fails to `onFailure`,
  /// with the stream and the reason; the text is lost.
  ///
  /// What ``standard`` is made of; a test passes descriptors whose writes fail and sees the
  /// failure reported.
  package static func writing(
    output: Int32, error: Int32, readLine: @escaping @Sendable () -> String? = { nil },
    environment: [String: String] = [:], isTerminal: Bool = false,
    onFailure: @escaping @Sendable (WriteFailure) -> Void
  ) -> CommandIO {
    CommandIO(
      write: { text in
        if let code = write(text, to: output) { onFailure(WriteFailure(.output, code: code)) }
      },
      writeError: { text in
        if let code = write(text, to: error) { onFailure(WriteFailure(.error, code: code)) }
      },
      readLine: readLine, environment: environment, isTerminal: isTerminal)
  }

  /// Writes all of `text` to `descriptor`, as many `write` calls as that takes: `nil` when
  /// everything was written, else the `errno` of the write that failed.
  private static func write(_ text: String, to descriptor: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { bytes -> Int32? in
      guard var next = bytes.baseAddress else { return nil }
      var remaining = bytes.count
      while remaining > 0 {
        let written = systemWrite(descriptor, next, remaining)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        next += written
        remaining -= written
      }
      return nil
    }
  }

  /// Ignores `SIGPIPE` and opens each closed standard stream on `/dev/null`, read-only.
  private static func readyStandardStreams() {
    signal(SIGPIPE, SIG_IGN)
    // `open` gives the lowest free number, so going up from 0 fills each gap in turn.
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]
    where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      _ = open("/dev/null", O_RDONLY)
    }
  }

  /// Whether text output may use colour: standard output is a terminal and `NO_COLOR` is unset.
  package var allowsColor: Bool { isTerminal && environment["NO_COLOR"] == nil }

  /// Writes `line` and a newline to standard output.
  package func print(_ line: String = "") { write(line + "\n") }

  /// Writes `line` and a newline to standard error.
  package func printError(_ line: String) { writeError(line + "\n") }
}

/// A write to a standard stream that failed.
package struct WriteFailure: Error, Equatable, Sendable {
  /// A standard stream a command writes to.
  package enum Stream: String, Sendable {
    /// Standard output.
    case output = "standard output"
    /// Standard error.
    case error = "standard error"
  }

  /// The stream whose write failed.
  package var stream: Stream
  /// The `errno` of the failed write, such as `ENOSPC` or `EPIPE`.
  package var code: Int32

  package init(_ stream: Stream, code: Int32) {
    self.stream = stream
    self.code = code
  }

  /// "cannot write to standard output: No space left on device": the system's own words.
  package var message: String {
    "cannot write to \(stream.rawValue): \(String(cString: strerror(code)))"
  }
}

extension CommandIO {
  /// What `parse` makes of a command line; `nil` once its ``UsageError`` is printed on standard
  /// error, for the command to return ``ExitCode/usage``.
  package func parseReportingUsage<Parsed>(
    _ parse: @autoclosure () throws(UsageError) -> Parsed
  ) -> Parsed? {
    do {
      return try parse()
    } catch {
      printError("\(error)")
      return nil
    }
  }

  /// The one line every command of this package prints for bad usage:
  /// "compare-stages: unknown stage '9' (valid: …); see 'compare-stages --help'", without its
  /// newline.
  package static func usageLine(_ command: String, _ problem: String) -> String {
    "\(command): \(problem); see '\(command) --help'"
  }

  /// Reports bad usage, ``usageLine(_:_:)`` on standard error, and returns ``ExitCode/usage``
  /// for the command to return.
  package func usageError(_ command: String, _ problem: String) -> ExitCode {
    printError(Self.usageLine(command, problem))
    return .usage
  }
}

/// Why `error` happened, in a few words for one line: the system's own words ("Permission
/// denied") when a file operation failed for a POSIX reason, else the error's localized
/// description, which for a `LocalizedError` such as ``SharedFile/Refusal`` is its own
/// description; never an `NSError` dump.
package func reason(of error: any Error) -> String {
  let error = error as NSError
  // On Linux the underlying error is a `POSIXError`, not an `NSError`: bridged, not cast.
  if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error {
    let posix = underlying as NSError
    if posix.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(posix.code))) }
  }
  if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
  return error.localizedDescription
}

/// The system's `write(2)`, which ``CommandIO``'s own `write` members hide by name.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
  #elseif canImport(Musl)
    Musl.write(descriptor, bytes, count)
  #elseif canImport(Darwin)
    Darwin.write(descriptor, bytes, count)
  #endif
}

/// Lines handed out one at a time, as standard input gives them: what a test or a demo types
/// into a command.
package final class TypedLines: Sendable {
  private let remaining: Mutex<[String]>

  /// Lines, without newlines, to hand out first to last.
  package init(_ lines: [String]) { remaining = Mutex(lines) }

  /// The next line, or `nil` when there are no more.
  package func next() -> String? { remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
}
