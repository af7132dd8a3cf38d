import Stage5Variants
import StageBench
import Testing

/// Appendix 05a's table of what each optimisation of stage 5 tuned buys: a recorded run of
/// `swift run -c release compare-stages variants`, which must keep the shape that command prints.
@Suite("Documentation: appendix 05a's table")
struct VariantTableTests {
  private let appendix = "Tutorial/05a-appendix-making-stage-5-fast.md"

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

  @Test("the appendix records one run of the command, with the rows and columns it prints")
  func shapeOfTheTable() throws {
    let blocks = try MarkdownDocument(appendix).variantBlocks
    try #require(
      blocks.count == 1, "\(appendix) records no compare-stages variants run, or several")
    #expect(blocks[0].command == "swift run -c release compare-stages variants")
    let expected = TunedVersions.markdown(
      of: BenchReport.shape(of: .full, contenders: TunedVersions.contenders))
    #expect(!expected.isEmpty)
    #expect(
      benchTableShape(blocks[0].content) == benchTableShape(expected),
      "\(appendix):\(blocks[0].line): the table no longer has the shape compare-stages variants prints"
    )
  }

  @Test("the recorded figures are consistent: tuned is ×1.0 of itself, allocations are exact")
  func figures() throws {
    let block = try #require(try MarkdownDocument(appendix).variantBlocks.first)
    let rows = rows(block.content)
    let tuned = try #require(rows[TunedVersions.baseline])
    // Four sizes, then allocations per set, then bytes per observer.
    #expect(tuned.prefix(4).allSatisfy { $0.hasSuffix("(×1.0)") })
    for (name, cells) in rows where name != "floor" {
      let allocations = cells[4]
      #expect(
        allocations == (name == "an allocation per set" ? "1.0" : "0.0"),
        "\(name): allocations per set are exact")
    }
    let bytes = try #require(Double(tuned[5]))
    #expect(bytes <= 200, "stage 5 tuned promises at most 200 bytes per observer")
  }
}
