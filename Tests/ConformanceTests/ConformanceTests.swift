import DesignCatalog
import Foundation
import ObserverScenarios
import TestSupport
import Testing

@Suite("Conformance: the same scenarios on every stage")
struct ConformanceTests {
  /// Runs `scenario` on `stage` and expects the property to hold. Where the stage's descriptor
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

/// Where the scenarios' names are declared.
private let namesFile = "Sources/Lab/ObserverScenarios/Scenario.swift"
/// Where the scenarios are written.
private let scenariosFile = "Sources/Lab/ObserverScenarios/Scenarios.swift"

/// The names `Scenario.swift` declares, in its order, read as text: each
/// `public static let IDENTIFIER = Name(builtIn: "RAW-VALUE")`.
private func declaredNames() throws -> [(identifier: String, rawValue: String)] {
  let source = try String(
    contentsOf: packageRoot.appending(path: namesFile), encoding: .utf8)
  return source.matches(of: /public static let (\w+) = Name\(\s*builtIn: "([^"]+)"\)/).map {
    (String($0.output.1), String($0.output.2))
  }
}

/// The identifier of the name each scenario of `Scenarios.swift` is written with, read as
/// text: `static let deliveryOrder = Scenario(.deliveryOrder, …)` gives `deliveryOrder`.
private func scenariosWritten() throws -> [String] {
  let source = try String(
    contentsOf: packageRoot.appending(path: scenariosFile), encoding: .utf8)
  return source.matches(of: /static let \w+ = Scenario\(\s*\.(\w+),/).map {
    String($0.output.1)
  }
}

@Suite("Conformance: the lists of scenarios and designs")
struct ScenarioAndDesignListTests {
  @Test("every scenario name has its scenario, in the order of the names")
  func everyNameHasAScenario() throws {
    // Read from the sources, not from `Scenario.all`, which `Scenario.Name.allCases` is made of.
    let declared = try declaredNames()
    #expect(declared.count > 1, "no `Name(builtIn:)` found in \(namesFile)")
    #expect(
      Scenario.all.map(\.name) == declared.map(\.rawValue),
      "Scenario.all should list one scenario per name of \(namesFile), in its order")
    for name in declared {
      #expect(
        Scenario.Name(rawValue: name.rawValue)?.scenario.name == name.rawValue,
        "\(name.rawValue) is declared, but not one of Scenario.Name.allCases")
    }
    // Every scenario written in Scenarios.swift is in the list, under a declared name.
    let rawValues = Dictionary(
      declared.map { ($0.identifier, $0.rawValue) }, uniquingKeysWith: { first, _ in first })
    let written = try scenariosWritten()
    #expect(written.count == declared.count, "\(scenariosFile) writes \(written)")
    for identifier in written {
      let rawValue = try #require(
        rawValues[identifier], "\(scenariosFile) writes a scenario named .\(identifier)")
      #expect(Scenario.all.contains { $0.name == rawValue }, "\(rawValue) is not in Scenario.all")
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
  func capabilitiesAreConsistent(design: CatalogEntry) {
    let observable = design.design
    for capability in observable.inapplicable.keys {
      #expect(!observable.has(capability), "\(design.id) both has and lacks \(capability)")
    }
    if observable.stageNumber != nil {
      #expect(observable.inapplicable.isEmpty, "a stage's lack is a flaw, not n/a")
    }
  }

  @Test("the bench's facts are the descriptor's", arguments: CatalogEntry.all)
  func benchReadsTheDescriptor(design: CatalogEntry) {
    for contender in design.contenders {
      #expect(contender.stage == design.stageNumber)
      #expect(contender.canUnsubscribe == design.design.has(.unsubscribe))
      #expect(contender.subscribingIsLinear == design.design.has(.linearSubscribe))
      #expect(contender.deliversPreviousValue == design.design.has(.deliversBeforeWrite))
    }
  }
}
