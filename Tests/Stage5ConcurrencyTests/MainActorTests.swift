import Foundation
import Synchronization
import Testing

#if TUNED
  import Stage5Tuned
#else
  import Stage5Concurrency
#endif

// The running example of the tutorial, written as a learner writes it in a Swift 6 app: a
// screen on the main actor whose label shows a score. It must compile as it stands.

@MainActor final class ScoreLabel {
  var text = ""
  /// Every text the label was given, and whether it was given on the main actor's thread.
  var history: [(text: String, onMainThread: Bool)] = []
}

@MainActor final class Screen {
  let label = ScoreLabel()
  let score = Observable(0)

  func start() {
    score.observe(label, options: .initial) { label, change in
      label.text = "\(change.newValue)"
      label.history.append((label.text, isOnMainQueueOrThread()))
    }
  }
}

/// A mark on the main queue, which runs the main actor's work. Unchecked `Sendable`: the key is
/// made once and never changed.
final class MainQueueMark: @unchecked Sendable {
  let key = DispatchSpecificKey<Void>()

  init() { DispatchQueue.main.setSpecific(key: key, value: ()) }
}

let mainQueueMark = MainQueueMark()

/// Whether this code runs where the main actor runs: the main thread, or the main queue's work,
/// which a test runner on Linux drains from another thread.
func isOnMainQueueOrThread() -> Bool {
  Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueMark.key) != nil
}

/// Runs `body` on a new thread and waits for it: a setter that is not on the main actor.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    done.signal()
  }
  thread.start()
  done.wait()
}

/// Values a main-actor handler received, and a way to wait until a given one arrives.
@MainActor final class Arrivals {
  private(set) var values: [Int] = []
  private var waiters: [(value: Int, continuation: CheckedContinuation<Void, Never>)] = []

  func record(_ value: Int) {
    values.append(value)
    waiters.removeAll { waiter in
      guard waiter.value == value else { return false }
      waiter.continuation.resume()
      return true
    }
  }

  /// Returns once `value` has arrived: no sleeping, no timing.
  func wait(for value: Int) async {
    if values.contains(value) { return }
    await withCheckedContinuation { waiters.append((value, $0)) }
  }
}

@Suite("Stage 5 on the main actor: a handler written in a @MainActor type")
@MainActor
struct MainActorTests {
  @Test(
    "the tutorial's screen compiles as written; .initial reaches the label before observe returns")
  func screenCompilesAndStartsShowingTheScore() {
    let screen = Screen()
    screen.start()
    #expect(screen.label.text == "0")
  }

  @Test("a set on the main actor has reached the label before the setter returns")
  func mainActorSetIsDeliveredAtOnce() {
    let screen = Screen()
    screen.start()
    screen.score.value = 3
    #expect(screen.label.text == "3")
    screen.score.value = 4
    #expect(screen.label.text == "4")
    #expect(screen.label.history.map(\.text) == ["0", "3", "4"])
  }

  @Test("the handler always runs on the main actor, whichever thread sets the value")
  func alwaysOnTheMainActor() async {
    let screen = Screen()
    let arrivals = Arrivals()
    screen.start()
    screen.score.observe(arrivals) { arrivals, change in arrivals.record(change.newValue) }
    let score = screen.score
    onAnotherThread { score.value = 7 }
    #expect(screen.label.text == "0", "a set on another thread reaches the main actor later")
    await arrivals.wait(for: 7)
    #expect(screen.label.text == "7")
    let everyCallOnMainThread = screen.label.history.allSatisfy { $0.onMainThread }
    #expect(everyCallOnMainThread)
  }

