import Foundation
import Support
import Synchronization
import Testing

#if TUNED
  import Stage5Tuned
#else
  import Stage5Concurrency
#endif

// Stage 5's promises about *when*, under generated programs that link observables: handlers
// that set this observable or another (a clamp, two-way links, chains of three), handlers that
// wait for a thread that sets, subscriptions with `.initial` made in handlers, main-actor
// observers slower than the setters, streams with each buffering policy, and setters on
// threads, tasks and the main actor. Each program is generated from its seed and runs a fixed
// number of sets, so what it checks never depends on how busy the machine is:
//
// - no deadlock, no call held: a watchdog fails a program that makes no delivery for
//   `stallLimit` while changes are queued, and a set that has not returned after it. A setter
//   kept off its thread by the rest of the suite (the main actor, the threads tasks share) is
//   neither, and is waited for;
// - no call held up by others: a set delivers at most `workBound` changes of its observable;
// - every observer of each observable sees a chain of its values, once each, in order, and
//   ends on the latest; a subscription made in a handler starts with its initial value;
// - handlers of one observable never run two at a time;
// - a queue holds no more than the backlog limit, plus one change a setter, plus one for each
//   wait that ran out of time, plus what the main actor and handlers set and the initial values
//   subscribers ask for (they never wait).

/// The most changes of one observable a call may deliver: those queued when it took the turn
/// (the backlog limit at most), then those its own handlers set (as many again), and a few
/// initial values.
private let workBound = 2 * Observable<Int>.backlogLimit + 16

/// How long a program may go without a single delivery before the watchdog calls it a
/// deadlock: far longer than any pause a busy machine makes, so it stops only a hang.
private let stallLimit: Duration = .seconds(20)

/// What a link does: a handler of one observable that sets another, or this one.
private enum Link: CustomStringConvertible {
  /// Sets its own observable back to 100 when it sees more: chapter 5's clamp.
  case clamp(Int)
  /// Sets `to` to the value plus one when the value is even and under 100: two of them, or
  /// three, make a two-way link or a chain, and each stops after a hop, since an odd value
  /// passes on nothing (and a clamp's 100 neither).
  case passOn(from: Int, to: Int)
  /// When the value is 25 more than a multiple of 50, starts a thread that sets `to` to 1,001,
  /// and waits for it (1,001 is clamped to 100, which triggers nothing).
  case waitsForSetter(from: Int, to: Int)
  /// When the value is a multiple of 5, subscribes to `to` with `.initial`, dropping the
  /// subscription it made before.
  case subscribesWithInitial(from: Int, to: Int)

  var description: String {
    switch self {
    case .clamp(let index): "#\(index) clamps at 100"
    case .passOn(let from, let to): "#\(from) passes even values on to #\(to)"
    case .waitsForSetter(let from, let to): "#\(from) waits for a thread that sets #\(to)"
    case .subscribesWithInitial(let from, let to): "#\(from) subscribes to #\(to) with .initial"
    }
  }
}

/// Where a setter runs.
private enum SetterKind: String, CaseIterable {
  case thread = "a thread"
  case task = "a task"
  case mainActor = "the main actor"
}

/// A generated program.
private struct LinkedProgram: CustomStringConvertible {
  let seed: UInt64
  let observableCount: Int
  let links: [Link]
  /// Each setter: where it runs, which observable it sets, and how many times.
  let setters: [(kind: SetterKind, target: Int, sets: Int)]
  /// The observable a main-actor observer watches, if one does, and how long it works.
  let mainActorObserver: (target: Int, work: Duration)?
  /// How long each observable's first observer works, on the delivering thread.
  let observerWork: Duration
  /// Whether the first observable is read as three streams, one per buffering policy.
  let streams: Bool
  /// How many times a thread subscribes with `.initial` and cancels at once, racing the rest.
  let cancels: Int

