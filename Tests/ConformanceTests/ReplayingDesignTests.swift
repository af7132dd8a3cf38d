import Foundation
import ObserverScenarios
import Testing

// Designs that send their current value to every new subscriber, asked or not, graded through
// the public API alone, as an outside package would: a subject shaped like Combine's
// `CurrentValueSubject`, and an MVVM box whose `bindAndFire` keys its listeners by name.

/// A token that cancels when cancelled or freed, as Combine's `AnyCancellable` does.
private final class Cancellable {
  private var action: (() -> Void)?
  init(_ action: @escaping () -> Void) { self.action = action }
  func cancel() {
    action?()
    action = nil
  }
  deinit { cancel() }
}

/// A subject that replays its value to each new subscriber and calls its subscribers in the
/// order they subscribed, through a conduit that a cancelled subscription empties: a walk over
/// a copy of the list skips the subscriptions cancelled during it.
private final class ReplayingSubject {
  final class Conduit {
    var downstream: ((Int) -> Void)?
    init(_ downstream: @escaping (Int) -> Void) { self.downstream = downstream }
  }
  private var conduits: [Conduit] = []
  var value: Int {
    didSet {
      for conduit in conduits {
        conduit.downstream?(value)
      }
    }
  }
  var count: Int { conduits.count }

  init(_ value: Int) { self.value = value }

  func sink(_ receive: @escaping (Int) -> Void) -> Cancellable {
    let conduit = Conduit(receive)
    conduits.append(conduit)
    receive(value)
    return Cancellable { [weak self, weak conduit] in
      conduit?.downstream = nil
      self?.conduits.removeAll { $0 === conduit }
    }
  }
}

/// Marks the first value a subscription receives, the replayed one, as `.initial`, as the
/// guide asks of an adapter.
private final class FirstDelivery {
  private var seen = false
  func delivery(_ value: Int) -> Delivery {
    defer { seen = true }
    return seen ? .new(value) : .initial(value)
  }
}

private final class ReplayingSubjectAdapter: ScenarioObservable {
  let subject: ReplayingSubject
  init(_ value: Int) { subject = ReplayingSubject(value) }

  var value: Int {
    get { subject.value }
    set { subject.value = newValue }
  }

  var storedEntryCount: Int { subject.count }

  func subscribe(_ subscription: ScenarioSubscription) {
    let first = FirstDelivery()
    subscription.storeInOwner(subject.sink(subscription.closure(first.delivery)))
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    for case let token as Cancellable in subscription.removeTokensFromOwner() {
      token.cancel()
    }
  }
}

/// An MVVM box: listeners by name, `bindAndFire` calls the new listener with the value at once.
private final class KeyedBox {
  private var listeners: [String: (Int) -> Void] = [:]
  var value: Int {
    didSet {
      for listener in listeners.values {
        listener(value)
      }
    }
  }
  var count: Int { listeners.count }

  init(_ value: Int) { self.value = value }

  func bindAndFire(forKey key: String, _ listener: @escaping (Int) -> Void) {
    listeners[key] = listener
    listener(value)
  }

  func unbind(forKey key: String) { listeners[key] = nil }
}

private final class KeyedBoxAdapter: ScenarioObservable {
  let box: KeyedBox
  init(_ value: Int) { box = KeyedBox(value) }

  var value: Int {
    get { box.value }
    set { box.value = newValue }
  }

  var storedEntryCount: Int { box.count }

  func subscribe(_ subscription: ScenarioSubscription) {
    let first = FirstDelivery()
    box.bindAndFire(forKey: subscription.key, subscription.closure(first.delivery))
  }

  func unsubscribe(_ subscription: ScenarioSubscription) { box.unbind(forKey: subscription.key) }
}

private let replayingSubject = ObservableDesign(
  id: "subject", title: "a subject that replays its value, subscribers in order",
  module: "ReplayingDesignTests", typeName: "ReplayingSubject", identity: .none,
  capabilities: [.unsubscribe, .storedEntryCount, .initialValue],
  inapplicable: [.oldValue: "a subject sends only the new value"],
  inapplicableScenarios: [.sameObserverTwice: "sink closures are anonymous"],
  isSendable: ObservableDesign.isSendable(ReplayingSubject.self),
  makeObservable: { ReplayingSubjectAdapter($0) })

private let keyedBox = ObservableDesign(
  id: "box", title: "an MVVM box: listeners by key, bindAndFire replays the value",
  module: "ReplayingDesignTests", typeName: "KeyedBox", identity: .key,
  capabilities: [.unsubscribe, .storedEntryCount, .initialValue],
  isSendable: ObservableDesign.isSendable(KeyedBox.self),
  makeObservable: { KeyedBoxAdapter($0) })

