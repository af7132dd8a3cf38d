import ObserverScenarios
import Synchronization

// Two observables the scenarios' single-threaded, non-Sendable requests do not fit at once: one
// isolated to the main actor, and one that takes only `@Sendable` closures. Each adapter says
// why the way it bridges the gap is sound: the scenarios run on the thread that builds the
// report, and call the adapter nowhere else.

/// An observable isolated to the main actor, as a view model's store is.
@MainActor
final class MainActorStore {
  private var observers: [(id: Int, observer: (Int) -> Void)] = []
  private var nextID = 0

  var value: Int {
    didSet {
      for entry in observers {
        entry.observer(value)
      }
    }
  }

  var count: Int { observers.count }

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

/// Its adapter, for a report built on the main thread (top-level code, or a `@MainActor`
/// test): every call asserts the main actor, and traps if the report runs elsewhere.
final class MainActorStoreAdapter: ScenarioObservable {
  private let store: MainActorStore
  private var ids: [ObjectIdentifier: [Int]] = [:]

  init(_ value: Int) { store = MainActor.assumeIsolated { MainActorStore(value) } }

  var value: Int {
    get {
      let store = store
      return MainActor.assumeIsolated { store.value }
    }
    set {
      let store = store
      MainActor.assumeIsolated { store.value = newValue }
    }
  }

  var storedEntryCount: Int {
    let store = store
    return MainActor.assumeIsolated { store.count }
  }

  func subscribe(_ subscription: ScenarioSubscription) {
    // Not Sendable, and called only on the main thread, where the report runs.
    nonisolated(unsafe) let observer = subscription.closure { Delivery.new($0) }
    let store = store
    let id = MainActor.assumeIsolated { store.observe { observer($0) } }
    ids[ObjectIdentifier(subscription.owner), default: []].append(id)
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    let store = store
    for id in ids.removeValue(forKey: ObjectIdentifier(subscription.owner)) ?? [] {
      MainActor.assumeIsolated { store.cancel(id) }
    }
  }
}

/// A thread-safe observable that takes only `@Sendable` observers: it copies them under its
/// lock and calls them outside it, on the thread that sets the value.
final class SendableClosures: Sendable {
  private struct State {
    var value: Int
    var observers: [(id: Int, observer: @Sendable (Int) -> Void)] = []
    var nextID = 0
  }
  private let state: Mutex<State>

  init(_ value: Int) { state = Mutex(State(value: value)) }

  var value: Int {
    get { state.withLock { $0.value } }
    set {
      let observers = state.withLock { state in
        state.value = newValue
        return state.observers.map(\.observer)
      }
      for observer in observers {
        observer(newValue)
      }
    }
  }

  var count: Int { state.withLock { $0.observers.count } }

  func observe(_ observer: @escaping @Sendable (Int) -> Void) -> Int {
    state.withLock { state in
      state.nextID += 1
      state.observers.append((state.nextID, observer))
      return state.nextID
    }
  }

  func cancel(_ id: Int) {
    state.withLock { $0.observers.removeAll { $0.id == id } }
  }
}

/// Its adapter hands it a `@Sendable` closure around the scenarios' closure, which is not one.
final class SendableClosuresAdapter: ScenarioObservable {
  private let observable: SendableClosures
  private var ids: [ObjectIdentifier: [Int]] = [:]

  init(_ value: Int) { observable = SendableClosures(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.count }

  func subscribe(_ subscription: ScenarioSubscription) {
    // Not Sendable, and called only on the thread that sets the value: the report's.
    nonisolated(unsafe) let observer = subscription.closure { Delivery.new($0) }
    let id = observable.observe { observer($0) }
    ids[ObjectIdentifier(subscription.owner), default: []].append(id)
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    for id in ids.removeValue(forKey: ObjectIdentifier(subscription.owner)) ?? [] {
      observable.cancel(id)
    }
  }
}

extension ObservableDesign {
  /// An observable isolated to the main actor.
  static let mainActorStore = ObservableDesign(
    id: "main-actor-store", title: "a @MainActor store of anonymous closures",
    module: "LibraryShapes", typeName: "MainActorStore", identity: .none,
    capabilities: [.unsubscribe, .storedEntryCount],
    inapplicableScenarios: [.sameObserverTwice: "closures are anonymous"],
    isSendable: ObservableDesign.isSendable(MainActorStore.self),
    makeObservable: { MainActorStoreAdapter($0) })

  /// An observable of `@Sendable` closures behind a lock.
  static let sendableClosures = ObservableDesign(
    id: "sendable-closures", title: "@Sendable closures behind a Mutex, called outside it",
    module: "LibraryShapes", typeName: "SendableClosures", identity: .none,
    capabilities: [.unsubscribe, .storedEntryCount],
    inapplicableScenarios: [.sameObserverTwice: "closures are anonymous"],
    isSendable: ObservableDesign.isSendable(SendableClosures.self),
    makeObservable: { SendableClosuresAdapter($0) })
}