  init(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    self.seed = seed
    let count = Int.random(in: 1...3, using: &random)
    observableCount = count
    var links: [Link] = []
    for _ in 0..<Int.random(in: 1...4, using: &random) {
      let from = Int.random(in: 0..<count, using: &random)
      let to = Int.random(in: 0..<count, using: &random)
      switch Int.random(in: 0..<4, using: &random) {
      case 0: links.append(.clamp(from))
      case 1: links.append(.passOn(from: from, to: to))
      case 2: links.append(.waitsForSetter(from: from, to: to))
      default: links.append(.subscribesWithInitial(from: from, to: to))
      }
    }
    self.links = links
    setters = (0..<Int.random(in: 1...4, using: &random)).map { _ in
      (
        SetterKind.allCases.randomElement(using: &random)!,
        Int.random(in: 0..<count, using: &random), Int.random(in: 100...400, using: &random)
      )
    }
    mainActorObserver =
      Bool.random(using: &random)
      ? (
        Int.random(in: 0..<count, using: &random),
        .microseconds(Int.random(in: 0...50, using: &random))
      )
      : nil
    observerWork = .microseconds([0, 0, 5, 20].randomElement(using: &random)!)
    streams = Bool.random(using: &random)
    cancels = Bool.random(using: &random) ? Int.random(in: 50...200, using: &random) : 0
  }

  /// The shape of the reports that found the old design's calls held up: a clamp, a handler
  /// that works 20 µs, and four threads setting values from 0 to 200.
  init(clampedBy threads: Int, sets: Int) {
    seed = 0
    observableCount = 1
    links = [.clamp(0)]
    setters = (0..<threads).map { _ in (.thread, 0, sets) }
    mainActorObserver = nil
    observerWork = .microseconds(20)
    streams = false
    cancels = 0
  }

  var description: String {
    var parts = ["seed \(seed): \(observableCount) observable(s)"]
    parts.append(links.map(\.description).joined(separator: ", "))
    parts.append(
      "setting "
        + setters.map { "#\($0.target) \($0.sets) times on \($0.kind.rawValue)" }
        .joined(separator: ", "))
    if let observer = mainActorObserver {
      parts.append("a main-actor observer of #\(observer.target) working \(observer.work)")
    }
    if observerWork > .zero { parts.append("each first observer working \(observerWork)") }
    if streams { parts.append("#0 read as three streams") }
    if cancels > 0 { parts.append("a thread subscribing and cancelling \(cancels) times") }
    return parts.joined(separator: "; ")
  }
}

/// A log behind an `NSLock`, which ThreadSanitizer sees (it cannot see inside a `Mutex`).
private final class Record<Entry: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Entry] = []

  var entries: [Entry] { lock.withLock { stored } }

  func append(_ entry: Entry) { lock.withLock { stored.append(entry) } }
}

// `DeliveryCounter`, `spin(for:)` and `isChain(_:)` are LivenessTests'.

/// Everything one observable of a program is watched by.
private final class Watched: @unchecked Sendable {
  let observable = Observable(0)
  let steady = Record<Change<Int>>()
  let counts = DeliveryCounter()
  let overlaps = Atomic(0)
  let running = Atomic(0)
  let longestQueue = Atomic(0)
  let mainActorLog = Record<Change<Int>>()
  var tokens: [ObservationToken] = []
}

/// When each setter's set under way began, in nanoseconds of `ContinuousClock` since the
/// program started; 0 between sets.
private final class CallsUnderWay: @unchecked Sendable {
  // Behind an `NSLock`, which ThreadSanitizer sees.
  private let lock = NSLock()
  private var starts: [Int]

  init(count: Int) { starts = Array(repeating: 0, count: count) }

  func begin(_ setter: Int, at now: Int) { lock.withLock { starts[setter] = now } }

  func end(_ setter: Int) { lock.withLock { starts[setter] = 0 } }

