import Foundation
import Synchronization

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

  /// Describes where a command reads and writes.
  ///
  /// - Parameters:
  ///   - write: Writes to standard output.
  ///   - writeError: Writes to standard error.
  ///   - readLine: Reads a line of standard input.
  ///   - environment: The process environment.
  ///   - isTerminal: Whether standard output is a terminal.
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

  /// The process's own streams and environment.
  package static var standard: CommandIO {
    CommandIO(
      write: { FileHandle.standardOutput.write(Data($0.utf8)) },
      writeError: { FileHandle.standardError.write(Data($0.utf8)) },
      readLine: { Swift.readLine() },
      environment: ProcessInfo.processInfo.environment,
      isTerminal: isatty(FileHandle.standardOutput.fileDescriptor) == 1)
  }

  /// Whether text output may use colour: standard output is a terminal and `NO_COLOR` is unset.
  package var allowsColor: Bool { isTerminal && environment["NO_COLOR"] == nil }

  /// Writes `line` and a newline to standard output.
  ///
  /// - Parameter line: The line, without its newline.
  package func print(_ line: String = "") { write(line + "\n") }

  /// Writes `line` and a newline to standard error.
  ///
  /// - Parameter line: The line, without its newline.
  package func printError(_ line: String) { writeError(line + "\n") }
}

/// What a command wrote, for tests: pass ``io`` to its `run`, then read the streams.
package final class CapturedIO: Sendable {
  private let streams = Mutex((output: "", error: ""))
  private let input: TypedLines

  /// Captures what a command writes, and hands it `input` line by line.
  ///
  /// - Parameters:
  ///   - input: The lines of standard input.
  ///   - environment: The environment the command sees.
  ///   - isTerminal: Whether the command believes it writes to a terminal.
  package init(
    input: [String] = [], environment: [String: String] = [:], isTerminal: Bool = false
  ) {
    self.input = TypedLines(input)
    self.environment = environment
    self.isTerminal = isTerminal
  }

  private let environment: [String: String]
  private let isTerminal: Bool

  /// The streams to pass to a command.
  package var io: CommandIO {
    CommandIO(
      write: { text in self.streams.withLock { $0.output += text } },
      writeError: { text in self.streams.withLock { $0.error += text } },
      readLine: input.next,
      environment: environment, isTerminal: isTerminal)
  }

  /// Everything written to standard output.
  package var output: String { streams.withLock { $0.output } }
  /// Everything written to standard error.
  package var error: String { streams.withLock { $0.error } }
}

extension CommandIO {
  /// The one line every command of this package prints for bad usage:
  /// "compare-stages: unknown stage '9' (valid: …); see 'compare-stages --help'".
  ///
  /// - Parameters:
  ///   - command: The command's name, as its `--help` is run.
  ///   - problem: What is wrong, with the valid choices.
  /// - Returns: The line, without its newline.
  package static func usageLine(_ command: String, _ problem: String) -> String {
    "\(command): \(problem); see '\(command) --help'"
  }

  /// Reports bad usage: ``usageLine(_:_:)`` on standard error.
  ///
  /// - Parameters:
  ///   - command: The command's name.
  ///   - problem: What is wrong, with the valid choices.
  /// - Returns: ``ExitCode/usage``, for the command to return.
  package func usageError(_ command: String, _ problem: String) -> ExitCode {
    printError(Self.usageLine(command, problem))
    return .usage
  }
}

/// Lines handed out one at a time, as standard input gives them: what a test or a demo types
/// into a command.
package final class TypedLines: Sendable {
  private let remaining: Mutex<[String]>

  /// Lines to hand out, first to last.
  ///
  /// - Parameter lines: The lines, without newlines.
  package init(_ lines: [String]) { remaining = Mutex(lines) }

  /// The next line, or `nil` when there are no more.
  package func next() -> String? { remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
}
