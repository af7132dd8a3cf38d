import CommandSupport
import Foundation
import WorkshopKit
import WorkshopStarters

/// `swift run workshop`: grades the exercises in `Exercises/` with the scenarios.
@main
struct WorkshopMain {
  static func main() {
    let status = WorkshopCommand.run(
      Array(CommandLine.arguments.dropFirst()), io: .standard, designs: starterDesigns)
    exit(status.rawValue)
  }
}
