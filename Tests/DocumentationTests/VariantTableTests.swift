import Foundation
import StageBench
import TestSupport
import Testing

/// Appendix 05a's table of what each optimisation of stage 5 tuned buys: a recorded run of
/// `bash Benchmarks/variants`, the package of its own that builds each version from a patch of
/// `Benchmarks/Patches/`. This package does not build those versions; it checks that the
/// patches still apply to the tuned module's source, and that the recorded table has a row for
/// each, in the shape the bench prints.
@Suite("Documentation: appendix 05a's table")
struct VariantTableTests {
  private let appendix = "Tutorial/05a-appendix-making-stage-5-fast.md"
  private let patches = packageRoot.appendingPathComponent("Benchmarks/Patches")

  /// The recorded table's rows, by contender: each cell's text.
  private func rows(_ markdown: String) -> [String: [String]] {
    var rows: [String: [String]] = [:]
    for line in markdown.split(separator: "\n")
    where line.hasPrefix("| ") && !line.hasPrefix("| contender") && !line.hasPrefix("| ---") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      rows[cells[0]] = Array(cells.dropFirst())
    }
    return rows
  }

  /// Each patch's file, with the row it names on its first line ("Row: NAME").
  private func patchRows() throws -> [(file: URL, row: String)] {
    try FileManager.default.contentsOfDirectory(at: patches, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "patch" }.sorted { $0.path < $1.path }
      .map { file in
        let firstLine = try String(contentsOf: file, encoding: .utf8).prefix { $0 != "\n" }
        try #require(firstLine.hasPrefix("Row: "), "\(file.lastPathComponent): no 'Row: NAME'")
        return (file, String(firstLine.dropFirst("Row: ".count)))
      }
  }

  @Test("the appendix records one run of the command: a row per patch, the columns it prints")
  func shapeOfTheTable() throws {
    let blocks = try MarkdownDocument(appendix).variantBlocks
    try #require(blocks.count == 1, "\(appendix) records no Benchmarks/variants run, or several")
    #expect(blocks[0].command == "bash Benchmarks/variants")
    // The lesson's two rows are named in the benchmark package's source, read here as text.
    let versions = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "Benchmarks/Sources/variants/TunedVersions.swift"), encoding: .utf8)
    let lessonRows = versions.matches(of: /static let lesson\w+ = "([^"]+)"/).map {
      String($0.output.1)
    }
    #expect(lessonRows.count == 2, "the lesson as a product, and copied")
    let names =
      try ["floor", "stage 5 tuned", "without @inlinable"] + patchRows().map(\.row) + lessonRows
    #expect(Set(rows(blocks[0].content).keys) == Set(names))
    // The columns of a full run, as the bench prints them against a baseline.
    let shape = BenchReport.shape(
      of: .full, contenders: names.map { Contender(name: $0) { fatalError("never run") } })
    let expectedHeader = try #require(
      shape.comparisonMarkdown(against: "stage 5 tuned", title: "")?.split(separator: "\n")
        .first { $0.hasPrefix("| contender") })
    #expect(blocks[0].content.split(separator: "\n").contains(expectedHeader))
  }

  @Test("the recorded figures are consistent: tuned is ×1 of itself, allocations are exact")
  func figures() throws {
    let block = try #require(try MarkdownDocument(appendix).variantBlocks.first)
    let rows = rows(block.content)
    let tuned = try #require(rows["stage 5 tuned"])
    // Four sizes, then allocations per set, then bytes per observer; the baseline's own time
    // beside its ×1.
    #expect(tuned.prefix(4).allSatisfy { $0.hasPrefix("×1 (") && $0.hasSuffix(" ns)") })
    for (name, cells) in rows where name != "floor" {
      let allocations = cells[4]
      #expect(
        allocations == (name == "an allocation per set" ? "1.0" : "0.0"),
        "\(name): allocations per set are exact")
    }
    let bytes = try #require(Double(tuned[5]))
    #expect(bytes <= 200, "stage 5 tuned promises at most 200 bytes per observer")
  }

  #if os(macOS) || os(Linux)
    @Test("every patch still applies exactly to Sources/Stage5Tuned, as Benchmarks/variants asks")
    func patchesApply() throws {
      try withTemporaryFolder("variants") { folder in
        let copy = folder.appendingPathComponent("Stage5Tuned")
        try FileManager.default.copyItem(
          at: packageRoot.appendingPathComponent("Sources/Stage5Tuned"), to: copy)
        for (file, row) in try patchRows() {
          let run = try ProcessRun(
            ["patch", "--dry-run", "-d", copy.path, "-p1", "-i", file.path])
          let said = run.outputAndError
          // A hunk placed at another line (an offset, a fuzz) may be placed wrong.
          let inexact = said.range(
            of: "offset|fuzz", options: [.regularExpression, .caseInsensitive])
          #expect(
            run.status == 0 && inexact == nil,
            Comment(
              rawValue: "\(file.lastPathComponent) (\(row)) no longer applies exactly: remake "
                + "it (Benchmarks/README.md): \(said)"))
        }
      }
    }
  #endif
}
