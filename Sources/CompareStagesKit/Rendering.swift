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
    let widths = columns.map { max($0.heading.count, 3) + 2 }

    func cell(_ content: String, visibleWidth: Int, width: Int) -> String {
      let padding = width - visibleWidth
      let left = padding / 2
      return String(repeating: " ", count: left) + content
        + String(repeating: " ", count: padding - left)
    }
    func symbol(_ verdict: Verdict) -> String {
      guard color, verdict != .notApplicable else { return verdict.symbol }
      let code = verdict == .holds ? "32" : "31"
      return "\u{1B}[\(code)m\(verdict.symbol)\u{1B}[0m"
    }
    func trimmed(_ line: String) -> String {
      String(line.reversed().drop { $0 == " " }.reversed())
    }

    let hasReferences = columns.contains { if case .reference = $0 { true } else { false } }
    var lines = [
      hasReferences
        ? "Each scenario run live: ✓ the property holds, ✗ a flaw, – the idea does not apply."
        : "Each scenario run live on every stage: ✓ the property holds, ✗ the stage has the flaw.",
      "",
    ]
    lines.append(
      trimmed(
        "scenario".padding(toLength: nameWidth, withPad: " ", startingAt: 0)
          + zip(columns, widths).map { cell($0.heading, visibleWidth: $0.heading.count, width: $1) }
          .joined()))
    for row in rows {
      lines.append(
        trimmed(
          row.scenario.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            + zip(row.outcomes, widths).map {
              cell(symbol($0.outcome.verdict), visibleWidth: 1, width: $1)
            }.joined()))
    }
    lines.append("")
    for (index, stage) in stages.enumerated() {
      lines.append((index == 0 ? "Stages: " : "        ") + "\(stage.number) \(stage.title)")
    }
    for (index, implementation) in columns.filter({ !isStage($0) }).enumerated() {
      lines.append(
        (index == 0 ? "References: " : "            ")
          + "\(implementation.shortName) \(implementation.title)")
    }

    let labelWidth = columns.map(\.label.count).max() ?? 1
    let explained = rows.filter { $0.outcomes.contains { $0.outcome.verdict != .holds } }
    if !explained.isEmpty {
      lines.append("")
      lines.append(hasReferences ? "Evidence for each ✗ and –:" : "Evidence for each ✗:")
      for row in explained {
        lines.append("")
        lines.append(row.scenario.name)
        for (implementation, outcome) in row.outcomes where outcome.verdict != .holds {
          let label = implementation.label.padding(
            toLength: labelWidth, withPad: " ", startingAt: 0)
          lines += wrap(
            outcome.detail, firstPrefix: "  \(label)  ",
            prefix: String(repeating: " ", count: labelWidth + 4))
        }
      }
    }
    lines.append("")
    lines.append(summary)
    return lines.joined(separator: "\n") + "\n"
  }

  /// The last line: whether every stage verdict matches the documented table.
  package var summary: String {
    let count = rows.count * stages.count
    guard count > 0 else { return "References are measured, not documented: nothing to match." }
    let mismatchCount = mismatches.count
    return mismatchCount == 0
      ? "All \(count) stage verdicts match the documented table."
      : "\(mismatchCount) of \(count) stage verdicts differ from the documented table."
  }
}

private func isStage(_ implementation: Implementation) -> Bool {
  if case .stage = implementation { true } else { false }
}

extension Implementation {
  /// How the evidence lines name it: "2", "nc".
  fileprivate var label: String {
    switch self {
    case .stage(let stage): String(stage.number)
    case .reference(let reference): reference.shortName
    }
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
    let headings = columns.map { isStage($0) ? $0.name : $0.description }
    var lines = [
      "| scenario | what it checks | " + headings.joined(separator: " | ") + " |",
      "| --- | --- | " + columns.map { _ in "---" }.joined(separator: " | ") + " |",
    ]
    for row in rows {
      lines.append(
        "| `\(row.scenario.name)` | \(row.scenario.title) | "
          + row.outcomes.map(\.outcome.verdict.symbol).joined(separator: " | ") + " |")
    }
    let explained = rows.flatMap { row in
      row.outcomes.filter { $0.outcome.verdict != .holds }.map { (row.scenario.name, $0) }
    }
    if !explained.isEmpty {
      let hasReferences = columns.contains { !isStage($0) }
      lines.append("")
      lines.append(hasReferences ? "Evidence for each ✗ and –:" : "Evidence for each ✗:")
      lines.append("")
      for (name, result) in explained {
        lines.append("- `\(name)`, \(result.implementation): \(result.outcome.detail)")
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
    struct ReferenceEntry: Encodable {
      var reference: String
      var module: String
      var title: String
    }
    struct ScenarioEntry: Encodable {
      var name: String
      var title: String
      var chapter: String
      var results: [Result]
    }
    struct Result: Encodable {
      var stage: Int?
      var reference: String?
      var verdict: Verdict
      var detail: String
      var documented: Verdict?
    }
    var stages: [StageEntry]
    var references: [ReferenceEntry]?
    var scenarios: [ScenarioEntry]
    var matchesDocumentedTable: Bool
  }

  /// The comparison as JSON, keys sorted, for programs.
  package var json: String {
    let references = columns.compactMap { column -> JSONReport.ReferenceEntry? in
      guard case .reference(let reference) = column else { return nil }
      return .init(reference: reference.name, module: reference.module, title: reference.title)
    }
    let report = JSONReport(
      stages: stages.map {
        .init(stage: $0.number, module: $0.module, title: $0.title, chapter: $0.chapter)
      },
      references: references.isEmpty ? nil : references,
      scenarios: rows.map { row in
        .init(
          name: row.scenario.name, title: row.scenario.title, chapter: row.scenario.chapter,
          results: row.outcomes.map { implementation, outcome in
            switch implementation {
            case .stage(let stage):
              .init(
                stage: stage.number, verdict: outcome.verdict, detail: outcome.detail,
                documented: row.scenario.documented[stage])
            case .reference(let reference):
              .init(reference: reference.name, verdict: outcome.verdict, detail: outcome.detail)
            }
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
