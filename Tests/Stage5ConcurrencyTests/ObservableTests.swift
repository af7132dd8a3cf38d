import Synchronization
import Testing

#if TUNED
  import Stage5Tuned
#else
  import Stage5Concurrency
#endif

/// A log that any thread may append to.
final class SharedLog<Entry: Sendable>: Sendable {
  private let storage = Mutex<[Entry]>([])

  var entries: [Entry] { storage.withLock { $0 } }

  func append(_ entry: Entry) {
    storage.withLock { $0.append(entry) }
  }
}

/// A value behind a lock, as a class so that closures can share it.
final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  init(_ value: Value) { mutex = Mutex(value) }

  func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
    mutex.withLock { body(&$0) }
  }
}

/// An owner whose deinitialization is counted, and that may be shared across threads.
final class Owner: Sendable {
  let name: String
  let deinits: SharedLog<String>

  init(_ name: String, deinits: SharedLog<String>) {
    self.name = name
    self.deinits = deinits
  }

  deinit { deinits.append(name) }
}

@Suite("Stage 5, concurrency age: the observable")
struct ObservableTests {
  @Test("every change carries the old and the new value, in the order set")
  func deliversChanges() {
    let log = SharedLog<Change<Int>>()
    let observable = Observable(0)
    let token = observable.observeOnAnyThread { log.append($0) }
    observable.value = 1
    observable.value = 2
    #expect(
      log.entries == [
        Change(kind: .update, oldValue: 0, newValue: 1),
        Change(kind: .update, oldValue: 1, newValue: 2),
      ])
    withExtendedLifetime(token) {}
  }

  @Test(".initial delivers the current value at once, before observe returns")
  func initialValue() {
    let log = SharedLog<Change<Int>>()
    let observable = Observable(42)
    let token = observable.observeOnAnyThread(options: .initial) { log.append($0) }
    #expect(log.entries == [Change(kind: .initial, oldValue: nil, newValue: 42)])
    withExtendedLifetime(token) {}
  }

  @Test("observers are called in subscription order")
  func subscriptionOrder() {
    let log = SharedLog<Int>()
    let observable = Observable(0)
    let tokens = (0..<20).map { index in observable.observeOnAnyThread { _ in log.append(index) } }
    observable.value = 1
    #expect(log.entries == Array(0..<20))
    withExtendedLifetime(tokens) {}
  }

  @Test("cancelling a token, or dropping it, ends the subscription")
  func tokenCancellation() {
    let log = SharedLog<Int>()
    let observable = Observable(0)
    let first = observable.observeOnAnyThread { log.append($0.newValue) }
    var second: ObservationToken? = observable.observeOnAnyThread { log.append($0.newValue * 10) }
    observable.value = 1
    first.cancel()
    first.cancel()
    second = nil
    observable.value = 2
    #expect(log.entries == [1, 10])
    #expect(observable.observerCount == 0)
    #expect(second == nil)
    // A token never kept, as `_ =` writes it (chapter 9's first trap), ends at once.
    _ = observable.observeOnAnyThread { log.append($0.newValue * 100) }
    observable.value = 3
    #expect(log.entries == [1, 10])
  }

  @Test("an owner is handed to its handler, held weakly, and its subscription ends with it")
  func ownerSubscription() {
    let deinits = SharedLog<String>()
    let log = SharedLog<String>()
    let observable = Observable(0)
    var owner: Owner? = Owner("screen", deinits: deinits)
    observable.observeOnAnyThread(owner!) { owner, change in
      log.append("\(owner.name) got \(change.newValue)")
    }
    observable.value = 1
    #expect(observable.observerCount == 1)
    owner = nil
    #expect(deinits.entries == ["screen"])
    #expect(observable.observerCount == 0)
    observable.value = 2
    #expect(log.entries == ["screen got 1"])
    #expect(observable._storedSubscriptionCount == 0, "the set cleaned the dead entry")
  }

  @Test(
    "storedSubscriptionCount: a cancelled or removed subscription leaves at once, a dead owner's stays until a set"
  )
  func storedCountAfterEachEnding() {
    let deinits = SharedLog<String>()
    let observable = Observable(0)
    let token = observable.observeOnAnyThread { _ in }
    let removed = Owner("removed", deinits: deinits)
    observable.observeOnAnyThread(removed) { _, _ in }
    var gone: Owner? = Owner("gone", deinits: deinits)
    observable.observeOnAnyThread(gone!) { _, _ in }
    #expect(observable._storedSubscriptionCount == 3)
    token.cancel()
    #expect(observable._storedSubscriptionCount == 2, "cancelling took it out at once")
    observable.removeObserver(removed)
    #expect(observable._storedSubscriptionCount == 1, "removeObserver took it out at once")
    gone = nil
    #expect(deinits.entries == ["gone"])
    // Another subscription does not sweep it: only a set does, as documented. One with a
    // token, no owner: an owner made now could take `gone`'s address, and so its place.
    let later = observable.observeOnAnyThread { _ in }
    #expect(observable._storedSubscriptionCount == 2, "the dead owner's subscription stays")
    #expect(observable.observerCount == 1)
    observable.value = 1
    #expect(observable._storedSubscriptionCount == 1, "the set took it out")
    #expect(observable._storedSubscriptionCount == observable.observerCount)
    withExtendedLifetime((removed, later)) {}
  }

  @Test("once its owner is gone and a set has cleaned it, a subscription frees its handler")
  func deadOwnerFreesHandler() {
    let deinits = SharedLog<String>()
    let observable = Observable(0)
    var owner: Owner? = Owner("screen", deinits: deinits)
    var captured: Owner? = Owner("captured", deinits: deinits)
    observable.observeOnAnyThread(owner!) { [captured] _, _ in _ = captured }
    captured = nil
    owner = nil
    observable.value = 1
    #expect(deinits.entries == ["screen", "captured"], "nothing keeps the ended subscription")
    #expect(captured == nil)
  }

  @Test("observing again with the same owner replaces its subscription; removeObserver ends it")
  func ownerReplaceAndRemove() {
    let deinits = SharedLog<String>()
    let log = SharedLog<String>()
    let observable = Observable(0)
    let owner = Owner("screen", deinits: deinits)
    let stranger = Owner("stranger", deinits: deinits)
    observable.observeOnAnyThread(owner) { _, change in log.append("first \(change.newValue)") }
    observable.observeOnAnyThread(owner) { _, change in log.append("second \(change.newValue)") }
    #expect(observable.observerCount == 1)
    observable.value = 1
    observable.removeObserver(stranger)
    observable.removeObserver(owner)
    observable.value = 2
    #expect(log.entries == ["second 1"])
    #expect(observable.observerCount == 0)
  }

  @Test("a value set inside a handler is delivered after the current one: everyone ends on it")
  func reentrantSetIsQueued() {
    let log = SharedLog<String>()
    let observable = Observable(0)
    let corrector = observable.observeOnAnyThread { change in
      log.append("corrector \(change.newValue)")
      if change.newValue == 1 { observable.value = 2 }
    }
    let display = observable.observeOnAnyThread { log.append("display \($0.newValue)") }
    observable.value = 1
    #expect(log.entries == ["corrector 1", "display 1", "corrector 2", "display 2"])
    withExtendedLifetime((corrector, display)) {}
  }

  @Test("an observer cancelled by another during a delivery is not called for it")
  func removalIsImmediate() {
    let log = SharedLog<String>()
    let observable = Observable(0)
    let victim = Locked<ObservationToken?>(nil)
    let remover = observable.observeOnAnyThread { _ in
      log.append("remover")
      victim.withLock { $0 }?.cancel()
    }
    victim.withLock { $0 = observable.observeOnAnyThread { _ in log.append("victim") } }
    observable.value = 1
    #expect(log.entries == ["remover"])
    withExtendedLifetime(remover) {}
  }

  @Test("a handler may subscribe, cancel, set and take its own lock without deadlock")
  func handlersMayCallBack() {
    let log = SharedLog<String>()
    let own = Locked(0)
    let observable = Observable(0)
    let late = Locked<[ObservationToken]>([])
    let token = observable.observeOnAnyThread { change in
      own.withLock { $0 += 1 }
      guard change.newValue == 1 else { return }
      let newcomer = observable.observeOnAnyThread(options: .initial) {
        log.append("newcomer \($0.newValue)")
      }
      late.withLock { $0.append(newcomer) }
      observable.value = 2
      _ = observable.value
      _ = observable.observerCount
    }
    observable.value = 1
    #expect(own.withLock { $0 } == 2)
    #expect(
      log.entries == ["newcomer 1", "newcomer 2"],
      "a newcomer gets the value when it subscribed, then the sets after, never the set under way")
    withExtendedLifetime((token, late)) {}
  }

  @Test("a set queued before a subscription is not delivered to it: its initial value comes first")
  func queuedSetSkipsLaterSubscriber() {
    let log = SharedLog<Change<Int>>()
    let observable = Observable(0)
    let late = Locked<ObservationToken?>(nil)
    let token = observable.observeOnAnyThread { change in
      guard change.newValue == 1 else { return }
      observable.value = 2
      let newcomer = observable.observeOnAnyThread(options: .initial) { log.append($0) }
      late.withLock { $0 = newcomer }
    }
    observable.value = 1
    observable.value = 3
    #expect(
      log.entries == [
        Change(kind: .initial, oldValue: nil, newValue: 2),
        Change(kind: .update, oldValue: 2, newValue: 3),
      ])
    withExtendedLifetime((token, late)) {}
  }

  @Test("removal compacts the list once half of it is empty, keeping order")
  func compaction() {
    let deinits = SharedLog<String>()
    let log = SharedLog<String>()
    let observable = Observable(0)
    let owners = (0..<100).map { Owner("owner \($0)", deinits: deinits) }
    for owner in owners {
      observable.observeOnAnyThread(owner) { owner, _ in log.append(owner.name) }
    }
    for owner in owners.prefix(90) {
      observable.removeObserver(owner)
    }
    #expect(observable._storedSubscriptionCount == 10)
    #if TUNED  // The lesson removes at once; the tuned module leaves slots to compact.
      #expect(observable._slotCount < 50, "ended subscriptions were compacted away")
    #endif
    observable.value = 1
    #expect(log.entries == (90..<100).map { "owner \($0)" })
    // The owners live until here: an optimized build would otherwise free them after their
    // last use above, and with them their subscriptions.
    withExtendedLifetime(owners) {}
  }

  @Test("no retain cycle: dropping the observable frees it and its owners' subscriptions")
  func noRetainCycle() {
    let deinits = SharedLog<String>()
    weak var weakObservable: Observable<Int>?
    var token: ObservationToken?
    var owner: Owner? = Owner("screen", deinits: deinits)
    do {
      let observable = Observable(0)
      weakObservable = observable
      token = observable.observeOnAnyThread { _ in }
      observable.observeOnAnyThread(owner!) { _, _ in }
    }
    #expect(weakObservable == nil)
    token?.cancel()
    token = nil
    owner = nil
    #expect(deinits.entries == ["screen"])
  }

  @Test("a token that is dropped frees its handler and what the handler captured")
  func tokenFreesHandler() {
    let deinits = SharedLog<String>()
    let observable = Observable(0)
    var captured: Owner? = Owner("captured", deinits: deinits)
    var token: ObservationToken? = observable.observeOnAnyThread { [captured] _ in _ = captured }
    captured = nil
    #expect(deinits.entries.isEmpty)
    token = nil
    #expect(deinits.entries == ["captured"])
    #expect(token == nil)
  }

  @Test("values: the current value, then every change; it ends when the observable goes")
  func valuesStream() async {
    var observable: Observable<Int>? = Observable(1)
    let stream = observable!.values
    observable!.value = 2
    observable!.value = 3
    observable = nil
    var received: [Int] = []
    for await value in stream {
      received.append(value)
    }
    #expect(received == [1, 2, 3])
  }

  @Test("values: a stream dropped without being read ends its subscription")
  func valuesDropped() {
    let observable = Observable(0)
    do {
      let stream = observable.values
      #expect(observable.observerCount == 1)
      withExtendedLifetime(stream) {}
    }
    observable.value = 1
    #expect(observable.observerCount == 0)
  }

  @Test("values: cancelling the consuming task ends the subscription")
  func valuesCancellation() async {
    let observable = Observable(0)
    let started = AsyncStream.makeStream(of: Void.self)
    let task = Task {
      var count = 0
      for await _ in observable.values {
        count += 1
        started.continuation.yield()
      }
      return count
    }
    for await _ in started.stream { break }
    #expect(observable.observerCount == 1)
    task.cancel()
    _ = await task.value
    #expect(observable.observerCount == 0)
  }

  @Test("it is Sendable, so a task may share it")
  func sendable() async {
    let observable = Observable(0)
    await withTaskGroup(of: Void.self) { group in
      for value in 1...10 {
        group.addTask { observable.value = value }
      }
    }
    #expect((1...10).contains(observable.value))
  }
}
