import Foundation
import Synchronization
import Testing

#if TUNED
  import Stage5Tuned
#else
  import Stage5Concurrency
#endif

/// A screen that keeps its own token, whose handler captures the screen: screen → token →
/// subscription → handler → screen, until the token is cancelled.
/// An owner on the main actor, for a main-actor handler.
@MainActor final class MainActorTally: Sendable {}

@MainActor final class TokenKeepingScreen {
  var token: ObservationToken?
  var shown = 0
  let deinits: SharedLog<String>

  init(_ score: Observable<Int>, deinits: SharedLog<String>) {
    self.deinits = deinits
    token = score.observe { change in self.shown = change.newValue }
  }

  deinit { deinits.append("screen") }
}

/// An actor other than the main one, whose handler records what it is handed, on itself.
actor Tally {
  private(set) var values: [Int] = []
  private var token: ObservationToken?

  /// Observes `score` with a handler isolated to this actor, which checks that it runs here.
  func start(_ score: Observable<Int>) {
    token = score.observe { change in
      self.preconditionIsolated("a handler written in an actor runs on it")
      self.values.append(change.newValue)
    }
  }
}

/// Something a handler captures, whose deinitialization is logged.
final class Capture: Sendable {
  let log: SharedLog<String>

  init(_ log: SharedLog<String>) { self.log = log }

  func touch() {}

  deinit { log.append("released") }
}

/// An owner that removes its own subscription in its `deinit`, as code used to
/// `NotificationCenter` does.
final class SelfRemovingOwner: Sendable {
  let score: Observable<Int>

  init(_ score: Observable<Int>) { self.score = score }

  deinit { score.removeObserver(self) }
}

extension OverlapDetector {
  /// Marks a handler's call, long enough for a call on another thread to meet it.
  func handle() {
    enter()
    for _ in 0..<200 { _ = callCount }
    leave()
  }
}

@Suite("Stage 5 keeps its promises: one handler at a time, cancel releases, isolation kept")
@MainActor
struct PromiseTests {
  @Test(
    "never two handlers at a time: a main-actor handler and an any-thread one, set from another thread",
    arguments: [1, 3])
  func mainActorAndAnyThreadHandlersNeverOverlap(setterCount: Int) async {
    let score = Observable(0)
    let detector = OverlapDetector()
    let arrivals = Arrivals()
    let anyThread = score.observeOnAnyThread { _ in detector.handle() }
    let onMain = score.observe { change in
      detector.handle()
      arrivals.record(change.newValue)
    }
    let anyThreadAfter = score.observeOnAnyThread { _ in detector.handle() }
    let perSetter = 2_000
    let finished = DispatchGroup()
    for setter in 0..<setterCount {
      finished.enter()
      Thread.detachNewThread {
        for index in 1...perSetter { score.value = setter * 10_000 + index }
        finished.leave()
      }
    }
    // The main actor stays free meanwhile, so that its handler runs while the setters set.
    await withCheckedContinuation { continuation in
      finished.notify(queue: .global()) { continuation.resume() }
    }
    let last = score.value
    await arrivals.wait(for: last)
    #expect(detector.overlapCount == 0, "handlers overlapped \(detector.overlapCount) times")
    #expect(arrivals.values.count == setterCount * perSetter, "every change reached the main actor")
    #expect(detector.callCount == 3 * setterCount * perSetter, "every handler saw every change")
    withExtendedLifetime((anyThread, onMain, anyThreadAfter)) {}
  }

  @Test("cancel() releases the handler, and what it captured, before it returns")
  func cancelReleasesTheHandler() {
    let deinits = SharedLog<String>()
    let score = Observable(0)
    var screen: TokenKeepingScreen? = TokenKeepingScreen(score, deinits: deinits)
    weak let weakScreen = screen
    score.value = 1
    #expect(screen?.shown == 1)
    screen?.token?.cancel()
    screen = nil
    #expect(weakScreen == nil, "the screen was freed: the token no longer holds its handler")
    #expect(deinits.entries == ["screen"])
  }

  @Test("a handler that cancels its own token is released by the time the set returns")
  func cancelInsideTheHandler() {
    let log = SharedLog<String>()
    let score = Observable(0)
    let slot = Locked<ObservationToken?>(nil)
    var capture: Capture? = Capture(log)
    slot.withLock { [capture] in
      $0 = score.observeOnAnyThread { _ in
        capture?.touch()
        slot.withLock { $0 }?.cancel()
      }
    }
    capture = nil
    #expect(log.entries.isEmpty, "the handler holds what it captured")
    score.value = 1
    #expect(log.entries == ["released"])
    score.value = 2
    #expect(log.entries == ["released"])
  }

