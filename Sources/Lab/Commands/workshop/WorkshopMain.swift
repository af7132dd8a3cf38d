import CommandSupport
import Foundation
import WorkshopKit

/// `swift run workshop`: grades the exercises in `Exercises/` with the scenarios and checks.
@main
struct WorkshopMain {
  static func main() {
    // The exercises are a package of their own, Exercises/: each is built with SwiftPM when it
    // is graded, and graded in child processes of its own, so that code that does not
    // compile, traps or hangs costs that exercise a ✗, not the whole run.
    let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
    IsolatedGrading.stopChildrenOnInterrupt()
    let arguments = Array(CommandLine.arguments.dropFirst())
    let grading: Grading
    if let builder = ExerciseBuilder.locate(executable: executable) {
      grading = .compiled(builder)
    } else {
      grading = .unavailable(
        "no package with an Exercises package above \(executable) or at or above "
          + "\(FileManager.default.currentDirectoryPath) (run it in the package: "
          + "swift run workshop)")
    }
    let status = WorkshopCommand.run(arguments, io: .standard, code: [:], grading: grading)
    exit(status.rawValue)
  }
}
