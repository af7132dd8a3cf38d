/// Scenarios run live on a set of designs: the verdicts, the evidence, and, for designs whose
/// verdicts are documented, whether the two agree.
///
/// `compare-stages` prints one of these; so can you, for an observable of your own:
///
/// ```swift
/// let report = ScenarioReport(designs: [mine])
/// print(report.text(), terminator: "")
/// ```
///
/// Making a report runs every scenario at once, one after another, on the calling thread,
/// which alone calls the designs' adapters: grade a main-actor observable from the main
/// thread. Three scenarios re-enter the observable from inside one of its callbacks
/// (`unsubscribe-during-notification`, `reentrant-set-ends-on-latest` and
/// `reentrant-set-seen-once-in-order`): an observable that holds a lock that is not recursive
/// while calling its observers deadlocks there (`NSLock`) or traps (`Mutex`), and the report is
/// never made. Leave those three out with ``init(scenarios:designs:)`` to grade the rest.
public struct ScenarioReport: Sendable {
  /// One scenario's results, one per design.
  public struct Row: Sendable {
    /// The scenario run.
    public var scenario: Scenario
    /// What it found on each design, in column order.
    public var outcomes: [(design: ObservableDesign, outcome: Outcome)]
  }

  /// A verdict that differs from the one documented.
  public struct Mismatch: Sendable, CustomStringConvertible {
    /// The scenario.
    public var scenario: Scenario.Name
    /// The design.
    public var design: ObservableDesign
    /// What is documented.
    public var documented: Verdict
    /// What the live run found.
    public var measured: Outcome

    /// One line naming the mismatch.
    public var description: String {
      "\(scenario.rawValue) on \(design.name): documented \(documented.rawValue), measured "
        + "\(measured.verdict.rawValue) (\(measured.detail))"
    }
  }

  /// The designs compared, in column order.
  public var designs: [ObservableDesign]
  /// One row per scenario, in the order of ``Scenario/all``.
  public var rows: [Row]

  /// Runs `scenarios`, every one by default, on every design in `designs`: one column per
  /// design, in this order.
  public init(scenarios: [Scenario.Name] = Scenario.Name.allCases, designs: [ObservableDesign]) {
    self.init(running: Scenario.all.filter { scenarios.contains($0.id) }, designs: designs)
  }

  /// Runs `scenarios`, the sixteen or any of your own beside them, on every design in
  /// `designs`: one row per scenario and one column per design, in these orders. Everything
  /// runs before this returns, on the calling thread.
  public init(running scenarios: [Scenario], designs: [ObservableDesign]) {
    self.designs = designs
    rows = scenarios.map { scenario in
      Row(scenario: scenario, outcomes: designs.map { ($0, scenario.run(on: $0)) })
    }
  }

  /// The designs whose verdicts are documented: the stages, in a comparison.
  public var documentedDesigns: [ObservableDesign] {
    designs.filter { $0.documentedFlaws != nil }
  }

  /// Every verdict that differs from the documented one. Designs that document nothing have
  /// nothing to differ from.
  public var mismatches: [Mismatch] {
    rows.flatMap { row in
      row.outcomes.compactMap { design, outcome in
        guard let documented = design.documentedVerdict(for: row.scenario.id),
          documented != outcome.verdict
        else { return nil }
        return Mismatch(
          scenario: row.scenario.id, design: design, documented: documented, measured: outcome)
      }
    }
  }
}
