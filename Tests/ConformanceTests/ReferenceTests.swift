import DesignCatalog
import Observation
import ObserverScenarios
import Testing

/// The verdicts the platform's references give today, measured by the same scenarios as the
/// stages. They are pinned here, not documented as goals: if a toolchain changes one, this test
/// names the cell, and chapter 8's table and text need a look.
private let pinned: [String: [String: Verdict]] = [
  "notificationcenter": [
    "delivers-every-change": .holds,
    "delivery-order": .flaw,
    "released-observer-not-called": .flaw,
    "dead-entries-removed": .notApplicable,
    "dead-entries-removed-on-set": .notApplicable,
    "explicit-unsubscribe": .holds,
    "strong-capture-freed-after-unsubscribe": .holds,
    "strong-capture-freed-without-unsubscribe": .flaw,
    "same-key-two-observers": .holds,
    "same-observer-twice": .flaw,
    "initial-value": .notApplicable,
    "old-value": .notApplicable,
    "unsubscribe-during-notification": .flaw,
    "reentrant-set-ends-on-latest": .flaw,
    "reentrant-set-seen-once-in-order": .flaw,
    "sendable": .holds,
  ],
  "observation": [
    "delivers-every-change": .flaw,
    "delivery-order": .flaw,
    "released-observer-not-called": .flaw,
    "dead-entries-removed": .notApplicable,
    "dead-entries-removed-on-set": .notApplicable,
    "explicit-unsubscribe": .notApplicable,
    "strong-capture-freed-after-unsubscribe": .notApplicable,
    "strong-capture-freed-without-unsubscribe": .flaw,
    "same-key-two-observers": .holds,
    "same-observer-twice": .flaw,
    "initial-value": .holds,
    "old-value": .notApplicable,
    "unsubscribe-during-notification": .notApplicable,
    "reentrant-set-ends-on-latest": .flaw,
    "reentrant-set-seen-once-in-order": .flaw,
    "sendable": .flaw,
  ],
  "observations": [
    "delivers-every-change": .holds,
    "delivery-order": .flaw,
    "released-observer-not-called": .flaw,
    "dead-entries-removed": .notApplicable,
    "dead-entries-removed-on-set": .notApplicable,
    "explicit-unsubscribe": .holds,
    "strong-capture-freed-after-unsubscribe": .holds,
    "strong-capture-freed-without-unsubscribe": .flaw,
    "same-key-two-observers": .holds,
    "same-observer-twice": .flaw,
    "initial-value": .holds,
    "old-value": .notApplicable,
    "unsubscribe-during-notification": .holds,
    "reentrant-set-ends-on-latest": .holds,
    "reentrant-set-seen-once-in-order": .flaw,
    "sendable": .flaw,
  ],
]

/// The references whose pins are checked here. They were measured on Linux; on an Apple
/// platform, whose Foundation is another implementation, NotificationCenter may differ, and only
/// Observation's, built from the same Swift sources everywhere, are checked.
private var pinnedHere: [CatalogEntry] {
  #if os(Linux) && !FORCE_APPLE_BRANCHES
    CatalogEntry.references
  #else
    CatalogEntry.references.filter { $0.id != CatalogEntry.notificationCenter.id }
  #endif
}

@Suite("Conformance: the platform's references, measured")
struct ReferenceTests {
  @Test("each reference gives the pinned verdict for every scenario", arguments: pinnedHere)
  func pinnedVerdicts(reference: CatalogEntry) throws {
    let expected = try #require(pinned[reference.id])
    #expect(Set(expected.keys) == Set(Scenario.all.map(\.name)), "pin every scenario")
    for scenario in Scenario.all {
      let outcome = scenario.run(on: reference.design)
      #expect(
        outcome.verdict == expected[scenario.name],
        """
        \(reference.design.title) now gives '\(outcome.verdict.rawValue)' for \(scenario.name), \
        pinned as '\(expected[scenario.name]?.rawValue ?? "nothing")' (\(outcome.detail)). A \
        toolchain change? Update the pin here and Tutorial/08-beyond-the-stages.md.
        """)
    }
  }

  @Test("a stage is never given n/a: a lack is a flaw there")
  func stagesNeverNotApplicable() {
    for scenario in Scenario.all {
      for stage in CatalogEntry.stages.map(\.design) {
        #expect(scenario.run(on: stage).verdict != .notApplicable, "\(scenario.name) on \(stage)")
      }
    }
  }

  @Test("a reference's outcome, evidence included, is the same every time it runs")
  func repeatable() {
    for scenario in Scenario.all {
      for reference in CatalogEntry.references.map(\.design) {
        #expect(
          scenario.run(on: reference) == scenario.run(on: reference),
          "\(scenario.name) on \(reference)")
      }
    }
  }
}

/// What chapter 8 says of `Observations` beyond the table: it coalesces.
@Suite("Observations: the latest value, not every value")
@MainActor
struct ObservationsCoalescingTests {
  @Observable
  final class Score {
    var value = 0
  }

  /// The values a consumer received, and a way to wait for one.
  final class Received {
    private(set) var values: [Int] = []
    private var waiter: (value: Int, continuation: CheckedContinuation<Void, Never>)?

    func record(_ value: Int) {
      values.append(value)
      if let waiter, waiter.value == value {
        self.waiter = nil
        waiter.continuation.resume()
      }
    }

    func wait(for value: Int) async {
      if values.contains(value) { return }
      await withCheckedContinuation { waiter = (value, $0) }
    }
  }

  // Swift Testing skips, and says so, a test whose availability the OS does not meet.
  @Test("changes made in one turn of the main actor reach a main-actor consumer as one element")
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  func coalesces() async {
    let score = Score()
    let received = Received()
    let consumer = Task { @MainActor in
      for await value in Observations({ score.value }) {
        received.record(value)
      }
    }
    await received.wait(for: 0)
    score.value = 1
    score.value = 2
    score.value = 3
    await received.wait(for: 3)
    #expect(received.values == [0, 3], "1 and 2 were never delivered")
    consumer.cancel()
  }
}
