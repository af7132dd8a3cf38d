import Foundation
import ObserverScenarios
import Support

// The checks of exercise 9 that its generated programs, on one thread, cannot make: threads,
// locks held.

// MARK: - Exercise 9

/// An owner a thread may hand to the observable.
final class SendableOwner: Sendable {
  let index: Int
  init(_ index: Int) { self.index = index }
}

/// An observable handed to other threads: the check is what finds out whether that is safe.
struct SharedObservable<Observed>: @unchecked Sendable {
  let observable: Observed
}

extension SharedObservable where Observed: SendableOptionsObservable {
  /// Adds `owner`, asking for new values, with `body` run on each.
  func add(_ owner: SendableOwner, _ body: @escaping @Sendable (Int) -> Void = { _ in }) {
    observable.addObserver(owner, removeIfExists: true, options: .new) { value, _ in body(value) }
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

  /// How many threads, and observers per thread, the stress check uses.
  private static var threads: Int { 4 }
  private static var perThread: Int { 100 }
  private static var rounds: Int { 3 }

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

  private static func threadsShareIt() -> Outcome {
    // Several rounds, each on a fresh observable: a race that one round misses, one of the
    // others shows.
    for _ in 0..<rounds {
      let shared = SharedObservable(observable: Observable(0))
      let counts = Recording<Int>()
      let owners = (0..<threads * perThread).map(SendableOwner.init)
      let perThread = perThread
      onThreads(threads) { thread in
        for owner in owners[(thread * perThread)..<((thread + 1) * perThread)] {
          let index = owner.index
          shared.add(owner) { _ in counts.append(index) }
        }
      }
      let added = "\(threads) threads each added \(perThread) observers at once"
      shared.observable.value = 1
      if let flaw = check(counts.takeCounts(), expected: 0..<(threads * perThread), added) {
        return flaw
      }
      if shared.observable.observerCount != threads * perThread {
        return .flaw(
          "\(added): observerCount then said \(grouped(shared.observable.observerCount)), "
            + "not \(grouped(threads * perThread))")
      }
      // Each thread removes the first half of its observers while it sets the value.
      let half = perThread / 2
      onThreads(threads) { thread in
        let first = thread * perThread
        for (step, owner) in owners[first..<(first + half)].enumerated() {
          shared.observable.removeObserver(owner)
          if step % 25 == 0 { shared.observable.value = 2 }
        }
      }
      _ = counts.take()
      shared.observable.value = 3
      let kept = (0..<threads).flatMap { ($0 * perThread + half)..<(($0 + 1) * perThread) }
      let removedThenSet =
        "\(threads) threads each removed \(half) of their observers while setting the value"
      let got = counts.takeCounts()
      let missed = kept.count { got[$0] == nil }
      let extra = got.keys.count { !kept.contains($0) }
      if missed > 0 || extra > 0 || got.values.contains(where: { $0 > 1 }) {
        return .flaw(
          "\(removedThenSet): a set then called \(grouped(got.count)) observers, not the "
            + "\(grouped(kept.count)) kept (\(grouped(missed)) kept ones missed, "
            + "\(grouped(extra)) removed ones called)")
      }
      // Every thread adds the kept observers again at once, each replacing its callbacks.
      onThreads(threads) { _ in
        for index in kept { shared.add(owners[index]) { _ in counts.append(index) } }
      }
      _ = counts.take()
      shared.observable.value = 4
      let again =
        "\(threads) threads each added the \(grouped(kept.count)) kept observers again at once, "
        + "replacing their callbacks"
      if let flaw = check(counts.takeCounts(), expected: kept, again) { return flaw }
      if shared.observable.observerCount != kept.count {
        return .flaw(
          "\(again): observerCount then said \(grouped(shared.observable.observerCount)), not "
            + "\(grouped(kept.count)): an observer added again must replace its callbacks, "
            + "removed and added in one locked section")
      }
      withExtendedLifetime(owners) {}
    }
    return .holds(
      "\(threads) threads added \(perThread) observers each, then removed half while setting, "
        + "then added the rest again at once, \(rounds) times: no observer lost, left behind or "
        + "called twice")
  }

  /// Another thread, sent to use the observable: whether it got through in time, each time.
  /// A lock held by the thread that sent it, even a recursive one, makes it wait; it gets
  /// through once the lock is let go, and is then waited for, so that nothing is left running.
  private final class Probe: Sendable {
    /// How long the sending thread waits for it.
    static var patience: Double { 2 }
    private let finished = DispatchSemaphore(value: 0)
    private let gotThrough = Recording<Bool>()

    /// Starts a thread that runs `use`, and waits for it `patience` at most.
    func send(_ use: @escaping @Sendable () -> Void) {
      Thread { [finished] in
        use()
        finished.signal()
      }.start()
      gotThrough.append(finished.wait(timeout: .now() + Self.patience) == .success)
    }

    /// Sends a thread to read the value and remove an observer never added, as a screen's
    /// cleanup might.
    func send(to shared: SharedObservable<Observable>) {
      let stranger = SendableOwner(-1)
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
    let owners = (0..<2).map(SendableOwner.init)
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
    let owner = SendableOwner(0)
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
    let (a, b) = (SendableOwner(0), SendableOwner(1))
    var c: SendableOwner? = SendableOwner(2)
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
    var d: SendableOwner? = SendableOwner(3)
    let (e, stranger) = (SendableOwner(4), SendableOwner(5))
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
    let owners = (0..<4).map(SendableOwner.init)
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
