import ObserverScenarios
import Synchronization
import Testing

/// Set when the scenarios call the observable while it is calling its observers.
private final class ReentryFlag: Sendable {
  private let raised = Mutex(false)
  func raise() { raised.withLock { $0 = true } }
  var isRaised: Bool { raised.withLock { $0 } }
}

/// Closures in an array, each with an id; it knows whether it is calling them.
private final class WatchedObservable {
  private var observers: [(id: Int, observer: (Int) -> Void)] = []
  private var nextID = 0
  private(set) var isNotifying = false

  var value: Int {
    didSet {
      let wasNotifying = isNotifying
      isNotifying = true
      defer { isNotifying = wasNotifying }
      for entry in observers {
        entry.observer(value)
      }
    }
  }

  init(_ value: Int) { self.value = value }

  func observe(_ observer: @escaping (Int) -> Void) -> Int {
    nextID += 1
    observers.append((nextID, observer))
    return nextID
  }

  func cancel(_ id: Int) {
    observers.removeAll { $0.id == id }
  }
}

/// Raises `reentered` at every call the scenarios make to the observable while it is calling
/// its observers: what a lock held while calling would block.
private final class WatchingAdapter: ScenarioObservable {
  private let observable: WatchedObservable
  private let reentered: ReentryFlag
  private var ids: [ObjectIdentifier: [Int]] = [:]

  init(_ value: Int, reentered: ReentryFlag) {
    observable = WatchedObservable(value)
    self.reentered = reentered
  }

  private func note() {
    if observable.isNotifying { reentered.raise() }
  }

  var value: Int {
    get {
      note()
      return observable.value
    }
    set {
      note()
      observable.value = newValue
    }
  }

  func subscribe(_ subscription: ScenarioSubscription) {
    note()
    let id = observable.observe(subscription.closure { .new($0) })
    ids[ObjectIdentifier(subscription.owner), default: []].append(id)
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    note()
    for id in ids.removeValue(forKey: ObjectIdentifier(subscription.owner)) ?? [] {
      observable.cancel(id)
    }
  }
}

/// Whether `scenario` calls the observable while it is calling its observers, as a lock held
/// while calling would block: watched live, on an observable that knows when it is calling.
func reenters(_ scenario: Scenario) -> Bool {
  let reentered = ReentryFlag()
  let design = ObservableDesign(
    id: "watched", title: "watched", module: "ReentrantScenariosTests",
    typeName: "WatchedObservable", identity: .none, capabilities: [.unsubscribe],
    isSendable: false, makeObservable: { WatchingAdapter($0, reentered: reentered) })
  _ = scenario.run(on: design)
  return reentered.isRaised
}

@Suite("The scenarios that call the observable from inside a callback")
struct ReentrantScenariosTests {
  @Test("the guide names exactly those that do")
  func namedInTheGuide() throws {
    let reentering = Set(Scenario.all.filter(reenters).map(\.name))
    #expect(
      reentering == [
        "unsubscribe-during-notification", "reentrant-set-ends-on-latest",
        "reentrant-set-seen-once-in-order",
      ])
    let guide = try MarkdownDocument(
      "Sources/Lab/ObserverScenarios/ObserverScenarios.docc/GradingYourOwnObservable.md")
    let section = try #require(
      guide.text.split(separator: "\n### ").first { $0.hasPrefix("Locks held while calling") })
    let named = Set(
      section.matches(of: /`([a-z-]+)`/).map { String($0.output.1) }
        .filter { Scenario.Name(rawValue: $0) != nil })
    #expect(named == reentering)
  }
}
