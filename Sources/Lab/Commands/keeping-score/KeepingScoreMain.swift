import CommandSupport
import Foundation
import KeepingScoreKit

/// `swift run keeping-score`: runs ``KeepingScoreCommand/run(_:io:)`` on the process's
/// arguments and streams, and exits with what it returns.
@main
struct KeepingScoreMain {
  static func main() {
    exit(KeepingScoreCommand.run(Array(CommandLine.arguments.dropFirst()), io: .standard).rawValue)
  }
}
