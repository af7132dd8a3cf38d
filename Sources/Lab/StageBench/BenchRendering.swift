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
  /// The report's tables, in the order they are printed.
  var tables: [BenchTable] {
    let sizes = self.sizes
    let nHeaders = sizes.fanOut.map { "N=\(grouped($0))" }
    var tables = [
      BenchTable(
        title:
          "Fan-out: nanoseconds per observer callback, median of \(sizes.repetitions) (ratio to the floor)",
        headers: ["contender"] + nHeaders,
        rows: rows.map { row in
          [row.contender]
            + row.fanOut.map { "\(decimal($0.medianNanoseconds)) (×\(decimal($0.ratioToFloor)))" }
        }),
      BenchTable(
        title: "Spread: min–max nanoseconds per observer callback",
        headers: ["contender"] + nHeaders,
        rows: rows.map { row in
          [row.contender]
            + row.fanOut.map { "\(decimal($0.minNanoseconds))–\(decimal($0.maxNanoseconds))" }
        }),
    ]
    if allocationCounting {
      tables.append(
        BenchTable(
          title: "Heap allocations per set, once subscribed",
          headers: ["contender"] + nHeaders,
          rows: rows.map { row in
            [row.contender] + row.fanOut.map { $0.allocationsPerSet.map(decimal) ?? "–" }
          }))
    }
    tables.append(
      BenchTable(
        title: "Churn: milliseconds to add, then remove, N observers one at a time",
        headers: ["contender"] + sizes.churn.map { "N=\(grouped($0))" } + ["growth", "removal"],
        rows: rows.map { row in
          [row.contender] + row.churn.map { decimal($0.milliseconds) }
            + ["×\(decimal(row.churnGrowth))", row.churnRemoves ? "remove" : "release owner"]
        }))
    if allocationCounting {
      tables.append(
        BenchTable(
          title: "Memory: heap bytes per registered observer",
          headers: ["contender", "bytes", "observers"],
          rows: rows.map {
            [
              $0.contender, $0.bytesPerObserver.map { decimal($0) } ?? "–",
              grouped($0.memoryObservers),
            ]
          }))
    }
    tables.append(
      BenchTable(
        title:
          "Stale entries: microseconds per set after \(grouped(sizes.stale)) observers were released",
        headers: ["contender", "first set", "later sets"],
        rows: rows.map {
          [
            $0.contender, decimal($0.firstSetAfterReleaseMicroseconds),
            decimal($0.laterSetMicroseconds),
          ]
        }))
    return tables
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