  @Test("cancelled from another thread during a delivery: released once that delivery is done")
  nonisolated func cancelDuringADeliveryOnAnotherThread() {
    let log = SharedLog<String>()
    let score = Observable(0)
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let blocker = score.observeOnAnyThread { change in
      guard change.newValue == 1 else { return }
      entered.signal()
      proceed.wait()
    }
    var capture: Capture? = Capture(log)
    let victim = score.observeOnAnyThread { [capture] _ in capture?.touch() }
    capture = nil
    let delivered = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      score.value = 1
      delivered.signal()
    }
    entered.wait()
    victim.cancel()
    proceed.signal()
    delivered.wait()
    #expect(log.entries == ["released"], "released by the time the delivery ended")
    withExtendedLifetime(blocker) {}
  }

  @Test(
    "cancelled from another thread while a handler runs: released once it returns, before the next handler is called"
  )
  nonisolated func cancelReleasedBeforeTheNextHandler() {
    let log = SharedLog<String>()
    let score = Observable(0)
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let blocker = score.observeOnAnyThread { change in
      guard change.newValue == 1 else { return }
      entered.signal()
      proceed.wait()
    }
    var capture: Capture? = Capture(log)
    let victim = score.observeOnAnyThread { [capture] _ in capture?.touch() }
    capture = nil
    // Called after the victim's place in the same delivery, and for the changes behind it.
    let seenByWitness = SharedLog<[String]>()
    let witness = score.observeOnAnyThread { _ in seenByWitness.append(log.entries) }
    let delivered = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      score.value = 1
      delivered.signal()
    }
    entered.wait()
    // Queued behind the change under way: the turn goes on long after the cancel.
    for value in 2...50 { score.value = value }
    victim.cancel()
    proceed.signal()
    delivered.wait()
    #expect(
      seenByWitness.entries.first == ["released"],
      "the witness, the next handler called, found the victim's capture released")
    withExtendedLifetime((blocker, witness)) {}
  }

  @Test(
    "values(bufferingPolicy: .bufferingOldest(n)) keeps the first n and may not end on the latest")
  nonisolated func valuesBufferingOldest() async {
    let score = Observable(0)
    let oldest = score.values(bufferingPolicy: .bufferingOldest(3))
    for value in 1...100 { score.value = value }
    await score.waitUntilDelivered()
    var iterator = oldest.makeAsyncIterator()
    var received: [Int] = []
    for _ in 0..<3 { received.append(await iterator.next()!) }
    #expect(received == [0, 1, 2], "the first three kept, and the latest, 100, dropped")
  }

  @Test(
    "waitUntilDelivered(): once it returns, every value set before it has reached every observer, the main actor's too"
  )
  func waitUntilDeliveredWaitsForEveryObserver() async {
    let score = Observable(0)
    let arrivals = Arrivals()
    let owner = MainActorTally()
    score.observe(owner) { _, change in arrivals.record(change.newValue) }
    let anyThread = SharedLog<Int>()
    let token = score.observeOnAnyThread { anyThread.append($0.newValue) }
    let done = DispatchGroup()
    for setter in 0..<4 {
      done.enter()
      Thread.detachNewThread {
        for value in 1...200 { score.value = setter * 1_000 + value }
        done.leave()
      }
    }
    await withCheckedContinuation { continuation in
      done.notify(queue: .global()) { continuation.resume() }
    }
    await score.waitUntilDelivered()
    let last = score.value
    #expect(arrivals.values.count == 800 && arrivals.values.last == last)
    #expect(anyThread.entries.count == 800 && anyThread.entries.last == last)
    withExtendedLifetime(token) {}
  }

  @Test("cancelled by an earlier handler of the same delivery: released before cancel returns")
  nonisolated func cancelLaterSubscriptionFromAHandler() {
    let log = SharedLog<String>()
    let score = Observable(0)
    let victim = Locked<ObservationToken?>(nil)
    let releasedWhenCancelReturned = Locked<Bool?>(nil)
    let canceller = score.observeOnAnyThread { _ in
      guard let token = victim.withLock({ $0 }) else { return }
      token.cancel()
      releasedWhenCancelReturned.withLock { $0 = log.entries == ["released"] }
    }
    var capture: Capture? = Capture(log)
    victim.withLock { [capture] in $0 = score.observeOnAnyThread { _ in capture?.touch() } }
    capture = nil
    score.value = 1
    #expect(releasedWhenCancelReturned.withLock { $0 } == true)
    withExtendedLifetime(canceller) {}
  }

  @Test(
    "cancelled on the main actor while a delivery waits for it there: released before cancel returns"
  )
  func cancelWhileADeliveryWaitsForTheMainActor() {
    let log = SharedLog<String>()
    let score = Observable(0)
    var capture: Capture? = Capture(log)
    let token = score.observe { [capture] _ in capture?.touch() }
    capture = nil
    // Set on another thread while the main actor waits here: the delivery moves to the main
    // actor, and waits for it.
    onAnotherThread { score.value = 1 }
    token.cancel()
    #expect(log.entries == ["released"])
  }

  @Test(
    "removeObserver(self) in the owner's deinit ends its subscription and lets go of its handler")
  nonisolated func removeObserverFromTheOwnersDeinit() {
    let log = SharedLog<String>()
    let score = Observable(0)
    var capture: Capture? = Capture(log)
    var owner: SelfRemovingOwner? = SelfRemovingOwner(score)
    score.observeOnAnyThread(owner!) { [capture] _, _ in capture?.touch() }
    capture = nil
    #expect(score.storedSubscriptionCount == 1)
    owner = nil
    #expect(score.storedSubscriptionCount == 0, "taken out at once, not left for a set")
    #expect(log.entries == ["released"])
  }

  @Test("once the deliveries of the sets made so far are done, stored and live counts agree")
  func storedEqualsLiveOnceDelivered() async {
    let score = Observable(0)
    let arrivals = Arrivals()
    // A main-actor handler first: a set on another thread moves its delivery to the main actor.
    score.observe(arrivals) { arrivals, change in arrivals.record(change.newValue) }
    var owner: Owner? = Owner("gone", deinits: SharedLog<String>())
    score.observeOnAnyThread(owner!) { _, _ in }
    owner = nil
    onAnotherThread { score.value = 1 }
    await arrivals.wait(for: 1)
    await score.waitUntilDelivered()
    #expect(score.storedSubscriptionCount == score.observerCount)
    #expect(score.observerCount == 1)
  }

  @Test("values keeps every value; values(bufferingPolicy: .bufferingNewest(1)) the latest only")
  nonisolated func valuesBuffering() async {
    let score = Observable(0)
    let everyValue = score.values
    let latest = score.values(bufferingPolicy: .bufferingNewest(1))
    for value in 1...100 { score.value = value }
    var every = everyValue.makeAsyncIterator()
    var newest = latest.makeAsyncIterator()
    #expect(await every.next() == 0)
    #expect(await every.next() == 1)
    #expect(await newest.next() == 100)
  }

  @Test("a dropped owner-less observable still lets go of a cancelled token's handler")
  nonisolated func cancelAfterTheObservableIsGone() {
    let log = SharedLog<String>()
    var score: Observable<Int>? = Observable(0)
    var capture: Capture? = Capture(log)
    let token = score!.observeOnAnyThread { [capture] _ in capture?.touch() }
    capture = nil
    score = nil
    #expect(log.entries == ["released"], "the observable's end released it")
    token.cancel()
    #expect(log.entries == ["released"])
  }

  @Test("a handler written in another actor runs on it: every change, in the order set, once")
  nonisolated func handlerOfAnotherActor() async {
    let score = Observable(0)
    let tally = Tally()
    await tally.start(score)
    for value in 1...100 { score.value = value }
    while await tally.values.count < 100 { await Task.yield() }
    #expect(await tally.values == Array(1...100))
  }

  @Test(
    "a set on the main actor, behind a handler of another actor, reaches a main-actor handler after the setter returns, in order"
  )
  func mainActorHandlerBehindAnotherActor() async {
    let score = Observable(0)
    let tally = Tally()
    await tally.start(score)
    let screen = ScoreLabel()
    let arrivals = Arrivals()
    score.observe(screen) { label, change in label.text = "\(change.newValue)" }
    score.observe(arrivals) { arrivals, change in arrivals.record(change.newValue) }
    score.value = 1
    score.value = 2
    // The delivery met the other actor's handler first and moved there; the main actor, busy
    // here, cannot have run the rest of it yet.
    #expect(screen.text == "", "not before the setter returned")
    await arrivals.wait(for: 2)
    #expect(screen.text == "2")
    #expect(arrivals.values == [1, 2], "in the order set, each once")
    while await tally.values.count < 2 { await Task.yield() }
    #expect(await tally.values == [1, 2])
  }

  @Test("a handler written in a @MainActor type runs on the main actor for every set")
  func mainActorHandlerStaysOnTheMainActor() async {
    let score = Observable(0)
    let screen = ScoreLabel()
    let arrivals = Arrivals()
    score.observe(screen) { label, change in
      label.history.append(("\(change.newValue)", isOnMainQueueOrThread()))
    }
    score.observe(arrivals) { arrivals, change in arrivals.record(change.newValue) }
    Thread.detachNewThread {
      for value in 1...200 { score.value = value }
    }
    await arrivals.wait(for: 200)
    #expect(screen.history.count == 200)
    let everyCallOnTheMainActor = screen.history.allSatisfy { $0.onMainThread }
    #expect(everyCallOnTheMainActor, "every call ran on the main actor")
  }
}
