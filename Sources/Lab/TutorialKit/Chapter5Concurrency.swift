import Foundation
import Synchronization

extension Demo {
  /// Chapter 5: the three steps, and the observable they end with.
  func concurrencyAge() {
    concurrencySteps()
    sharedObservable()
  }

  /// Chapter 5's first steps: a queue, a flag and an owner on one thread; the same on the main
  /// actor; then a lock let go before the handlers run.
  func concurrencySteps() {
    print("-- step 1: a value set inside a handler waits its turn --")
    let score = QueuedObservable(0)
    _ = score.observe { value in
      print("clamp sees \(value)")
      if value > 10 { score.set(10) }
    }
    _ = score.observe { value in print("display shows \(value)") }
    score.set(42)
    print("")

    print("-- step 1: a handler cancelled during a delivery is skipped at once --")
    let level = QueuedObservable(0)
    var badge: QueuedObservable<Int>.Subscription?
    _ = level.observe { value in
      print("closer sees \(value) and cancels the badge")
      if let badge { level.cancel(badge) }
    }
    badge = level.observe { value in print("badge shows \(value)") }
    level.set(1)
    print("")

    print("-- step 1: the owner is handed to its handler, which need not capture it --")
    let points = QueuedObservable(0)
    var label: Screen? = Screen("score label")
    weak let watched = label
    points.observe(label!) { label, value in print("\(label.name) shows \(value)") }
    points.set(5)
    label = nil
    print("after the last reference goes, the label is freed: \(watched == nil)")
    points.set(6)
    print("")

    print("-- step 2: the same observable on the main actor, Sendable with no lock --")
    MainActor.assumeIsolated {
      let score = MainActorObservable(0)
      let screen = Screen("score label")
      score.observe(screen) { screen, value in print("\(screen.name) shows \(value)") }
      score.set(3)
      // Compiles because a @MainActor class is Sendable: any thread may hold it; only code on
      // the main actor may use it.
      let shared: any Sendable = score
      print("handed on as Sendable: a \(type(of: shared))")
    }
    print("")

    print("-- step 3: the lock is let go before the handlers run --")
    let shared = CopyThenCall(0)
    shared.observe { value in
      print("handler sees \(value); reading the value again gives \(shared.value)")
    }
    shared.value = 7
    print("")
  }
}

extension Demo {
  /// Chapter 5's last step: the lock and the queue together, with one thread at a time
  /// delivering.
  func sharedObservable() {
    print("-- step 3, the turn: a set inside a handler waits its turn --")
    let score = SharedObservable(0)
    let clamp = score.observe { value in
      print("clamp sees \(value)")
      if value > 10 { score.set(10) }
    }
    let display = score.observe { value in print("display shows \(value)") }
    score.set(42)
    score.cancel(clamp)
    score.cancel(display)
    print("")

    print("-- step 3, the turn: a handler cancelled during a delivery is skipped --")
    let level = SharedObservable(0)
    let badge = Mutex<SharedObservable<Int>.Subscription?>(nil)
    level.observe { value in
      print("closer sees \(value) and cancels the badge")
      if let badge = badge.withLock({ $0 }) { level.cancel(badge) }
    }
    badge.withLock { $0 = level.observe { value in print("badge shows \(value)") } }
    level.set(1)
    print("")

    print("-- step 3, the turn: many threads set at once --")
    let counter = SharedObservable("none")
    let first = Mutex<[String]>([])
    let second = Mutex<[String]>([])
    let setters = Mutex<Set<ObjectIdentifier>>([])
    let deliverers = Mutex<Set<ObjectIdentifier>>([])
    counter.observe { value in
      first.withLock { $0.append(value) }
      _ = deliverers.withLock { $0.insert(ObjectIdentifier(Thread.current)) }
    }
    counter.observe { value in second.withLock { $0.append(value) } }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      _ = setters.withLock { $0.insert(ObjectIdentifier(Thread.current)) }
      for step in 1...100 {
        counter.set("\(thread)-\(step)")
      }
    }
    let seen = first.withLock { $0 }
    let inOrder = (0..<4).allSatisfy { thread in
      seen.filter { $0.hasPrefix("\(thread)-") } == (1...100).map { "\(thread)-\($0)" }
    }
    print("values seen: \(seen.count)")
    print("each thread's values in the order it set them: \(inOrder)")
    print("the second handler saw the same order: \(seen == second.withLock { $0 })")
    print("the last value seen is the final value: \(seen.last == counter.value)")
    let onSetters = deliverers.withLock { $0 }.isSubset(of: setters.withLock { $0 })
    print("every handler ran on a thread that was setting: \(onSetters)")
  }
}
