import DesignCatalog
import ObserverScenarios
import Testing

@Suite("Conformance: the same scenarios on every stage")
struct ConformanceTests {
  /// Runs `scenario` on `stage` and expects the property to hold. Where the stage's design
  /// documents the flaw, the expectation is a known issue: `swift test` lists it, and fails if
  /// the flaw ever disappears.
  @Test(
    "each scenario on each stage gives the documented verdict", arguments: Scenario.all,
    CatalogEntry.stages)
  func documentedVerdict(scenario: Scenario, stage: CatalogEntry) throws {
    let design = stage.design
    let documented = try #require(
      design.documentedVerdict(for: scenario.id), "\(design.name) documents no verdicts")
    let outcome = scenario.run(on: design)
    let comment = Comment(
      rawValue: "\(scenario.name) on \(design.name) (\(design.module)): \(outcome.detail)")
    if documented == .flaw {
      withKnownIssue(Comment(rawValue: "Stage \(stage.id): \(outcome.detail)")) {
        #expect(outcome.verdict == .holds, comment)
      }
    } else {
      #expect(outcome.verdict == .holds, comment)
    }
  }

  @Test(
    "stage 5 tuned gets every verdict the lesson's stage 5 gets: every scenario holds",
    arguments: Scenario.all)
  func tunedMatchesTheLesson(scenario: Scenario) {
    let tuned = scenario.run(on: .tuned)
    let lesson = scenario.run(on: CatalogEntry.concurrency.design)
    #expect(tuned.verdict == .holds, "\(scenario.name) on stage 5 tuned: \(tuned.detail)")
    #expect(tuned.verdict == lesson.verdict, "\(scenario.name): \(tuned.detail)")
  }

  @Test(
    "a scenario gives the same outcome, evidence included, every time it runs",
    arguments: Scenario.all)
  func outcomesAreRepeatable(scenario: Scenario) {
    for stage in CatalogEntry.stages.map(\.design) {
      #expect(scenario.run(on: stage) == scenario.run(on: stage), "\(scenario.name) on \(stage)")
    }
  }
}

@Suite("Conformance: the lists of scenarios and designs")
struct ScenarioAndDesignListTests {
  @Test("every scenario name has its scenario, in the order of the names")
  func everyNameHasAScenario() {
    #expect(Scenario.all.map(\.id) == Scenario.Name.allCases)
    for name in Scenario.Name.allCases {
      #expect(Scenario.Name(rawValue: name.rawValue)?.scenario.id == name)
    }
  }

  @Test("designs have unique ids, and the stages are numbered 1, 2, 3… in order")
  func designIDs() {
    let ids = CatalogEntry.all.map(\.id)
    #expect(Set(ids).count == ids.count)
    #expect(CatalogEntry.stages.map(\.stageNumber) == Array(1...CatalogEntry.stages.count))
    #expect(CatalogEntry.stages.map(\.id) == CatalogEntry.stages.map { String($0.stageNumber!) })
    #expect(CatalogEntry.references.allSatisfy { $0.design.documentedFlaws == nil })
  }

  @Test(
    "a capability a design lacks is either a flaw or explained, never both",
    arguments: CatalogEntry.all)
  func capabilitiesAreConsistent(entry: CatalogEntry) {
    let observable = entry.design
    for capability in observable.inapplicable.keys {
      #expect(!observable.has(capability), "\(entry.id) both has and lacks \(capability)")
    }
    if observable.stageNumber != nil {
      #expect(observable.inapplicable.isEmpty, "a stage's lack is a flaw, not n/a")
    }
  }

  @Test("the bench's facts are the design's", arguments: CatalogEntry.all)
  func benchReadsTheDesign(entry: CatalogEntry) {
    for contender in entry.contenders {
      #expect(contender.stage == entry.stageNumber)
      #expect(contender.canUnsubscribe == entry.design.has(.unsubscribe))
      #expect(contender.subscribingIsLinear == entry.design.has(.linearSubscribe))
      #expect(contender.deliversPreviousValue == entry.design.has(.deliversBeforeWrite))
    }
  }
}
