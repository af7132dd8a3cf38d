import CompareStagesKit
import Foundation

/// `swift run compare-stages`: prints what `CompareStages.run(_:color:)` returns, and exits
/// with its status.
@main
struct CompareStagesCommand {
  static func main() {
    let color =
      isatty(FileHandle.standardOutput.fileDescriptor) == 1
      && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    #if DEBUG
      let isDebugBuild = true
    #else
      let isDebugBuild = false
    #endif
    let invocation = CompareStages.run(
      Array(CommandLine.arguments.dropFirst()), color: color, isDebugBuild: isDebugBuild)
    FileHandle.standardOutput.write(Data(invocation.standardOutput.utf8))
    FileHandle.standardError.write(Data(invocation.standardError.utf8))
    exit(invocation.status)
  }
}
