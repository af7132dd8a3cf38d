import Foundation
import Stage5Variants
import StageBench

// swift run -c release stage5-variants: appendix 05a's table, what each optimisation of stage 5
// tuned buys, each one taken away alone. `--quick` for tiny sizes, to check that it runs.

let usage = """
  USAGE: stage5-variants [--quick]

  Measures stage 5 tuned beside the floor and versions of it that each go without one
  optimisation, and prints appendix 05a's table as Markdown. Run it with -c release.

  OPTIONS:
    --quick     Tiny sizes, to check that every row is produced.
    -h, --help  Show this help.

  """

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--help"] || arguments == ["-h"] {
  print(usage, terminator: "")
  exit(0)
}
guard arguments.isEmpty || arguments == ["--quick"] else {
  FileHandle.standardError.write(
    Data(
      ("stage5-variants: unknown argument '\(arguments.joined(separator: " "))'; "
        + "see 'stage5-variants --help'\n").utf8))
  exit(64)
}
#if DEBUG
  FileHandle.standardError.write(
    Data(
      "stage5-variants: a debug build, whose timings mean little; use swift run -c release\n".utf8))
#endif
do {
  print(try TunedVersions.table(sizes: arguments.isEmpty ? .full : .quick), terminator: "")
} catch {
  FileHandle.standardError.write(Data("stage5-variants: \(error)\n".utf8))
  exit(1)
}
