import CommandSupport
import CompareStagesKit
import Foundation

/// `swift run compare-stages`: runs ``CompareStagesCommand/run(_:io:isDebugBuild:)`` on the process's
/// arguments and streams, and exits with what it returns.
@main
struct CompareStagesMain {
  static func main() {
    #if DEBUG
      let isDebugBuild = true
    #else
      let isDebugBuild = false
    #endif
    exit(
      CompareStagesCommand.run(
        Array(CommandLine.arguments.dropFirst()), io: .standard, isDebugBuild: isDebugBuild
      ).rawValue)
  }
}
