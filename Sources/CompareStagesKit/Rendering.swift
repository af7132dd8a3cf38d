import Foundation
import StageScenarios

// MARK: - Text

extension Report {
  /// The comparison as a table for a terminal, then the evidence of every flaw.
  ///
  /// - Parameter color: Whether to colour ✓ and ✗ with ANSI escapes.
  /// - Returns: Lines that fit in 100 columns, ending with a newline.
  package func text(color: Bool = false) -> String {
    let nameWidth = max(rows.map(\.scenario.name.count).max() ?? 0, "scenario".count)
    let headers = stages.map { "\($0.number) \($0.shortName)" }
    let columnWidth = max(headers.map(\.count).max() ?? 0, 3) + 2

    func cell(_ content: String, visibleWidth: Int) -> String {
      let padding = columnWidth - visibleWidth
      let left = padding / 2
      return String(repeating: " ", count: left) + content
        + String(repeating: " ", count: padding - left)
    }
    func symbol(_ verdict: Verdict) -> String {
      guard color else { return verdict.symbol }
      let code = verdict == .holds ? "32" : "31"
      return "\u{1B}[\(code)m\(verdict.symbol)\u{1B}[0m"
    }
    func trimmed(_ line: String) -> String {
      String(line.reversed().drop { $0 == " " }.reversed())
    }

    var lines = [
      "Each scenario run live on every stage: ✓ the property holds, ✗ the stage has the flaw.",
      "",
    ]
    lines.append(
      trimmed(
        "scenario".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
          + headers.map { cell($0, visibleWidth: $0.count) }.joined()))
    for row in rows {
      lines.append(
        trimmed(
          row.scenario.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            + row.outcomes.map { cell(symbol($0.outcome.verdict), visibleWidth: 1) }.joined()))
    }
    lines.append("")
    for (index, stage) in stages.enumerated() {
      lines.append((index == 0 ? "Stages: " : "        ") + "\(stage.number) \(stage.title)")
    }

    let flaws = rows.filter { $0.outcomes.contains { $0.outcome.verdict == .flaw } }
    if !flaws.isEmpty {
      lines.append("")
      lines.append("Evidence for each ✗:")
      for row in flaws {
        lines.append("")
        lines.append(row.scenario.name)
        for (stage, outcome) in row.outcomes where outcome.verdict == .flaw {
          lines += wrap(outcome.detail, firstPrefix: "  \(stage.number)  ", prefix: "     ")
        }
      }
    }
    lines.append("")
    lines.append(summary)
    return lines.joined(separator: "\n") + "\n"
  }

  /// The last line: whether every verdict matches the documented table.
  package var summary: String {
    let count = rows.count * stages.count
    let mismatchCount = mismatches.count
    return mismatchCount == 0
      ? "All \(count) verdicts match the documented table."
      : "\(mismatchCount) of \(count) verdicts differ from the documented table."
  }
}

/// Wraps `text` at 100 columns, the first line behind `firstPrefix`, the others behind `prefix`.
func wrap(_ text: String, firstPrefix: String, prefix: String, width: Int = 100) -> [String] {
  var lines: [String] = []
  var line = firstPrefix
  var lineHasWords = false
  for word in text.split(separator: " ") {
    if lineHasWords && line.count + 1 + word.count > width {
      lines.append(line)
      line = prefix
      lineHasWords = false
    }
    line += (lineHasWords ? " " : "") + word
    lineHasWords = true
  }
  lines.append(line)
  return lines
}

// MARK: - Markdown

extension Report {
  /// The comparison as a Markdown table, then a list of the evidence of every flaw.
  package var markdown: String {
    var lines = [
      "| scenario | what it checks | " + stages.map { String($0.number) }.joined(separator: " | ")
        + " |",
      "| --- | --- | " + stages.map { _ in "---" }.joined(separator: " | ") + " |",
    ]
    for row in rows {
      lines.append(
        "| `\(row.scenario.name)` | \(row.scenario.title) | "
          + row.outcomes.map(\.outcome.verdict.symbol).joined(separator: " | ") + " |")
    }
    let flaws = rows.flatMap { row in
      row.outcomes.filter { $0.outcome.verdict == .flaw }.map { (row.scenario.name, $0) }
    }
    if !flaws.isEmpty {
      lines.append("")
      lines.append("Evidence for each ✗:")
      lines.append("")
      for (name, result) in flaws {
        lines.append("- `\(name)`, stage \(result.stage.number): \(result.outcome.detail)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

// MARK: - JSON

extension Report {
  private struct JSONReport: Encodable {
    struct StageEntry: Encodable {
      var stage: Int
      var module: String
      var title: String
      var chapter: String
    }
    struct ScenarioEntry: Encodable {
      var name: String
      var title: String
      var chapter: String
      var results: [Result]
    }
    struct Result: Encodable {
      var stage: Int
      var verdict: Verdict
      var detail: String
      var documented: Verdict?
    }
    var stages: [StageEntry]
    var scenarios: [ScenarioEntry]
    var matchesDocumentedTable: Bool
  }

  /// The comparison as JSON, keys sorted, for programs.
  package var json: String {
    let report = JSONReport(
      stages: stages.map {
        .init(stage: $0.number, module: $0.module, title: $0.title, chapter: $0.chapter)
      },
      scenarios: rows.map { row in
        .init(
          name: row.scenario.name, title: row.scenario.title, chapter: row.scenario.chapter,
          results: row.outcomes.map {
            .init(
              stage: $0.stage.number, verdict: $0.outcome.verdict, detail: $0.outcome.detail,
              documented: row.scenario.documented[$0.stage])
          })
      },
      matchesDocumentedTable: mismatches.isEmpty)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding these plain structs of strings, numbers and Booleans cannot fail.
    let data = try! encoder.encode(report)
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
