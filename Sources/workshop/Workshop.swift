import CommandSupport
import Foundation
import WorkshopKit
import WorkshopStarters

/// `swift run workshop`: grades the exercises in `Exercises/` with the scenarios.
@main
struct WorkshopMain {
  static func main() {
    // Each exercise is graded in a child process of this same executable, so that a learner's
    // code that traps or hangs costs that exercise a ✗, not the whole run.
    let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
    IsolatedGrading.stopChildrenOnInterrupt()
    let status = WorkshopCommand.run(
      Array(CommandLine.arguments.dropFirst()), io: .standard, code: starterCode,
      grading: .isolated(command: [executable]))
    exit(status.rawValue)
  }
}
