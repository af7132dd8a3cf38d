import Support

extension BenchReport {
  /// One table that sets every contender beside one of them, `baseline`: nanoseconds per
  /// observer callback at each N, with the ratio to the baseline's at the same N, then heap
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
        let times = zip(row.fanOut, base.fanOut).map { cell, baseCell in
          let ratio =
            baseCell.medianNanoseconds > 0
            ? cell.medianNanoseconds / baseCell.medianNanoseconds : 0
          return "\(decimal(cell.medianNanoseconds)) (×\(decimal(ratio)))"
        }
        return [row.contender] + times + [
          row.fanOut.last?.allocationsPerSet.map(decimal) ?? "–",
          row.bytesPerObserver.map(decimal) ?? "–",
        ]
      })
    return table.markdown
  }
}