  /// The setter whose set began longest ago, and when; `nil` when none is under way.
  var oldest: (setter: Int, start: Int)? {
    lock.withLock {
      starts.indices.map { ($0, starts[$0]) }.filter { $0.1 != 0 }.min { $0.1 < $1.1 }
    }
  }
}

/// A count any thread may add to.
private final class Counter: Sendable {
  private let count = Atomic(0)

  var value: Int { count.load(ordering: .acquiring) }

  func add() { count.add(1, ordering: .acquiringAndReleasing) }
}

/// A main-actor owner for the main-actor observer.
@MainActor private final class ShownValue: Sendable {
  var shown = 0
}

/// Runs `program` and returns what broke a promise, in words; empty when nothing did.
private func problems(running program: LinkedProgram) async -> [String] {
  let watched = (0..<program.observableCount).map { _ in Watched() }
  let deliveriesMade = Counter()
  let problems = Record<String>()
  let innerSubscriptions = Record<Record<Change<Int>>>()

  // The steady observer of each observable comes first: it counts, checks overlaps and logs.
  for item in watched {
    item.tokens.append(
      item.observable.observeOnAnyThread { change in
        if item.running.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
          item.overlaps.add(1, ordering: .relaxed)
        }
        item.counts.count()
        deliveriesMade.add()
        item.longestQueue.max(item.observable._queuedCount, ordering: .relaxed)
        spin(for: program.observerWork)
        item.steady.append(change)
        item.running.subtract(1, ordering: .acquiringAndReleasing)
      })
  }
  for link in program.links {
    switch link {
    case .clamp(let index):
      let observable = watched[index].observable
      watched[index].tokens.append(
        observable.observeOnAnyThread { change in
          if change.newValue > 100 { observable.value = 100 }
        })
    case .passOn(let from, let to):
      let target = watched[to].observable
      watched[from].tokens.append(
        watched[from].observable.observeOnAnyThread { change in
          if change.newValue < 100 && change.newValue.isMultiple(of: 2) {
            target.value = change.newValue + 1
          }
        })
    case .waitsForSetter(let from, let to):
      let target = watched[to].observable
      watched[from].tokens.append(
        watched[from].observable.observeOnAnyThread { change in
          guard change.newValue % 50 == 25 else { return }
          let done = DispatchSemaphore(value: 0)
          Thread.detachNewThread {
            target.value = 1_001
            done.signal()
          }
          if done.wait(timeout: .now() + .seconds(30)) == .timedOut {
            problems.append("a handler of #\(from) waited 30 s for a thread that sets #\(to)")
          }
        })
    case .subscribesWithInitial(let from, let to):
      let target = watched[to].observable
      let held = Mutex<ObservationToken?>(nil)
      watched[from].tokens.append(
        watched[from].observable.observeOnAnyThread { change in
          guard change.newValue.isMultiple(of: 5) else { return }
          let log = Record<Change<Int>>()
          innerSubscriptions.append(log)
          let token = target.observeOnAnyThread(options: .initial) { log.append($0) }
          // The one it replaces is released here, with the lock let go.
          let replaced = held.withLock { held in
            defer { held = token }
            return held
          }
          replaced?.cancel()
        })
    }
  }
  let screen = await MainActor.run { ShownValue() }
  if let observer = program.mainActorObserver {
    let item = watched[observer.target]
    await MainActor.run {
      item.observable.observe(screen) { screen, change in
        spin(for: observer.work)
        screen.shown = change.newValue
        item.mainActorLog.append(change)
      }
    }
  }

  // Streams of the first observable, one per buffering policy, read once everything is set.
  let first = watched[0].observable
  let streams =
    program.streams
    ? [
      first.values, first.values(bufferingPolicy: .bufferingNewest(1)),
      first.values(bufferingPolicy: .bufferingOldest(4)),
    ] : []

  // A thread that subscribes with `.initial` and cancels, racing the setters and the links.
  let cancellerDone = Counter()
  if program.cancels > 0 {
    Thread.detachNewThread {
      for index in 0..<program.cancels {
        let log = Record<Change<Int>>()
        innerSubscriptions.append(log)
        let token = watched[index % watched.count].observable.observeOnAnyThread(
          options: .initial
        ) { log.append($0) }
        if index.isMultiple(of: 3) { sched_yield() }
        token.cancel()
      }
      cancellerDone.add()
    }
  } else {
    cancellerDone.add()
  }

  // The setters, each a fixed number of sets; each set's deliveries of its own observable,
  // made on its own thread, are counted.
  let busiest = Record<String>()
  let finished = Counter()
  let underWay = CallsUnderWay(count: program.setters.count)
  let clock = ContinuousClock()
  let programStart = clock.now
  let nanoseconds: @Sendable () -> Int = {
    let elapsed = (clock.now - programStart).components
    return Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000) + 1
  }
  for (index, setter) in program.setters.enumerated() {
    let item = watched[setter.target]
    let setOnce: @Sendable (inout SeededRandom) -> Void = { random in
      let before = item.counts.onThisThread
      underWay.begin(index, at: nanoseconds())
      item.observable.value = Int.random(in: 0...200, using: &random)
      underWay.end(index)
      let made = item.counts.onThisThread - before
      if made > workBound {
        busiest.append("a set of #\(setter.target) on \(setter.kind.rawValue) made \(made)")
      }
    }
    let seed = program.seed &* 31 &+ UInt64(index)
    switch setter.kind {
    case .thread, .task:
      let body: @Sendable () -> Void = {
        var random = SeededRandom(seed: seed)
        for _ in 0..<setter.sets { setOnce(&random) }
        finished.add()
      }
      if setter.kind == .thread { Thread.detachNewThread(body) } else { Task.detached { body() } }
    case .mainActor:
      // As an app's main actor does, it lets other work in between its sets: a loop that
      // never does holds back every delivery waiting for the main actor (the liveness tests
      // run that one).
      Task { @MainActor in
        var random = SeededRandom(seed: seed)
        for _ in 0..<setter.sets {
          setOnce(&random)
          await Task.yield()
        }
        finished.add()
      }
    }
  }

  // The watchdog: the program must keep delivering while anything is queued, and no set may
  // stay under way for `stallLimit`, until every setter is done; then everything set must be
  // delivered.
  var lastCount = -1
  var lastProgress = clock.now
  let limit = Int(stallLimit.components.seconds) * 1_000_000_000
  while finished.value < program.setters.count || cancellerDone.value < 1 {
    let count = deliveriesMade.value
    let queued = watched.map(\.observable._queuedCount)
    if count != lastCount || queued.allSatisfy({ $0 == 0 }) {
      (lastCount, lastProgress) = (count, clock.now)
    } else if clock.now - lastProgress > stallLimit {
      return [
        "\(program): no delivery for \(stallLimit) with changes queued (\(queued)) and "
          + "\(finished.value) of \(program.setters.count) setters done: a deadlock"
      ]
    }
    if let oldest = underWay.oldest, nanoseconds() - oldest.start > limit {
      return [
        "\(program): a set on \(program.setters[oldest.setter].kind.rawValue) has not returned "
          + "after \(stallLimit): a call held"
      ]
    }
    try? await Task.sleep(for: .milliseconds(5))
  }
  let drained = await withTaskGroup(of: Bool.self) { group in
    group.addTask {
      // Links set other observables from handlers: wait until nothing moves any more.
      var quiet = 0
      while quiet < 2 {
        let before = deliveriesMade.value
        for item in watched { await item.observable.waitUntilDelivered() }
        quiet = deliveriesMade.value == before ? quiet + 1 : 0
      }
      return true
    }
    group.addTask {
      try? await Task.sleep(for: stallLimit)
      return false
    }
    let first = await group.next()!
    group.cancelAll()
    return first
  }
  guard drained else {
    return ["\(program): waitUntilDelivered() did not return within \(stallLimit)"]
  }

  var found = problems.entries.map { "\(program): \($0)" }
  found += busiest.entries.prefix(1).map { "\(program): \($0), more than \(workBound)" }
  for (index, item) in watched.enumerated() {
    let value = item.observable.value
    let log = item.steady.entries
    if item.overlaps.load(ordering: .relaxed) > 0 {
      found.append("\(program): two handlers of #\(index) ran at once")
    }
    if log.first.map({ $0.oldValue != 0 }) == true || !isChain(log)
      || (log.last?.newValue ?? 0) != value
    {
      found.append(
        "\(program): #\(index)'s observer saw \(log.count) changes that are not one chain "
          + "ending on its value \(value)")
    }
    if program.mainActorObserver?.target == index {
      let mainLog = item.mainActorLog.entries
      let shown = await screen.shown
      if !isChain(mainLog) || shown != value {
        found.append(
          "\(program): the main-actor observer of #\(index) shows \(shown), not \(value), "
            + "or missed a change")
      }
    }
    let setterCount = program.setters.count { $0.target == index }
    let mainActorSets = program.setters.contains { $0.target == index && $0.kind == .mainActor }
    let setByHandlers = program.links.contains {
      switch $0 {
      case .clamp(let target): target == index
      case .passOn(_, let to), .waitsForSetter(_, let to), .subscribesWithInitial(_, let to):
        to == index
      }
    }
    // Each initial value the cancelling thread asks for is queued without waiting, as a
    // subscriber never waits.
    let bound =
      Observable<Int>.backlogLimit + setterCount + 1 + item.observable._waitsOutOfTime
      + program.cancels
    if !mainActorSets && !setByHandlers && item.longestQueue.load(ordering: .relaxed) > bound {
      found.append(
        "\(program): #\(index)'s queue held \(item.longestQueue.load(ordering: .relaxed)) "
          + "changes, more than \(bound)")
    }
    withExtendedLifetime(item.tokens) {}
  }
  if !streams.isEmpty {
    let expected = [0] + watched[0].steady.entries.map(\.newValue)
    var every = streams[0].makeAsyncIterator()
    var received: [Int] = []
    for _ in expected.indices { received.append(await every.next() ?? -1) }
    if received != expected {
      found.append("\(program): the stream of every value did not give the observer's values")
    }
    var newest = streams[1].makeAsyncIterator()
    if await newest.next() != expected.last {
      found.append("\(program): the newest-only stream did not end on the latest value")
    }
    var oldest = streams[2].makeAsyncIterator()
    var kept: [Int] = []
    for _ in 0..<min(4, expected.count) { kept.append(await oldest.next() ?? -1) }
    if kept != Array(expected.prefix(4)) {
      found.append("\(program): the oldest-four stream did not keep the first four values")
    }
  }
  for log in innerSubscriptions.entries {
    let entries = log.entries
    if !entries.isEmpty && (entries.first?.kind != .initial || !isChain(entries)) {
      found.append("\(program): a subscription made in a handler did not start with .initial")
    }
  }
  withExtendedLifetime(screen) {}
  return found
}

@Suite("Stage 5 under generated programs of linked observables: no deadlock, no call held")
struct ScheduleTests {
  @Test(
    "40 generated programs: handlers that set, wait for setters and subscribe, main-actor observers; each ends on the latest"
  )
  func linkedPrograms() async {
    var found: [String] = []
    for seed in 1...40 as ClosedRange<UInt64> {
      found += await problems(running: LinkedProgram(seed: seed))
    }
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  @Test("a clamp, a 20 µs handler and four threads setting: no set delivers what the others set")
  func clampUnderFourSetters() async {
    let found = await problems(running: LinkedProgram(clampedBy: 4, sets: 3_000))
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }
}
