import Foundation
import Support

/// A titled table of the bench's figures, printed as text or Markdown.
struct BenchTable {
  var title: String
  var headers: [String]
  var rows: [[String]]

  var text: String {
    let widths = headers.indices.map { column in
      ([headers[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      zip(cells, widths).enumerated().map { column, cell in
        let padding = String(repeating: " ", count: cell.1 - cell.0.count)
        return column == 0 ? cell.0 + padding : padding + cell.0
      }.joined(separator: "  ")
    }
    return ([title, line(headers)] + rows.map(line)).joined(separator: "\n") + "\n"
  }

  var markdown: String {
    let table = markdownTable(header: headers, rows: rows, figuresRightAligned: true)
    return (["**\(title)**", ""] + table).joined(separator: "\n") + "\n"
  }
}

/// `value` on a coarse scale: the nearest, on a log scale, of 1, 2, 3 and 5 times a power of
/// ten, or 0 under about 0.07; steps of ×1.5 to ×2, so that a rerun moves a figure only when it
/// moved by about a third or more (appendix 6a). Not finite stays as it is.
func roughly(_ value: Double) -> Double {
  guard value.isFinite, value > 0 else { return value.isFinite ? 0 : value }
  let decade = pow(10, log10(value).rounded(.down))
  let squared = (value / decade) * (value / decade)  // 1 to 100: the geometric midpoints' squares
  let step = [(2.0, 1.0), (6, 2), (15, 3), (50, 5)].first { squared < $0.0 }?.1 ?? 10
  return step * decade < 0.1 ? 0 : step * decade
}

/// `value` rounded by ``roughly(_:)``, as text: "0.3", "20", "3,000"; "–" if not finite.
func rough(_ value: Double) -> String { value.isFinite ? figure(roughly(value)) : "–" }

/// A round figure as text: "0.3", "20", "3,000".
func figure(_ value: Double) -> String {
  value >= 1 ? grouped(Int(value.rounded())) : String(format: "%g", value)
}

/// Heap bytes per observer, to the byte: "189".
func wholeBytes(_ value: Double) -> String { grouped(Int(value.rounded())) }

extension BenchReport {
  /// The report's tables, in the order they are printed; those of allocations only when they
  /// were counted.
  var tables: [BenchTable] {
    let nHeaders = sizes.fanOut.map { "N=\(grouped($0))" }
    /// A table with a row per contender, its name first, if `shown`.
    func table(
      _ title: String, _ headers: [String], shown: Bool = true, _ cells: (Row) -> [String]
    ) -> BenchTable? {
      guard shown else { return nil }
      return BenchTable(
        title: title, headers: ["contender"] + headers,
        rows: rows.map { [$0.contender] + cells($0) })
    }
    return [
      table(
        "Fan-out: time per observer callback, median of \(sizes.repetitions), as a multiple of the floor's (its own in ns)",
        nHeaders
      ) { multiples(of: $0, over: rows.first { $0.contender == Contender.floor.name }) },
      table("Heap allocations per set, once subscribed", nHeaders, shown: allocationCounting) {
        $0.fanOut.map { $0.allocationsPerSet.map(decimal) ?? "–" }
      },
      table(
        "Churn: milliseconds to add, then remove, N observers one at a time",
        sizes.churn.map { "N=\(grouped($0))" } + ["growth", "removal"]
      ) { row in
        row.churn.map { rough($0.milliseconds) }
          + ["×\(rough(row.churnGrowth))", row.churnRemoves ? "remove" : "release owner"]
      },
      table(
        "Memory: heap bytes per registered observer", ["bytes", "observers"],
        shown: allocationCounting
      ) { [$0.bytesPerObserver.map(wholeBytes) ?? "–", grouped($0.memoryObservers)] },
      table(
        "Stale entries: microseconds per set after \(grouped(sizes.stale)) observers were released",
        ["first set", "later sets"]
      ) { [rough($0.firstSetAfterReleaseMicroseconds), rough($0.laterSetMicroseconds)] },
    ].compactMap { $0 }
  }

  /// Each N's time per callback of `row` as a multiple of `base`'s, rounded by ``roughly(_:)``;
  /// `base`'s own in nanoseconds beside its ×1. Over the floor, it is the ratio the fan-out
  /// chart plots (``BenchReport/FanOut/ratioToFloor``), divided here from the same medians, so
  /// that it holds for a report measured without the floor too.
  func multiples(of row: Row, over base: Row?) -> [String] {
    zip(row.fanOut, base?.fanOut ?? row.fanOut).map { cell, baseCell in
      "×\(rough(cell.medianNanoseconds / baseCell.medianNanoseconds))"
        + (row.contender == base?.contender ? " (\(rough(cell.medianNanoseconds)) ns)" : "")
    }
  }

  /// One table that sets every contender beside one of them, `baseline`: time per observer
  /// callback at each N as a multiple of the baseline's, rounded by ``roughly(_:)`` (the
  /// baseline's own in nanoseconds beside its ×1), then heap
  /// allocations per set at the largest N and heap bytes per observer. Appendix 05a's table of
  /// what each optimisation buys. The table is Markdown, `title` in bold above it; `nil` if no
  /// contender is called `baseline`.
  package func comparisonMarkdown(against baseline: String, title: String) -> String? {
    guard let base = rows.first(where: { $0.contender == baseline }) else { return nil }
    let largest = sizes.fanOut.last.map(grouped) ?? ""
    let table = BenchTable(
      title: title,
      headers: ["contender"] + sizes.fanOut.map { "N=\(grouped($0))" }
        + ["allocations per set, N=\(largest)", "bytes per observer"],
      rows: rows.map { row in
        [row.contender] + multiples(of: row, over: base) + [
          row.fanOut.last?.allocationsPerSet.map(decimal) ?? "–",
          row.bytesPerObserver.map(wholeBytes) ?? "–",
        ]
      })
    return table.markdown
  }

  /// The report as text tables.
  package var text: String {
    let counting =
      allocationCounting
      ? ""
      : "\nAllocation counting is off in this build (sanitized, or not glibc): no allocation or memory table.\n"
    return tables.map(\.text).joined(separator: "\n") + counting
  }

  /// The report as Markdown tables.
  package var markdown: String { tables.map(\.markdown).joined(separator: "\n") }

  /// The report as JSON, keys sorted.
  package var json: String { prettyJSON(self) }
}
