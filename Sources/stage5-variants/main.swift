import Foundation
import Stage5Variants
import StageBench

// swift run -c release stage5-variants: appendix 05a's table, what each optimisation of stage 5
// tuned buys, measured by taking it away alone. `--quick` for tiny sizes.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.isEmpty || arguments == ["--quick"] else {
  FileHandle.standardError.write(
    Data(
      "stage5-variants: unknown argument '\(arguments.joined(separator: " "))'; valid: --quick\n"
        .utf8))
  exit(64)
}
#if DEBUG
  FileHandle.standardError.write(
    Data(
      "stage5-variants: a debug build; its timings mean little. Use swift run -c release.\n".utf8))
#endif
do {
  print(try TunedVersions.table(sizes: arguments.isEmpty ? .full : .quick), terminator: "")
} catch {
  FileHandle.standardError.write(Data("stage5-variants: \(error)\n".utf8))
  exit(1)
}
