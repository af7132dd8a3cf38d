import CommandSupport
import Synchronization

/// What a command wrote, for tests: pass ``io`` to its `run`, then read the streams.
package final class CapturedIO: Sendable {
  private let streams = Mutex((output: "", error: ""))
  private let input: TypedLines

  /// Captures what a command writes, hands it `input` line by line, and tells it it writes to
  /// a terminal when `isTerminal`.
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

/// What one run of a command in this process printed, and how it ended: the runner the tests
/// of every command use, rather than one of their own.
package struct CommandRun: Sendable {
  /// Everything written to standard output.
  package var output: String
  /// Everything written to standard error.
  package var error: String
  package var status: ExitCode

  /// Runs `command` on a ``CapturedIO`` made of `input`, `environment` and `isTerminal`.
  package init(
    input: [String] = [], environment: [String: String] = [:], isTerminal: Bool = false,
    _ command: (CommandIO) throws -> ExitCode
  ) rethrows {
    let captured = CapturedIO(input: input, environment: environment, isTerminal: isTerminal)
    status = try command(captured.io)
    output = captured.output
    error = captured.error
  }

  /// Runs `command`, which is `async` (`tutorial`'s), as ``init(input:environment:isTerminal:_:)``
  /// runs one that is not, in the caller's isolation.
  package init(
    input: [String] = [], environment: [String: String] = [:], isTerminal: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    awaiting command: (CommandIO) async throws -> ExitCode
  ) async rethrows {
    let captured = CapturedIO(input: input, environment: environment, isTerminal: isTerminal)
    status = try await command(captured.io)
    output = captured.output
    error = captured.error
  }
}
