import Dispatch
import Foundation
import Synchronization
import Testing
import TutorialKit

/// What handlers recorded, from any thread, in order.
private final class Record<Element: Sendable>: Sendable {
  private let elements = Mutex<[Element]>([])

  var all: [Element] { elements.withLock { $0 } }

  func append(_ element: Element) {
    elements.withLock { $0.append(element) }
  }
}

/// A count any thread may add to.
private final class Counter: Sendable {
  private let value = Atomic(0)

  var count: Int { value.load(ordering: .sequentiallyConsistent) }

  func add() {
    value.add(1, ordering: .sequentiallyConsistent)
  }
}

/// An object that counts its deinitializations, and runs `onDeinit` in its `deinit`.
private final class Counted: Sendable {
  let onDeinit: @Sendable () -> Void

  init(onDeinit: @escaping @Sendable () -> Void) {
    self.onDeinit = onDeinit
  }

  deinit { onDeinit() }
}

/// Starts `count` threads that each run `body` with its index, all released at once, and
/// returns once all have started `body`: wait on the group for them to finish.
private func startThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup
{
  let ready = DispatchSemaphore(value: 0)
  let go = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for index in 0..<count {
    done.enter()
    Thread {
      ready.signal()
      go.wait()
      body(index)
      done.leave()
    }.start()
  }
  for _ in 0..<count { ready.wait() }
  for _ in 0..<count { go.signal() }
  return done
}

@Suite("Chapter 5's SharedObservable keeps the promises of its doc comment")
struct SharedObservableTests {
  @Test("every handler sees every value once, in one order, never two handlers at a time")
  func orderAndOnceAcrossThreads() {
    let observable = SharedObservable("start")
    let first = Record<String>()
    let second = Record<String>()
    let inside = Atomic(0)
    let overlaps = Atomic(0)
    for record in [first, second] {
      observable.observe { value in
        if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
          overlaps.add(1, ordering: .relaxed)
        }
        record.append(value)
        inside.subtract(1, ordering: .sequentiallyConsistent)
      }
    }
    let threads = 4
    let setsEach = 300
    let threadsDone = startThreads(threads) { thread in
      for step in 0..<setsEach { observable.set("thread \(thread) step \(step)") }
    }
    threadsDone.wait()
    let seen = first.all
    #expect(seen.count == threads * setsEach)
    #expect(Set(seen).count == seen.count, "a value was delivered twice")
    #expect(second.all == seen, "the two handlers saw different orders")
    #expect(seen.last == observable.value)
    for thread in 0..<threads {
      let own = seen.filter { $0.hasPrefix("thread \(thread) ") }
      #expect(own == (0..<setsEach).map { "thread \(thread) step \($0)" })
    }
    let overlapCount = overlaps.load(ordering: .relaxed)
    #expect(overlapCount == 0)
  }

  @Test("a value set inside a handler is delivered after the current one reaches everyone")
  func nestedSetWaitsItsTurn() {
    let observable = SharedObservable(0)
    let seen = Record<String>()
    observable.observe { value in
      seen.append("A \(value)")
      if value == 1 { observable.set(2) }
    }
    observable.observe { value in seen.append("B \(value)") }
    observable.set(1)
    #expect(seen.all == ["A 1", "B 1", "A 2", "B 2"])
  }

  @Test("a handler cancelled, by another handler or from outside, is not called again")
  func cancelStopsCalls() {
    let observable = SharedObservable(0)
    let seen = Record<String>()
    let badge = Mutex<SharedObservable<Int>.Subscription?>(nil)
    let closer = observable.observe { value in
      seen.append("closer \(value)")
      if let badge = badge.withLock({ $0 }) { observable.cancel(badge) }
    }
    badge.withLock { $0 = observable.observe { seen.append("badge \($0)") } }
    let log = observable.observe { seen.append("log \($0)") }
    observable.set(1)
    observable.cancel(log)
    observable.set(2)
    observable.cancel(closer)
    observable.set(3)
    #expect(seen.all == ["closer 1", "log 1", "closer 2"])
  }

  @Test("cancel releases the handler, and what it captured, before it returns")
  func cancelReleasesTheHandler() {
    let observable = SharedObservable(0)
    let deinits = Counter()
    var captured: Counted? = Counted { deinits.add() }
    let subscription = observable.observe { [captured] _ in _ = captured }
    captured = nil
    observable.set(1)
    #expect(deinits.count == 0)
    observable.cancel(subscription)
    #expect(deinits.count == 1)
  }

  @Test("an owner is handed to its handler, and not kept alive by it")
  func ownerIsHandedOver() {
    let observable = SharedObservable(0)
    let seen = Record<Int>()
    let deinits = Counter()
    var owner: Counted? = Counted { deinits.add() }
    observable.observe(owner!) { _, value in seen.append(value) }
    observable.set(1)
    owner = nil
    #expect(deinits.count == 1)
    observable.set(2)
    #expect(seen.all == [1])
  }

  @Test("an old value is released by the set that replaced it, after the lock is let go")
  func oldValueReleasedOutsideTheLock() {
    let deinits = Counter()
    let observable = SharedObservable<Counted?>(nil)
    observable.set(Counted { deinits.add() })
    observable.set(nil)
    #expect(deinits.count == 1)
  }

  // Released under the lock, a `deinit` that uses the observable would lock it again, and the
  // Synchronization module's Mutex stops the program: so the deinits run in a child process,
  // which must exit with success, and count themselves there.
  @Test("nothing of the user's is released under the lock: deinits that use the observable run")
  func deinitsMayUseTheObservable() async {
    await #expect(processExitsWith: .success) {
      let observable = SharedObservable<Counted?>(nil)
      let deinits = Counter()
      let useIt: @Sendable () -> Void = {
        _ = observable.value
        observable.cancel(observable.observe { _ in })
        deinits.add()
      }
      observable.set(Counted(onDeinit: useIt))
      var captured: Counted? = Counted(onDeinit: useIt)
      let subscription = observable.observe { [captured] _ in _ = captured }
      captured = nil
      observable.set(nil)
      precondition(deinits.count == 1, "the old value was not released")
      observable.cancel(subscription)
      precondition(deinits.count == 2, "the handler was not released")
    }
  }

  // Each thread sets in a loop, and each set must return while the others still set: a thread
  // that took the turn and delivered whatever the others queued, for as long as they kept
  // setting, would come back only once they stopped. The observer is slower than the setters,
  // so such a queue would not run dry before.
  @Test("a set returns after its own work, while other threads set in loops")
  func aSetReturnsWhileOthersKeepSetting() {
    let observable = SharedObservable(0)
    observable.observe { _ in Thread.sleep(forTimeInterval: 0.000_2) }
    let threads = 3
    let (wanted, each) = (20, 1_000)
    let finished = Counter()
    // For each thread: whether every other thread was still setting when it had returned from
    // `wanted` sets.
    let othersStillSetting = Mutex([Bool?](repeating: nil, count: threads))
    let threadsDone = startThreads(threads) { thread in
      for step in 1...each {
        observable.set(thread * 1_000_000 + step)
        if step == wanted {
          let stillSetting = finished.count == 0
          othersStillSetting.withLock { $0[thread] = stillSetting }
        }
      }
      finished.add()
    }
    // The watchdog: a thread that never returns fails the test instead of hanging it.
    let ended = threadsDone.wait(timeout: .now() + 60) == .success
    #expect(ended, "a set has not returned after 60 seconds")
    let answers = othersStillSetting.withLock { $0 }
    #expect(
      answers == Array(repeating: true, count: threads),
      "a thread returned from its sets only once the others had stopped: \(answers)")
  }
}
