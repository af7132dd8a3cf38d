import Foundation
import StageBench

// `bash Benchmarks/variants [--quick | --json]`: appendix 05a's table, as Markdown, on standard
// output; or, with --json, every figure of a full run.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    OVERVIEW: Measure stage 5 tuned beside versions of it that each go without one
    optimisation, and print appendix 05a's table as Markdown.

    USAGE: bash Benchmarks/variants [--quick | --json]

    OPTIONS:
      --quick    a short run, to check that it works; the appendix records a full run
      --json     a full run, every figure (each median, with the fastest and slowest sample)
    """)
  exit(0)
}
if let unknown = arguments.first(where: { $0 != "--quick" && $0 != "--json" }) {
  FileHandle.standardError.write(
    Data("variants: unknown argument '\(unknown)' (valid: --quick, --json, --help)\n".utf8))
  exit(64)
}
do {
  if arguments == ["--json"] {
    // Every figure, as appendix 05a quotes them: not the table, so no allocation check.
    print(try Bench.run(sizes: .full, contenders: TunedVersions.contenders).json)
    exit(0)
  }
  print(try TunedVersions.table(sizes: arguments.isEmpty ? .full : .quick), terminator: "")
} catch {
  FileHandle.standardError.write(Data("variants: \(error)\n".utf8))
  exit(1)
}
