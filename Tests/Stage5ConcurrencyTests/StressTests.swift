import Foundation
import Synchronization
import Testing

#if TUNED
  import Stage5Tuned
#else
  import Stage5Concurrency
#endif

/// Runs each body on its own thread, all released together once every thread is ready, and
/// waits for them all.
private func runTogether(_ bodies: [@Sendable () -> Void]) {
  let barrier = StartBarrier(count: bodies.count)
  let done = DispatchGroup()
  for body in bodies {
    done.enter()
    Thread.detachNewThread {
      barrier.arriveAndWait()
      body()
      done.leave()
    }
  }
  done.wait()
}

/// Holds threads until all of them have arrived, so that they start racing together.
private final class StartBarrier: Sendable {
  private let count: Int
  private let arrived = Atomic(0)

  init(count: Int) {
    self.count = count
  }

  func arriveAndWait() {
    arrived.add(1, ordering: .acquiringAndReleasing)
    while arrived.load(ordering: .acquiring) < count { sched_yield() }
  }
}

/// Checks, from inside handlers, that no two of them ever run at once.
final class OverlapDetector: Sendable {
  private let running = Atomic(0)
  private let overlaps = Atomic(0)
  private let calls = Atomic(0)

  var overlapCount: Int { overlaps.load(ordering: .relaxed) }
  var callCount: Int { calls.load(ordering: .relaxed) }

  func enter() {
    calls.add(1, ordering: .relaxed)
    if running.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
      overlaps.add(1, ordering: .relaxed)
    }
  }

  func leave() {
    running.subtract(1, ordering: .acquiringAndReleasing)
  }
}

@Suite("Stage 5: many threads at once")
struct StressTests {
  @Test("set, observe, cancel and release owners from four threads: ordered, never overlapping")
  func hammer() async {
    for _ in 0..<150 {
      let observable = Observable(0)
      let detector = OverlapDetector()
      let steady = SharedLog<Change<Int>>()
      let steadyToken = observable.observeOnAnyThread { change in
        detector.enter()
        steady.append(change)
        detector.leave()
      }
      let churned = SharedLog<[Change<Int>]>()
      let deinits = SharedLog<String>()

      runTogether([
        { for value in 1...60 { observable.value = value } },
        { for value in 1001...1060 { observable.value = value } },
        {
          for _ in 0..<30 {
            let log = SharedLog<Change<Int>>()
            let token = observable.observeOnAnyThread(options: .initial) { change in
              detector.enter()
              log.append(change)
              detector.leave()
            }
            _ = observable.value
            token.cancel()
            churned.append(log.entries)
          }
        },
        {
          for index in 0..<30 {
            var owner: Owner? = Owner("owner \(index)", deinits: deinits)
            observable.observeOnAnyThread(owner!) { _, _ in
              detector.enter()
              detector.leave()
            }
            owner = nil
          }
        },
      ])

      // What the threads set last may still be on its way, with a task: wait for it.
      await observable.waitUntilDelivered()
      #expect(detector.overlapCount == 0, "two handlers ran at once")
      let changes = steady.entries
      #expect(changes.count == 120)
      #expect(
        zip(changes, changes.dropFirst()).allSatisfy { $0.newValue == $1.oldValue },
        "the steady observer saw every value, in the order they were set")
      #expect(changes.last?.newValue == observable.value, "it ends on the latest value")
      for log in churned.entries {
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.newValue == $1.oldValue })
      }
      #expect(deinits.entries.count == 30)
      #expect(observable.observerCount == 1)
      withExtendedLifetime(steadyToken) {}
    }
  }

  @Test(
    "a set made while another thread delivers returns at once, and another thread delivers it after that thread's own work"
  )
  func deliveringThreadLeavesOthersChangesToATask() async {
    let observable = Observable(0)
    let deliveredOn = Mutex<[Int: ObjectIdentifier]>([:])
    let setters = Mutex<[String: ObjectIdentifier]>([:])
    let firstCallStarted = DispatchSemaphore(value: 0)
    let otherSetterReturned = DispatchSemaphore(value: 0)
    let otherSetterSawItsChange = Mutex<Bool?>(nil)
    let token = observable.observeOnAnyThread { change in
      deliveredOn.withLock { $0[change.newValue] = ObjectIdentifier(Thread.current) }
      if change.newValue == 1 {
        firstCallStarted.signal()
        otherSetterReturned.wait()
      }
    }
    let done = DispatchGroup()
    done.enter()
    let first = Thread {
      setters.withLock { $0["first"] = ObjectIdentifier(Thread.current) }
      observable.value = 1
      done.leave()
    }
    done.enter()
    let second = Thread {
      firstCallStarted.wait()
      observable.value = 2
      otherSetterSawItsChange.withLock { $0 = deliveredOn.withLock { $0[2] != nil } }
      otherSetterReturned.signal()
      done.leave()
    }
    first.start()
    second.start()
    await withCheckedContinuation { continuation in
      done.notify(queue: .global()) { continuation.resume() }
    }
    await observable.waitUntilDelivered()
    #expect(otherSetterSawItsChange.withLock { $0 } == false, "its setter returned at once")
    // The first setter's turn was its own change: the other's, queued during it, went on to the
    // dispatch queue the turn is handed to (no setter waited), never to the first setter.
    let firstSetter = setters.withLock { $0["first"] }
    let delivered = deliveredOn.withLock { $0 }
    #expect(delivered[1] == firstSetter)
    #expect(
      delivered[2] != nil && delivered[2] != firstSetter,
      "the first setter returned after its own change, without delivering the other's")
    withExtendedLifetime(token) {}
  }
}
