import Foundation
import Stage5Concurrency
import Synchronization

/// A screen that may be shared across threads: stage 5 asks its owners to be `Sendable`.
final class ScoreLabel: Sendable {
  let name: String

  init(_ name: String) {
    self.name = name
  }
}

extension Demo {
  /// Chapter 5c: stage 5 keeps the promises of chapter 5's shared observable, then shows a
  /// screen's handler on the main actor.
  func handlersOnTheMainActor() {
    print("-- stage 5: a set inside a handler is queued, not delivered depth first --")
    let score = Observable(0)
    let clamp = score.observeOnAnyThread { change in
      print("clamp sees \(change.newValue)")
      if change.newValue > 10 { score.value = 10 }
    }
    let display = score.observeOnAnyThread { change in
      print("display shows \(change.newValue) (was \(change.oldValue ?? 0))")
    }
    score.value = 42
    print("")

    print("-- stage 5: a handler removed during a delivery is not called for it --")
    let level = Observable(0)
    let badge = Mutex<ObservationToken?>(nil)
    let closer = level.observeOnAnyThread { change in
      print("closer sees \(change.newValue) and cancels the badge")
      badge.withLock { $0 }?.cancel()
    }
    let badgeToken = level.observeOnAnyThread { change in print("badge shows \(change.newValue)") }
    badge.withLock { $0 = badgeToken }
    level.value = 1
    level.value = 2
    closer.cancel()
    print("")

    print("-- stage 5: an owner is handed to its handler, and ends its subscription --")
    var label: ScoreLabel? = ScoreLabel("score label")
    score.observeOnAnyThread(label!, options: .initial) { label, change in
      print("\(label.name) shows \(change.newValue)")
    }
    print("live subscriptions: \(score.observerCount)")
    label = nil
    print("after the label is freed: \(score.observerCount)")
    clamp.cancel()
    display.cancel()
    print("")

    print("-- stage 5: many threads set at once --")
    let counter = Observable(0)
    let seen = Mutex<[Change<Int>]>([])
    let token = counter.observeOnAnyThread { change in seen.withLock { $0.append(change) } }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for step in 1...100 {
        counter.value = thread * 1_000 + step
      }
    }
    // A setter delivers its own change only: what the others set meanwhile may still be on its
    // way, with a task that took the turn up. An initial value, queued behind all of it,
    // arrives once it has all been delivered.
    let delivered = DispatchSemaphore(value: 0)
    let lastInLine = counter.observeOnAnyThread(options: .initial) { change in
      if change.kind == .initial { delivered.signal() }
    }
    delivered.wait()
    lastInLine.cancel()
    let changes = seen.withLock { $0 }
    let chained = zip(changes, changes.dropFirst()).allSatisfy { $0.newValue == $1.oldValue }
    print("changes seen: \(changes.count)")
    print("each change starts where the last one ended: \(chained)")
    print("the last change seen is the final value: \(changes.last?.newValue == counter.value)")
    token.cancel()
    print("")

    print("-- stage 5 on the main actor: a screen's label --")
    // The demo runs on the main actor, as an app's screen does: `swift run tutorial` calls it
    // from its main thread.
    MainActor.assumeIsolated {
      let screen = MainActorScreen()
      screen.start()
      print("after start(), the label shows \(screen.label.text)")
      screen.score.value = 3
      print("right after the set, the label shows \(screen.label.text)")
    }
  }
}
