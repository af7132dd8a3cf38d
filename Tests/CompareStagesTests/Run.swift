import CommandSupport
import CompareStagesKit

/// What one in-process run of `compare-stages` printed, and how it ended.
struct Run {
  /// What it wrote to standard output.
  var standardOutput: String
  /// What it wrote to standard error.
  var standardError: String
  /// How it ended.
  var status: ExitCode
}

/// Runs `compare-stages` with `arguments`, as if on a terminal when `isTerminal`.
func compareStages(
  _ arguments: [String], isTerminal: Bool = false, environment: [String: String] = [:]
) -> Run {
  let captured = CapturedIO(environment: environment, isTerminal: isTerminal)
  let status = CompareStages.run(arguments, io: captured.io)
  return Run(standardOutput: captured.output, standardError: captured.error, status: status)
}
