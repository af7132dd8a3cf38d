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
      let padded = cells.enumerated().map { column, cell in
        column == 0
          ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
          : String(repeating: " ", count: widths[column] - cell.count) + cell
      }
      return padded.joined(separator: "  ")
    }
    return ([title, line(headers)] + rows.map(line)).joined(separator: "\n") + "\n"
  }

  var markdown: String {
    let table = markdownTable(header: headers, rows: rows, figuresRightAligned: true)
    return (["**\(title)**", ""] + table).joined(separator: "\n") + "\n"
  }
}

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
        "Fan-out: nanoseconds per observer callback, median of \(sizes.repetitions) (ratio to the floor)",
        nHeaders
      ) { $0.fanOut.map { "\(decimal($0.medianNanoseconds)) (×\(decimal($0.ratioToFloor)))" } },
      table("Spread: min–max nanoseconds per observer callback", nHeaders) {
        $0.fanOut.map { "\(decimal($0.minNanoseconds))–\(decimal($0.maxNanoseconds))" }
      },
      table("Heap allocations per set, once subscribed", nHeaders, shown: allocationCounting) {
        $0.fanOut.map { $0.allocationsPerSet.map(decimal) ?? "–" }
      },
      table(
        "Churn: milliseconds to add, then remove, N observers one at a time",
        sizes.churn.map { "N=\(grouped($0))" } + ["growth", "removal"]
      ) { row in
        row.churn.map { decimal($0.milliseconds) }
          + ["×\(decimal(row.churnGrowth))", row.churnRemoves ? "remove" : "release owner"]
      },
      table(
        "Memory: heap bytes per registered observer", ["bytes", "observers"],
        shown: allocationCounting
      ) { [$0.bytesPerObserver.map { decimal($0) } ?? "–", grouped($0.memoryObservers)] },
      table(
        "Stale entries: microseconds per set after \(grouped(sizes.stale)) observers were released",
        ["first set", "later sets"]
      ) { [decimal($0.firstSetAfterReleaseMicroseconds), decimal($0.laterSetMicroseconds)] },
    ].compactMap { $0 }
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
  package var markdown: String {
    tables.map(\.markdown).joined(separator: "\n")
  }

  /// The report as JSON, keys sorted.
  package var json: String {
    prettyJSON(self)
  }
}
