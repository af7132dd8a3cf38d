import CommandSupport
import CompareStagesKit
import TestSupport

/// Runs `compare-stages` with `arguments`, as if on a terminal when `isTerminal`.
func compareStages(
  _ arguments: [String], isTerminal: Bool = false, environment: [String: String] = [:]
) -> CommandRun {
  CommandRun(environment: environment, isTerminal: isTerminal) {
    CompareStagesCommand.run(arguments, io: $0)
  }
}
