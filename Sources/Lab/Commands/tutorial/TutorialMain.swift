import CommandSupport
import Foundation
import TutorialKit

/// `swift run tutorial N`: runs ``TutorialCommand/run(_:io:)`` on the process's arguments and
/// streams, and exits with what it returns.
@main
struct TutorialMain {
  @MainActor
  static func main() async {
    exit(
      await TutorialCommand.run(Array(CommandLine.arguments.dropFirst()), io: .standard).rawValue)
  }
}
