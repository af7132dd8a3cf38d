import StageScenarios
import Testing

/// Runs `scenario` on `stage` and expects the property to hold. Where the documented table says
/// the stage has the flaw, the expectation is a known issue: `swift test` lists it, and fails if
/// the flaw ever disappears.
private func check(_ name: String, on stage: Stage) throws {
  let scenario = try #require(Scenario.named(name), "no scenario named \(name)")
  let outcome = scenario.run(on: stage)
  let comment = Comment(
    rawValue: "\(scenario.name) on \(stage) (\(stage.module)): \(outcome.detail)")
  switch scenario.documented[stage] {
  case .holds:
    #expect(outcome.verdict == .holds, comment)
  case .flaw:
    withKnownIssue(Comment(rawValue: "Stage \(stage.number): \(outcome.detail)")) {
      #expect(outcome.verdict == .holds, comment)
    }
  case .notApplicable, nil:
    Issue.record("\(name) documents no holds-or-flaw verdict for \(stage)")
  }
}

@Suite("Conformance: the same experiments on every stage")
struct ConformanceTests {
  @Test("one observer receives every set value, in order", arguments: Stage.allCases)
  func deliversEveryChange(stage: Stage) throws {
    try check("delivers-every-change", on: stage)
  }

  @Test("many observers are called in subscription order", arguments: Stage.allCases)
  func deliveryOrder(stage: Stage) throws {
    try check("delivery-order", on: stage)
  }

  @Test("a released owner's closure no longer runs", arguments: Stage.allCases)
  func releasedObserverNotCalled(stage: Stage) throws {
    try check("released-observer-not-called", on: stage)
  }

  @Test("dead entries are gone after a set and a new subscription", arguments: Stage.allCases)
  func deadEntriesRemoved(stage: Stage) throws {
    try check("dead-entries-removed", on: stage)
  }

  @Test("dead entries are gone after sets alone", arguments: Stage.allCases)
  func deadEntriesRemovedOnSet(stage: Stage) throws {
    try check("dead-entries-removed-on-set", on: stage)
  }

  @Test("after unsubscribing, no more calls", arguments: Stage.allCases)
  func explicitUnsubscribe(stage: Stage) throws {
    try check("explicit-unsubscribe", on: stage)
  }

  @Test(
    "a strongly captured owner is freed once unsubscribed and dropped", arguments: Stage.allCases)
  func strongCaptureFreedAfterUnsubscribe(stage: Stage) throws {
    try check("strong-capture-freed-after-unsubscribe", on: stage)
  }

  @Test("a strongly captured owner is freed when merely dropped", arguments: Stage.allCases)
  func strongCaptureFreedWithoutUnsubscribe(stage: Stage) throws {
    try check("strong-capture-freed-without-unsubscribe", on: stage)
  }

  @Test("two observers under one name are both called", arguments: Stage.allCases)
  func sameKeyTwoObservers(stage: Stage) throws {
    try check("same-key-two-observers", on: stage)
  }

  @Test("one observer subscribed twice is called once per change", arguments: Stage.allCases)
  func sameObserverTwice(stage: Stage) throws {
    try check("same-observer-twice", on: stage)
  }

  @Test("an observer can receive the current value when it subscribes", arguments: Stage.allCases)
  func initialValue(stage: Stage) throws {
    try check("initial-value", on: stage)
  }

  @Test("an observer can receive the previous value", arguments: Stage.allCases)
  func oldValue(stage: Stage) throws {
    try check("old-value", on: stage)
  }

  @Test("an observer removed during a notification is not called for it", arguments: Stage.allCases)
  func unsubscribeDuringNotification(stage: Stage) throws {
    try check("unsubscribe-during-notification", on: stage)
  }

  @Test(
    "after a set inside a callback, everyone ends on the final value", arguments: Stage.allCases)
  func reentrantSetEndsOnLatest(stage: Stage) throws {
    try check("reentrant-set-ends-on-latest", on: stage)
  }

  @Test("the observable may be shared across threads", arguments: Stage.allCases)
  func sendable(stage: Stage) throws {
    try check("sendable", on: stage)
  }
}

@Suite("Conformance: the scenario catalogue")
struct CatalogueTests {
  @Test("every scenario has a test above, a unique name and a verdict for every stage")
  func catalogueIsComplete() {
    let names = Scenario.all.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(names.count == 15)
    for scenario in Scenario.all {
      #expect(scenario.documented.count == Stage.allCases.count, "\(scenario.name)")
    }
  }

  @Test("a scenario gives the same outcome, evidence included, every time it runs")
  func outcomesAreRepeatable() {
    for scenario in Scenario.all {
      for stage in Stage.allCases {
        #expect(scenario.run(on: stage) == scenario.run(on: stage), "\(scenario.name) on \(stage)")
      }
    }
  }
}
