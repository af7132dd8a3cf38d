/// Whether a stage has the property a scenario checks.
package enum Verdict: String, Sendable, Codable {
  /// The property holds.
  case holds
  /// The stage has the flaw the scenario looks for.
  case flaw
  /// The scenario's idea does not exist for a reference (a way to cancel, a count of entries);
  /// the evidence says what the reference does instead. Never given to a stage, whose lack of
  /// an idea is a flaw.
  case notApplicable = "n/a"

  /// ✓, ✗ or –.
  package var symbol: String {
    switch self {
    case .holds: "✓"
    case .flaw: "✗"
    case .notApplicable: "–"
    }
  }
}

/// What one scenario found on one stage: the verdict, and one line of evidence with the numbers.
package struct Outcome: Sendable, Equatable {
  /// Whether the property holds.
  package var verdict: Verdict
  /// One line saying what was measured, e.g. "1,000 entries still stored after …".
  package var detail: String

  /// The property holds; `detail` says what was seen.
  package static func holds(_ detail: String) -> Outcome {
    Outcome(verdict: .holds, detail: detail)
  }

  /// The stage has the flaw; `detail` says what was seen.
  package static func flaw(_ detail: String) -> Outcome { Outcome(verdict: .flaw, detail: detail) }

  /// The scenario does not apply; `detail` says why.
  package static func notApplicable(_ detail: String) -> Outcome {
    Outcome(verdict: .notApplicable, detail: detail)
  }
}

/// A short experiment on real objects, run the same way on every stage.
package struct Scenario: Sendable, Identifiable {
  /// The scenario's name, as `--scenario` takes it: `delivery-order`.
  package let name: String
  /// What it checks, in one line.
  package let title: String
  /// What the experiment does, told for `--explain`.
  package let story: String
  /// The tutorial chapter that covers it, relative to the package root.
  package let chapter: String
  /// The verdict each stage is documented to give.
  package let documented: [Stage: Verdict]
  private let experiment: @Sendable (Implementation) -> Outcome

  /// The scenario's name.
  package var id: String { name }

  /// Creates a scenario.
  ///
  /// - Parameters:
  ///   - name: The name `--scenario` takes.
  ///   - title: What it checks, in one line.
  ///   - story: What the experiment does.
  ///   - chapter: The tutorial chapter that covers it.
  ///   - documented: The documented verdicts, in stage order.
  ///   - experiment: Runs the experiment on a stage and reports what it saw.
  package init(
    name: String, title: String, story: String, chapter: String, documented: [Verdict],
    experiment: @escaping @Sendable (Implementation) -> Outcome
  ) {
    precondition(documented.count == Stage.allCases.count, "\(name): one verdict per stage")
    self.name = name
    self.title = title
    self.story = story
    self.chapter = chapter
    self.documented = Dictionary(uniqueKeysWithValues: zip(Stage.allCases, documented))
    self.experiment = experiment
  }

  /// Runs the experiment on `stage`, with fresh objects.
  ///
  /// - Parameter stage: The stage to run it on.
  /// - Returns: The verdict and its evidence.
  package func run(on stage: Stage) -> Outcome { experiment(.stage(stage)) }

  /// Runs the experiment on a stage or a reference, with fresh objects.
  ///
  /// - Parameter implementation: What to run it on.
  /// - Returns: The verdict and its evidence.
  package func run(on implementation: Implementation) -> Outcome { experiment(implementation) }

  /// Looks a scenario up by name.
  ///
  /// - Parameter name: A scenario's name.
  /// - Returns: The scenario, or `nil` if there is none of that name.
  package static func named(_ name: String) -> Scenario? { all.first { $0.name == name } }
}
