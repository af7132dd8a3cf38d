import Foundation
import StageBench

// `bash Benchmarks/variants [--quick]`: appendix 05a's table, as Markdown, on standard output.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    OVERVIEW: Measure stage 5 tuned beside versions of it that each go without one
    optimisation, and print appendix 05a's table as Markdown.

    USAGE: bash Benchmarks/variants [--quick]

    OPTIONS:
      --quick    a short run, to check that it works; the appendix records a full run
    """)
  exit(0)
}
if let unknown = arguments.first(where: { $0 != "--quick" }) {
  FileHandle.standardError.write(
    Data("variants: unknown argument '\(unknown)' (valid: --quick, --help)\n".utf8))
  exit(64)
}
do {
  print(try TunedVersions.table(sizes: arguments.isEmpty ? .full : .quick), terminator: "")
} catch {
  FileHandle.standardError.write(Data("variants: \(error)\n".utf8))
  exit(1)
}
