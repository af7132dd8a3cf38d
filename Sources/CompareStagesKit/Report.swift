import StageScenarios

/// The scenarios run live on the chosen stages, with the documented verdicts beside them.
package struct Report: Sendable {
  /// One scenario's results, one per stage.
  package struct Row: Sendable {
    /// The scenario run.
    package var scenario: Scenario
    /// What it found on each stage, in stage order.
    package var outcomes: [(stage: Stage, outcome: Outcome)]
  }

  /// A verdict that differs from the documented table.
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

  /// The stages compared, in order.
  package var stages: [Stage]
  /// One row per scenario, in catalogue order.
  package var rows: [Row]

  /// Runs `scenarios` on `stages`; empty lists mean all of them.
  ///
  /// - Parameters:
  ///   - scenarios: Names of scenarios to run, or none for every scenario.
  ///   - stages: The stages to run them on, or none for every stage.
  package init(scenarios: [String] = [], stages: [Stage] = []) {
    let stages = stages.isEmpty ? Stage.allCases : stages.sorted()
    let chosen = Scenario.all.filter { scenarios.isEmpty || scenarios.contains($0.name) }
    self.stages = stages
    rows = chosen.map { scenario in
      Row(scenario: scenario, outcomes: stages.map { ($0, scenario.run(on: $0)) })
    }
  }

  /// Every verdict that differs from the documented table.
  package var mismatches: [Mismatch] {
    rows.flatMap { row in
      row.outcomes.compactMap { stage, outcome in
        guard let documented = row.scenario.documented[stage], documented != outcome.verdict
        else { return nil }
        return Mismatch(
          scenario: row.scenario.name, stage: stage, documented: documented, measured: outcome)
      }
    }
  }
}
