import Foundation
import ObserverScenarios
import Support
import Synchronization

// The checks of exercise 9 that its generated programs, on one thread, cannot make: threads,
// locks held.

// MARK: - Exercise 9

/// An owner a thread may hand to the observable, in exercise 9's thread checks.
final class ThreadCheckOwner: Sendable {
  let index: Int
  init(_ index: Int) { self.index = index }
}

/// An observable handed to other threads: the check is what finds out whether that is safe.
struct SharedObservable<Observed>: @unchecked Sendable {
  let observable: Observed
}

extension SharedObservable where Observed: SendableOptionsObservable {
  /// Adds `owner`, asking for new values, with `body` run on each; with `removeIfExists`,
  /// replacing its callbacks.
  func add(
    _ owner: ThreadCheckOwner, removeIfExists: Bool = true,
    _ body: @escaping @Sendable (Int) -> Void = { _ in }
  ) {
    observable.addObserver(owner, removeIfExists: removeIfExists, options: .new) { value, _ in
      body(value)
    }
  }
}

extension SendableOptionsAdapter {
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .threadsShareIt: threadsShareIt()
    case .closureUsesTheObservable: closureUsesTheObservable()
    case .otherThreadDuringClosure: otherThreadDuringClosure()
    case .initialCallWithNoLockHeld: initialCallWithNoLockHeld()
    case .generatedSendableOnOneThread: GeneratedPrograms.check(.sendable) { programTarget() }
    case .addedWhileAnotherThreadSets: addedWhileAnotherThreadSets()
    case .capturesFreedWithNoLockHeld: capturesFreedWithNoLockHeld()
    default: notRunHere(check)
    }
  }

  /// How many threads add, remove and set at once, how many observers each adds, how many it
  /// handles between two meetings of the threads (``inLockstep(_:bursts:_:)``), and how many
  /// rounds, each on a fresh observable, the check runs: the same on every machine.
  private static var threads: Int { 2 }
  private static var perThread: Int { 200 }
  private static var perBurst: Int { 5 }
  private static var rounds: Int { 8 }

  /// A flaw when `counts` is not exactly one call for each of `expected`.
  private static func check(_ counts: [Int: Int], expected: some Collection<Int>, _ steps: String)
    -> Outcome?
  {
    let missed = expected.count { counts[$0] == nil }
    let extra = counts.keys.count { !expected.contains($0) }
    let twice = counts.values.count { $0 > 1 }
    let found = [
      missed > 0 ? "\(grouped(missed)) of the \(grouped(expected.count)) were not called" : nil,
      extra > 0 ? "\(grouped(extra)) removed ones were called" : nil,
      twice > 0 ? "\(grouped(twice)) were called more than once" : nil,
    ].compactMap { $0 }
    return found.isEmpty ? nil : .flaw("\(steps): a set then found \(listed(found))")
  }

  /// A flaw when `observerCount` is not `expected` after `steps`.
  private static func count(_ observable: Observable, _ expected: Int, _ steps: String) -> Outcome?
  {
    let count = observable.observerCount
    return count == expected
      ? nil
      : .flaw(
        "\(steps): observerCount then said \(grouped(count)), not \(grouped(expected))")
  }

  private static func threadsShareIt() -> Outcome {
    let progress = GeneratedPrograms.progress
    // Rounds on fresh observables: a race that one round misses, one of the others shows.
    for round in 0..<rounds {
      progress?(round + 1, rounds)
      if let flaw = threadsShareItOnce() { return flaw }
    }
    return .holds(
      "\(threads) threads added \(perThread) observers each at once, a set removed one "
        + "thread's, they removed half the rest while setting, then added the rest again at "
        + "once, and one of 4 again at once \(grouped(addedAgain)) times; \(rounds) rounds: no "
        + "observer lost, left behind or called twice")
  }

  /// One round of ``threadsShareIt()``: what went wrong, or `nil`.
  private static func threadsShareItOnce() -> Outcome? {
    let (threads, perThread, perBurst) = (threads, perThread, perBurst)
    let bursts = perThread / perBurst
    let shared = SharedObservable(observable: Observable(0))
    let counts = Recording<Int>()
    let owners = (0..<threads * perThread).map(ThreadCheckOwner.init)
    /// The observers thread `thread` adds: its own.
    let added: @Sendable (_ thread: Int) -> Range<Int> = {
      ($0 * perThread)..<(($0 + 1) * perThread)
    }
    // R, added first, so called first: for 2, it removes every observer the first thread added.
    let remover = ThreadCheckOwner(-1)
    shared.add(remover) { value in
      guard value == 2 else { return }
      for index in added(0) { shared.observable.removeObserver(owners[index]) }
    }
    inLockstep(threads, bursts: bursts) { thread, burst in
      let first = thread * perThread + burst * perBurst
      for index in first..<(first + perBurst) {
        shared.add(owners[index], removeIfExists: false) { _ in counts.append(index) }
      }
    }
    let all = "\(threads) threads each added \(perThread) observers at once"
    shared.observable.value = 1
    if let flaw = check(counts.takeCounts(), expected: 0..<(threads * perThread), all) {
      return flaw
    }
    if let flaw = count(shared.observable, threads * perThread + 1, all + ", beside R") {
      return flaw
    }
    // The set of 2 calls every callback R did not remove before its turn, once each: each is
    // told apart from every other by what the observable stored for it, even those two
    // threads added at once.
    shared.observable.value = 2
    let removedByR =
      "\(all), beside R; in a set, R's closure, called first, removed the first thread's"
    let others = (1..<threads).flatMap(added)
    if let flaw = check(counts.takeCounts(), expected: others, removedByR) {
      return flaw.detail.contains("removed ones were called")
        ? .flaw(
          flaw.detail
            + ", after R removed them: a callback is looked up by what tells it apart, and two "
            + "added at once were told apart by nothing (an id counted outside the lock?)")
        : flaw
    }
    // Each thread removes half of its share of the rest, setting the value every few removals.
    let kept = Array(others.dropFirst(others.count / 2))
    let removedHere = others.prefix(others.count / 2)
    let share = removedHere.count / threads
    inLockstep(threads, bursts: share / perBurst) { thread, burst in
      let first = removedHere.startIndex + thread * share + burst * perBurst
      for index in removedHere[first..<(first + perBurst)] {
        shared.observable.removeObserver(owners[index])
      }
      if burst % 4 == 3 { shared.observable.value = 10 + burst }
    }
    _ = counts.take()
    shared.observable.value = 3
    let removedThenSet =
      "\(removedByR); then \(threads) threads each removed \(grouped(share)) of the rest at once, "
      + "setting the value every \(4 * perBurst)"
    if let flaw = check(counts.takeCounts(), expected: kept, removedThenSet) { return flaw }
    // Every thread adds the kept observers again at once, in the same order, each add
    // replacing the callbacks of the last: the threads meet before each.
    inLockstep(threads, bursts: kept.count) { _, place in
      let index = kept[place]
      shared.add(owners[index]) { _ in counts.append(index) }
    }
    _ = counts.take()
    shared.observable.value = 4
    let again =
      "\(threads) threads each added the \(grouped(kept.count)) observers kept again at once, "
      + "replacing their callbacks"
    if let flaw = check(counts.takeCounts(), expected: kept, again) { return flaw }
    if let flaw = count(shared.observable, kept.count + 1, again + ", beside R") {
      return .flaw(
        flaw.detail + ": an observer added again must replace its callbacks, removed and added "
          + "in one locked section")
    }
    withExtendedLifetime((owners, remover)) {}
    return addedAgainAtOnce()
  }

  /// How many times, in a round, two threads add one of four observers again at once.
  private static var addedAgain: Int { 800 }

  /// Two threads add the same observer again at once, one of four, again and again, on an
  /// observable that holds only those four: after each time, observerCount must still say 4.
  /// The second thread adds a moment after the first, a longer moment each time, so that the
  /// adds meet at every point of them.
  private static func addedAgainAtOnce() -> Outcome? {
    let shared = SharedObservable(observable: Observable(0))
    let owners = (0..<4).map(ThreadCheckOwner.init)
    let counts = Recording<Int>()
    for (index, owner) in owners.enumerated() { shared.add(owner) { _ in counts.append(index) } }
    let wrongCounts = Recording<Int>()
    let moments = Atomic<Int>(0)
    // Odd bursts: the first thread reads observerCount while the other waits.
    inLockstep(2, bursts: 2 * addedAgain) { thread, burst in
      let time = burst / 2
      guard burst % 2 == 0 else {
        let count = thread == 0 ? shared.observable.observerCount : owners.count
        if count != owners.count { wrongCounts.append(count) }
        return
      }
      for _ in 0..<(time % 64 * 4 * thread) { _ = moments.load(ordering: .relaxed) }
      let index = time % owners.count
      shared.add(owners[index]) { _ in counts.append(index) }
    }
    let steps =
      "2 threads added one of 4 observers again at once, with removeIfExists, "
      + "\(grouped(addedAgain)) times"
    if let count = wrongCounts.all.first {
      return .flaw(
        "\(steps): observerCount then said \(count), not 4: an observer added again must "
          + "replace its callbacks, removed and added in one locked section")
    }
    shared.observable.value = 1
    if let flaw = check(counts.takeCounts(), expected: owners.indices, steps) { return flaw }
    return withExtendedLifetime(owners) { nil }
  }

  /// Another thread, sent to use the observable: whether it got through in time, each time.
  /// A lock held by the thread that sent it, even a recursive one, makes it wait; it gets
  /// through once the lock is let go, and is then waited for, so that nothing is left running.
  private final class Probe: Sendable {
    /// How long the sending thread waits for it once it runs: what it does takes microseconds
    /// unless a lock holds it, so this only tells a thread that waits for a lock for ever.
    static var patience: Double { 2 }
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let gotThrough = Recording<Bool>()

    /// Starts a thread that runs `use`, waits until it runs, however long a busy machine takes
    /// to run it, then waits for it `patience` at most.
    func send(_ use: @escaping @Sendable () -> Void) {
      Thread { [started, finished] in
        started.signal()
        use()
        finished.signal()
      }.start()
      started.wait()
      gotThrough.append(finished.wait(timeout: .now() + Self.patience) == .success)
    }

    /// Sends a thread to read the value and remove an observer never added, as a screen's
    /// cleanup might.
    func send(to shared: SharedObservable<Observable>) {
      let stranger = ThreadCheckOwner(-1)
      send {
        _ = shared.observable.value
        shared.observable.removeObserver(stranger)
      }
    }

    /// Whether the last thread sent since the last call got through in time; `nil` when none
    /// was sent.
    func result() -> Bool? {
      let last = gotThrough.take().last
      if last == false { finished.wait() }
      return last
    }
  }

  /// The flaw when a ``Probe`` sent to read and remove waited in vain while `what`.
  private static func lockHeld(_ what: String) -> Outcome {
    .flaw(
      "\(what): another thread waited \(IsolatedGrading.seconds(Probe.patience)) to read the "
        + "value and remove an observer, in vain: a lock was held")
  }

  private static func otherThreadDuringClosure() -> Outcome {
    let shared = SharedObservable(observable: Observable(0))
    let owners = (0..<2).map(ThreadCheckOwner.init)
    let probe = Probe()
    // A's closure for 1 has another thread read the value and add B, and waits for it.
    shared.add(owners[0]) { [owners] value in
      guard value == 1 else { return }
      probe.send {
        _ = shared.observable.value
        shared.add(owners[1])
      }
    }
    shared.observable.value = 1
    let waitedInVain = probe.result() == false
    return withExtendedLifetime(owners) {
      waitedInVain
        ? .flaw(
          "A's closure for 1 waited \(IsolatedGrading.seconds(Probe.patience)) for another "
            + "thread to read the value and add an observer, in vain: a lock was held while the "
            + "closure ran")
        : .holds("while A's closure for 1 ran, another thread read the value and added an observer")
    }
  }

  private static func initialCallWithNoLockHeld() -> Outcome {
    let shared = SharedObservable(observable: Observable(5))
    let owner = ThreadCheckOwner(0)
    let probe = Probe()
    shared.observable.addObserver(
      owner, removeIfExists: true, options: Observable.Options.initial.union(.new)
    ) { _, option in
      if option == .initial { probe.send(to: shared) }
    }
    let last = probe.result()
    return withExtendedLifetime(owner) {
      switch last {
      case nil: .flaw("A was added with .initial: its .initial call never came")
      case false?: lockHeld("A's .initial call ran")
      case true?:
        .holds("while A's .initial call ran, another thread read the value and removed an observer")
      }
    }
  }

  /// Captured by one closure only, and so freed with it: its deinit runs `freed`.
  private final class Captured: Sendable {
    let freed: @Sendable () -> Void
    init(_ freed: @escaping @Sendable () -> Void) { self.freed = freed }
    deinit { freed() }
  }

  private static func capturesFreedWithNoLockHeld() -> Outcome {
    let shared = SharedObservable(observable: Observable(0))
    let probe = Probe()
    // A closure that captures an object whose deinit probes the observable, and waits for it.
    let closure: () -> @Sendable (Int) -> Void = {
      let captured = Captured { probe.send(to: shared) }
      return { _ in withExtendedLifetime(captured) {} }
    }
    let (a, b) = (ThreadCheckOwner(0), ThreadCheckOwner(1))
    var c: ThreadCheckOwner? = ThreadCheckOwner(2)
    let ways: [(done: String, freeing: () -> Void)] = [
      (
        "removeObserver(A) freed what A's closure captured", { shared.observable.removeObserver(a) }
      ),
      (
        "adding B again, with removeIfExists, freed what B's first closure captured",
        { shared.add(b) }
      ),
      (
        "a set after C was released freed what C's closure captured",
        {
          c = nil
          shared.observable.value = 1
        }
      ),
    ]
    shared.add(a, closure())
    shared.add(b, closure())
    shared.add(c!, closure())
    for (done, freeing) in ways {
      freeing()
      switch probe.result() {
      case nil:
        return .flaw("\(done.replacing(" freed", with: " did not free")): it is kept")
      case false?:
        return lockHeld(done)
      case true?: continue
      }
    }
    // D released: any call may drop its dead callback, and the next set must. Whichever frees
    // what D's closure captured must have let the lock go.
    var d: ThreadCheckOwner? = ThreadCheckOwner(3)
    let (e, stranger) = (ThreadCheckOwner(4), ThreadCheckOwner(5))
    shared.add(d!, closure())
    d = nil
    let calls: [(call: String, run: () -> Void)] = [
      ("adding E", { shared.add(e) }),
      ("removing an observer never added", { shared.observable.removeObserver(stranger) }),
      ("reading observerCount", { _ = shared.observable.observerCount }),
      ("a set", { shared.observable.value = 2 }),
    ]
    var freedBy: String?
    for (call, run) in calls where freedBy == nil {
      run()
      switch probe.result() {
      case nil: continue
      case false?:
        return lockHeld("after D was released, \(call) freed what D's closure captured")
      case true?: freedBy = call
      }
    }
    guard let freedBy else {
      return .flaw("after D was released, a set did not free what D's closure captured: it is kept")
    }
    return withExtendedLifetime((a, b, e)) {
      .holds(
        "what a closure captured was freed with no lock held when it was removed, replaced, "
          + "or its observer released (by \(freedBy), after D's)")
    }
  }

  private static func closureUsesTheObservable() -> Outcome {
    let shared = SharedObservable(observable: Observable(0))
    let counts = Recording<Int>()
    let owners = (0..<4).map(ThreadCheckOwner.init)
    let readInside = Recording<Int>()
    // A (0) reads the value, adds D (3), removes B (1) and sets 2, all inside its call for 1.
    shared.add(owners[0]) { [owners] value in
      counts.append(0)
      guard value == 1 else { return }
      readInside.append(shared.observable.value)
      shared.add(owners[3]) { _ in counts.append(3) }
      shared.observable.removeObserver(owners[1])
      shared.observable.value = 2
    }
    for index in 1...2 {
      shared.add(owners[index]) { _ in counts.append(index) }
    }
    let steps = "A read the value, added D, removed B and set 2, inside its closure for 1"
    shared.observable.value = 1
    let read = readInside.all.last
    if read != 1 {
      return .flaw("\(steps): the value it read was \(read.map(String.init) ?? "nothing"), not 1")
    }
    _ = counts.take()
    shared.observable.value = 3
    let got = counts.takeCounts()
    let names = ["A", "B", "C", "D"]
    let called = got.keys.sorted().map { names[$0] }
    if called != ["A", "C", "D"] {
      return .flaw("\(steps): set 3 then called \(listed(called)), not A, C and D")
    }
    return withExtendedLifetime(owners) {
      .holds("\(steps): no lock was held, and set 3 called A, C and D")
    }
  }
}
