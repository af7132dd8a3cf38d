import StageScenarios

/// The scenarios run live on the chosen stages and references, with the documented verdicts
/// beside the stages'.
package struct Report: Sendable {
  /// One scenario's results, one per column.
  package struct Row: Sendable {
    /// The scenario run.
    package var scenario: Scenario
    /// What it found on each column, in column order.
    package var outcomes: [(implementation: Implementation, outcome: Outcome)]
  }

  /// A stage's verdict that differs from the documented table.
  package struct Mismatch: Sendable, Equatable, CustomStringConvertible {
    /// The scenario's name.
    package var scenario: String
    /// The stage.
    package var stage: Stage
    /// What the table documents.
    package var documented: Verdict
    /// What the live run found.
    package var measured: Outcome

    /// One line naming the mismatch.
    package var description: String {
      "\(scenario) on \(stage): documented \(documented.rawValue), measured "
        + "\(measured.verdict.rawValue) (\(measured.detail))"
    }
  }

  /// The columns compared, stages first.
  package var columns: [Implementation]
  /// One row per scenario, in catalogue order.
  package var rows: [Row]

  /// Runs `scenarios` on `columns`; no scenarios means all of them, no columns every stage.
  ///
  /// - Parameters:
  ///   - scenarios: Names of scenarios to run, or none for every scenario.
  ///   - columns: The stages and references to run them on, or none for every stage.
  package init(scenarios: [String] = [], columns: [Implementation] = []) {
    let columns = columns.isEmpty ? Implementation.stages : columns.sorted()
    let chosen = Scenario.all.filter { scenarios.isEmpty || scenarios.contains($0.name) }
    self.columns = columns
    rows = chosen.map { scenario in
      Row(scenario: scenario, outcomes: columns.map { ($0, scenario.run(on: $0)) })
    }
  }

  /// The stages among the columns.
  package var stages: [Stage] {
    columns.compactMap { if case .stage(let stage) = $0 { stage } else { nil } }
  }

  /// Every stage verdict that differs from the documented table. References have no documented
  /// verdicts: their tests pin what they measure.
  package var mismatches: [Mismatch] {
    rows.flatMap { row in
      row.outcomes.compactMap { implementation, outcome in
        guard case .stage(let stage) = implementation,
          let documented = row.scenario.documented[stage], documented != outcome.verdict
        else { return nil }
        return Mismatch(
          scenario: row.scenario.name, stage: stage, documented: documented, measured: outcome)
      }
    }
  }
}
