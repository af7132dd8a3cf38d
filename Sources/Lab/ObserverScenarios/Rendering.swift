import Support

// MARK: - Text

extension ScenarioReport {
  /// The comparison as a table for a terminal, a legend, then the evidence of every verdict
  /// that is not ✓, and a last line saying whether the documented verdicts were met.
  ///
  /// Each column is headed by its design's number and short name, "2 keyed"; when those would
  /// make the table wider than 100 columns, by its label alone, "2", which the legend under the
  /// table explains.
  ///
  /// - Parameter color: Whether to colour ✓ and ✗ with ANSI escapes.
  /// - Returns: Lines that fit in 100 columns while the labels do, ending with a newline.
  public func text(color: Bool = false) -> String {
    let nameWidth = max(rows.map(\.scenario.name.count).max() ?? 0, "scenario".count)

    func cell(_ content: String, visibleWidth: Int, width: Int) -> String {
      let padding = width - visibleWidth
      let left = padding / 2
      return String(repeating: " ", count: left) + content
        + String(repeating: " ", count: padding - left)
    }
    func trimmed(_ line: String) -> String {
      String(line.reversed().drop { $0 == " " }.reversed())
    }
    func widths(_ headings: [String]) -> [Int] { headings.map { max($0.count, 3) + 2 } }
    func header(_ headings: [String]) -> String {
      trimmed(
        "scenario".padded(to: nameWidth)
          + zip(headings, widths(headings)).map { cell($0, visibleWidth: $0.count, width: $1) }
          .joined())
    }
    // "2 keyed" while the header fits in 100 columns, "2" past that.
    let headings =
      header(designs.map(\.heading)).count <= 100 ? designs.map(\.heading) : designs.map(\.label)
    let widths = widths(headings)

    func symbol(_ verdict: Verdict) -> String {
      guard color, verdict != .notApplicable else { return verdict.symbol }
      let code = verdict == .holds ? "32" : "31"
      return "\u{1B}[\(code)m\(verdict.symbol)\u{1B}[0m"
    }

    let hasReferences = designs.contains { $0.stageNumber == nil }
    var lines = [
      hasReferences
        ? "Each scenario run live: ✓ the property holds, ✗ a flaw, – the idea does not apply."
        : "Each scenario run live on every stage: ✓ the property holds, ✗ the stage has the flaw.",
      "",
    ]
    lines.append(header(headings))
    for row in rows {
      lines.append(
        trimmed(
          row.scenario.name.padded(to: nameWidth)
            + zip(row.outcomes, widths).map {
              cell(symbol($0.outcome.verdict), visibleWidth: 1, width: $1)
            }.joined()))
    }
    lines.append("")
    for (heading, listed) in [
      ("Stages: ", designs.filter { $0.stageNumber != nil }),
      ("References: ", designs.filter { $0.role == .reference }),
      ("Graded: ", designs.filter { $0.role == .graded }),
    ] {
      for (index, design) in listed.enumerated() {
        lines.append(
          (index == 0 ? heading : String(repeating: " ", count: heading.count))
            + "\(design.label) \(design.title)")
      }
    }

    let labelWidth = designs.map(\.label.count).max() ?? 1
    let explained = rows.filter { $0.outcomes.contains { $0.outcome.verdict != .holds } }
    if !explained.isEmpty {
      lines.append("")
      lines.append(hasReferences ? "Evidence for each ✗ and –:" : "Evidence for each ✗:")
      for row in explained {
        lines.append("")
        lines.append(row.scenario.name)
        for (design, outcome) in row.outcomes where outcome.verdict != .holds {
          let label = design.label.padding(
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

  /// The last line: whether every documented verdict was met: the stages' documented table,
  /// or the verdicts a design of your own pins with ``ObservableDesign/documentedFlaws``.
  public var summary: String {
    let count = rows.count * documentedDesigns.count
    guard count > 0 else {
      return designs.contains { $0.role == .reference }
        ? "References are measured, not documented: nothing to match."
        : "Measured live: nothing documented to match."
    }
    let mismatchCount = mismatches.count
    // Only the stages have a documented table; a design of one's own pins its verdicts.
    guard documentedDesigns.allSatisfy({ $0.stageNumber != nil }) else {
      return mismatchCount == 0
        ? "All \(count) documented verdicts match the live run."
        : "\(mismatchCount) of \(count) documented verdicts differ from the live run."
    }
    return mismatchCount == 0
      ? "All \(count) stage verdicts match the documented table."
      : "\(mismatchCount) of \(count) stage verdicts differ from the documented table."
  }
}

// MARK: - Markdown

extension ScenarioReport {
  /// The comparison as a Markdown table, then a list of the evidence of every verdict that is
  /// not ✓: for a pull request, a wiki page, a test's attachment.
  public var markdown: String {
    let headings = designs.map { $0.stageNumber.map(String.init) ?? $0.name }
    var lines = markdownTable(
      header: ["scenario", "what it checks"] + headings,
      rows: rows.map { row in
        ["`\(row.scenario.name)`", row.scenario.title]
          + row.outcomes.map(\.outcome.verdict.symbol)
      })
    let explained = rows.flatMap { row in
      row.outcomes.filter { $0.outcome.verdict != .holds }.map { (row.scenario.name, $0) }
    }
    if !explained.isEmpty {
      let hasReferences = designs.contains { $0.stageNumber == nil }
      lines.append("")
      lines.append(hasReferences ? "Evidence for each ✗ and –:" : "Evidence for each ✗:")
      lines.append("")
      for (name, result) in explained {
        lines.append("- `\(name)`, \(result.design.name): \(result.outcome.detail)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

// MARK: - JSON

extension ScenarioReport {
  private struct JSONReport: Encodable {
    /// A design, under the key of its role: `stage` with its number, or `reference` or `graded`
    /// with its id. Only a stage has a chapter.
    struct DesignEntry: Encodable {
      var stage: Int?
      var reference: String?
      var graded: String?
      var module: String
      var title: String
      var chapter: String?
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
      var graded: String?
      var verdict: Verdict
      var detail: String
      var documented: Verdict?
    }
    var stages: [DesignEntry]
    var references: [DesignEntry]?
    var graded: [DesignEntry]?
    var scenarios: [ScenarioEntry]
    var matchesDocumentedTable: Bool
  }

  /// The comparison as JSON, keys sorted, for programs: the stages (each by its number), the
  /// platform's references (under `references`) and the graded designs (under `graded`), each
  /// by its ``ObservableDesign/id``, and every scenario's results, one per design, with its
  /// verdict (`holds`, `flaw` or `n/a`) and evidence, and, for a design whose verdicts are
  /// documented (a stage, or a design that pins them with ``ObservableDesign/documentedFlaws``),
  /// the `documented` verdict.
  public var json: String {
    let references = designs.filter { $0.role == .reference }.map {
      JSONReport.DesignEntry(reference: $0.id, module: $0.module, title: $0.title)
    }
    let graded = designs.filter { $0.role == .graded }.map {
      JSONReport.DesignEntry(graded: $0.id, module: $0.module, title: $0.title)
    }
    let report = JSONReport(
      stages: designs.compactMap { design in
        design.stageNumber.map {
          .init(
            stage: $0, module: design.module, title: design.title, chapter: design.chapter ?? "")
        }
      },
      references: references.isEmpty ? nil : references,
      graded: graded.isEmpty ? nil : graded,
      scenarios: rows.map { row in
        .init(
          name: row.scenario.name, title: row.scenario.title, chapter: row.scenario.chapter,
          results: row.outcomes.map { design, outcome in
            // Every design has its evidence and, if documented, its verdict; only the key it
            // is filed under differs with its role.
            var result = JSONReport.Result(
              verdict: outcome.verdict, detail: outcome.detail,
              documented: design.documentedVerdict(for: row.scenario.id))
            if let stage = design.stageNumber {
              result.stage = stage
            } else if design.role == .reference {
              result.reference = design.id
            } else {
              result.graded = design.id
            }
            return result
          })
      },
      matchesDocumentedTable: mismatches.isEmpty)
    return prettyJSON(report)
  }
}