@Suite("A design that sends its current value on subscribing")
struct ReplayingDesignTests {
  @Test(
    "a replaying subject that calls in order and skips the cancelled passes the scenarios that count calls",
    arguments: [
      Scenario.Name.deliveryOrder, .unsubscribeDuringNotification, .sameKeyTwoObservers,
    ])
  func replayCountsNothing(scenario: Scenario.Name) {
    let outcome = scenario.scenario.run(on: replayingSubject)
    #expect(outcome.verdict == .holds, "\(outcome.detail)")
  }

  @Test("its replay is the initial value, the other scenarios' verdicts as expected")
  func initialValueHolds() {
    #expect(Scenario.Name.initialValue.scenario.run(on: replayingSubject).verdict == .holds)
    #expect(Scenario.Name.deliversEveryChange.scenario.run(on: replayingSubject).verdict == .holds)
    #expect(Scenario.Name.explicitUnsubscribe.scenario.run(on: replayingSubject).verdict == .holds)
  }

  @Test("a keyed box whose second bind replaces the first fails same-key-two-observers")
  func keyedBoxReplaces() {
    let outcome = Scenario.Name.sameKeyTwoObservers.scenario.run(on: keyedBox)
    #expect(outcome.verdict == .flaw)
    #expect(outcome.detail.contains("only the second observer was called"), "\(outcome.detail)")
    // What the box does, seen directly: the set calls the second listener alone.
    let box = KeyedBox(0)
    var called: [String] = []
    var armed = false
    box.bindAndFire(forKey: "label") { _ in if armed { called.append("first") } }
    box.bindAndFire(forKey: "label") { _ in if armed { called.append("second") } }
    armed = true
    box.value = 1
    #expect(called == ["second"])
  }
}

@Suite("A design of one's own that pins its verdicts")
struct PinnedVerdictTests {
  /// The replaying subject, its verdicts pinned: `sendable` a flaw, the others holding. It
  /// passes `initial-value` live, so pinning it as a flaw too makes one verdict differ.
  private func pinned(_ flaws: Set<Scenario.Name>) -> ObservableDesign {
    var design = replayingSubject
    design.documentedFlaws = flaws
    return design
  }

  @Test("the summary speaks of documented verdicts, not of stage verdicts")
  func summaryWording() {
    let matching = ScenarioReport(
      scenarios: [.sendable, .initialValue], designs: [pinned([.sendable])])
    #expect(matching.summary == "All 2 documented verdicts match the live run.")
    let differing = ScenarioReport(
      scenarios: [.sendable, .initialValue], designs: [pinned([.sendable, .initialValue])])
    #expect(differing.summary == "1 of 2 documented verdicts differ from the live run.")
    #expect(differing.text().hasSuffix("1 of 2 documented verdicts differ from the live run.\n"))
  }

  @Test("the JSON gives a graded design's documented verdicts")
  func jsonKeepsDocumented() throws {
    struct Report: Decodable {
      struct Row: Decodable {
        struct Result: Decodable {
          var graded: String?
          var verdict: String
          var documented: String?
        }
        var name: String
        var results: [Result]
      }
      var scenarios: [Row]
      var matchesDocumentedTable: Bool
    }
    let report = ScenarioReport(
      scenarios: [.sendable, .initialValue], designs: [pinned([.sendable, .initialValue])])
    let decoded = try JSONDecoder().decode(Report.self, from: Data(report.json.utf8))
    let documented = Dictionary(
      uniqueKeysWithValues: decoded.scenarios.map { ($0.name, $0.results.first?.documented) })
    #expect(documented == ["sendable": "flaw", "initial-value": "flaw"])
    #expect(decoded.scenarios.allSatisfy { $0.results.first?.graded == "subject" })
    #expect(!decoded.matchesDocumentedTable)

    // A design that pins nothing has nothing documented.
    let unpinned = ScenarioReport(scenarios: [.sendable], designs: [replayingSubject])
    #expect(!unpinned.json.contains("\"documented\""))
  }
}

@Suite("Scenario names in JSON")
struct ScenarioNameCodingTests {
  @Test("a name of one's own and one of the sixteen decode back to themselves")
  func roundTrip() throws {
    let names = [Scenario.Name(custom: "sixteen-in-order"), .deliveryOrder]
    let data = try JSONEncoder().encode(names)
    #expect(String(decoding: data, as: UTF8.self) == #"["sixteen-in-order","delivery-order"]"#)
    #expect(try JSONDecoder().decode([Scenario.Name].self, from: data) == names)
  }
}
