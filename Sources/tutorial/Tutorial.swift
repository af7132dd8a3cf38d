import CommandSupport
import Foundation
import TutorialDemos

/// `swift run tutorial N`: runs ``TutorialCommand/run(_:io:)`` on the process's arguments and
/// streams, and exits with what it returns.
@main
struct TutorialMain {
  static func main() {
    exit(TutorialCommand.run(Array(CommandLine.arguments.dropFirst()), io: .standard).rawValue)
  }
}