  @Test(
    "sets from other threads reach it on the main actor: every value, in set order, each once",
    arguments: [1, 4])
  func otherThreadsInSetOrder(threadCount: Int) async {
    let score = Observable(0)
    let arrivals = Arrivals()
    // The order the sets really took: each set is recorded under a lock held across it. No
    // handler runs under that lock: the only handler is the main actor's, and the main actor is
    // waiting for these threads, so every delivery moves to it and runs later.
    // An NSLock, which ThreadSanitizer can see, where a Mutex would look like a race to it.
    let setOrder = OrderLog()
    score.observe(arrivals) { arrivals, change in arrivals.record(change.newValue) }
    // No more than the backlog limit in all: past it, each set would wait, up to longestWait,
    // for the main actor, which this test holds until the threads are done.
    let perThread = Observable<Int>.backlogLimit / 4
    onAnotherThread {
      let finished = DispatchSemaphore(value: 0)
      for thread in 0..<threadCount {
        Thread {
          for index in 1...perThread {
            setOrder.record {
              thread * 1_000 + index
            } setting: {
              score.value = $0
            }
          }
          finished.signal()
        }.start()
      }
      for _ in 0..<threadCount { finished.wait() }
    }
    let expected = setOrder.values
    #expect(expected.count == threadCount * perThread)
    #expect(arrivals.values.isEmpty, "nothing reached the main actor while it was busy")
    await arrivals.wait(for: expected.last!)
    #expect(arrivals.values == expected)
  }

  @Test("a token cancelled on the main actor stops changes already on their way")
  func cancellingStopsQueuedChanges() async {
    let score = Observable(0)
    let stopped = Arrivals()
    let sentinel = Arrivals()
    let token = score.observe { change in stopped.record(change.newValue) }
    // Subscribed after, so its letters come after the first one's in the shared mailbox.
    score.observe(sentinel) { sentinel, change in sentinel.record(change.newValue) }
    onAnotherThread {
      for value in 1...50 { score.value = value }
    }
    token.cancel()
    await sentinel.wait(for: 50)
    #expect(stopped.values.isEmpty, "nothing reached it after cancel returned")
    #expect(sentinel.values == Array(1...50))
  }

  @Test("an owner gone on the main actor stops changes already on their way, and is cleaned")
  func ownerGoneStopsQueuedChanges() async {
    let score = Observable(0)
    let sentinel = Arrivals()
    var screen: ScoreLabel? = ScoreLabel()
    weak let weakScreen = screen
    score.observe(screen!) { label, change in label.text = "\(change.newValue)" }
    score.observe(sentinel) { sentinel, change in sentinel.record(change.newValue) }
    onAnotherThread {
      for value in 1...20 { score.value = value }
    }
    screen = nil
    #expect(weakScreen == nil, "the subscription never kept its owner")
    await sentinel.wait(for: 20)
    #expect(score.observerCount == 1)
    #expect(score._storedSubscriptionCount == 1, "the ended subscription was taken out")
  }

  @Test(".initial from the main actor while another delivery is under way comes later, first")
  func initialDuringADeliveryComesFirstAfterReturn() {
    let score = Observable(1)
    var log: [String] = []
    var tokens: [ObservationToken] = []
    tokens.append(
      score.observe { change in
        log.append("first \(change.newValue)")
        guard change.newValue == 2 else { return }
        tokens.append(score.observe(options: .initial) { log.append("late \($0.newValue)") })
        log.append("observe returned")
        score.value = 3
      })
    score.value = 2
    #expect(log == ["first 2", "observe returned", "late 2", "first 3", "late 3"])
  }

  @Test("a main-actor handler may set the value: the set is queued, and delivered in order")
  func reentrantSetFromAMainActorHandler() {
    let score = Observable(0)
    var log: [String] = []
    let corrector = score.observe { change in
      log.append("corrector \(change.newValue)")
      if change.newValue == 1 { score.value = 2 }
    }
    let display = score.observe { log.append("display \($0.newValue)") }
    score.value = 1
    #expect(log == ["corrector 1", "display 1", "corrector 2", "display 2"])
    withExtendedLifetime((corrector, display)) {}
  }
}

/// Values set by several threads, in the order they were set: each set is made under the lock.
final class OrderLog: @unchecked Sendable {
  // Unchecked: `recorded` is read and written only under `lock`.
  private let lock = NSLock()
  private var recorded: [Int] = []

  var values: [Int] { lock.withLock { recorded } }

  /// Sets the value that `value` gives, with `set`, and records it, both under the lock.
  func record(_ value: () -> Int, setting set: (Int) -> Void) {
    lock.withLock {
      let value = value()
      set(value)
      recorded.append(value)
    }
  }
}

/// Subscribes from code that is not isolated to any actor, so the handler is called on the
/// delivering thread, at once.
nonisolated func observeOutsideAnyActor(
  _ observable: Observable<Int>, _ record: @escaping @Sendable (Int) -> Void
) -> ObservationToken {
  observable.observeOnAnyThread { change in record(change.newValue) }
}
