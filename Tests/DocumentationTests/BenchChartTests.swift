import Foundation
import TestSupport
import Testing

/// The charts committed beside the bench appendix must show the figures of its table, rounded as
/// the table rounds them: the same recorded run, drawn.
@Suite("Documentation: bench charts")
struct BenchChartTests {
  private let appendix = "Tutorial/06a-appendix-bench-tables.md"

  /// The rows of one table of the appendix's recorded run, by contender: each cell's text.
  private func table(titled title: String) throws -> [String: [String]] {
    let document = try MarkdownDocument(appendix)
    let bench = try #require(document.benchBlocks.first, "no recorded bench run")
    let section = try #require(
      bench.content.components(separatedBy: "**\(title)").dropFirst().first, "no table \(title)")
    var rows: [String: [String]] = [:]
    for line in section.split(separator: "\n").prefix(while: { !$0.hasPrefix("**") })
    where line.hasPrefix("| ") && !line.hasPrefix("| contender") && !line.hasPrefix("| ---") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      rows[cells[0]] = Array(cells.dropFirst())
    }
    return rows
  }

  /// The `data-value` of every mark in a chart, by contender, in drawing order.
  private func chart(_ name: String) throws -> [String: [String]] {
    let svg = try String(
      contentsOf: packageRoot.appendingPathComponent("Tutorial/images/\(name)"), encoding: .utf8)
    var values: [String: [String]] = [:]
    for mark in svg.components(separatedBy: "data-contender=\"").dropFirst() {
      let contender = String(mark.prefix { $0 != "\"" })
      let value = try #require(mark.components(separatedBy: "data-value=\"").dropFirst().first)
      values[contender, default: []].append(String(value.prefix { $0 != "\"" }))
    }
    return values
  }

  @Test("the fan-out chart plots the ratio to the floor of every cell of the fan-out table")
  func fanOut() throws {
    let rows = try table(titled: "Fan-out:")
    // "×2", or the floor's "×1 (20 ns)": the ratio, before the floor's own time.
    let ratios = rows.mapValues { $0.map { String($0.prefix { $0 != " " }) } }
    #expect(!ratios.isEmpty)
    #expect(ratios.values.joined().allSatisfy { $0.hasPrefix("×") })
    #expect(try chart("bench-fanout.svg") == ratios)
  }

  @Test("the churn chart plots every timing of the churn table")
  func churn() throws {
    let rows = try table(titled: "Churn:")
    let timings = rows.mapValues { Array($0.prefix(2)) }
    #expect(!timings.isEmpty)
    #expect(try chart("bench-churn.svg") == timings)
  }

  @Test("the memory chart plots the bytes of every row of the memory table")
  func memory() throws {
    let rows = try table(titled: "Memory:")
    let bytes = rows.mapValues { Array($0.prefix(1)) }
    #expect(!bytes.isEmpty)
    #expect(try chart("bench-memory.svg") == bytes)
  }
}
