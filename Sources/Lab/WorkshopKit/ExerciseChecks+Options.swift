import Foundation
import ObserverScenarios
import Support

// The checks of exercises 6 to 9, on stage 4's API.

// MARK: - Exercises 6 and 7

extension OptionsAdapter {
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .removedMidNotificationAmongSeveral: removedMidNotificationAmongSeveral()
    case .removedAndAddedAgainMidNotification: removedAndAddedAgainMidNotification()
    case .lastRemovedAnotherAddedMidNotification: lastRemovedAnotherAddedMidNotification()
    case .twoNestedSetsInOrder: twoNestedSetsInOrder()
    case .chainedNestedSets: chainedNestedSets()
    case .nestedSetsOldValues: nestedSetsOldValues()
    case .laterSetDelivered: laterSetDelivered()
    case .generatedRemovalsMidSet: GeneratedPrograms.check(.removeAtOnce) { programTarget() }
    case .generatedNestedSets: GeneratedPrograms.check(.queueNestedSets) { programTarget() }
    default: notRunHere(check)
    }
  }

  /// Adds `owner`, asking for new values, with `body` run on each.
  private static func add(
    _ owner: Named, to observable: Observable, options: Observable.Options = .new,
    _ body: @escaping (Int, Observable.Options) -> Void
  ) {
    observable.addObserver(owner, removeIfExists: true, options: options, closure: body)
  }

  private static func removedMidNotificationAmongSeveral() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let owners = ["A", "B", "C", "D", "E"].map(Named.init)
    for owner in owners {
      add(owner, to: observable) { [weak observable] value, _ in
        log.append(owner.name)
        if owner.name == "A", value == 1 { observable?.removeObserver(owners[2]) }
        if owner.name == "D", value == 2 { observable?.removeObserver(owners[0]) }
      }
    }
    let rounds = [
      Round(
        "added A, B, C, D, E; A removed C inside its closure for set 1", set: 1,
        calls: ["A", "B", "D", "E"]),
      Round("D removed A inside its closure for set 2", set: 2, calls: ["A", "B", "D", "E"]),
      Round(nil, set: 3, calls: ["B", "D", "E"]),
    ]
    let flaw = play(rounds, on: observable, log: log)
    return withExtendedLifetime(owners) {
      flaw ?? .holds("C removed by A, then A by D, mid-notification: neither ran after its removal")
    }
  }

  private static func removedAndAddedAgainMidNotification() -> Outcome {
    changedMidNotification(
      "added A, B, C; A removed B and added it again with a second closure, inside its closure "
        + "for set 1",
      logged: ["A", "B's first closure", "C"], removed: 1, added: nil,
      addedLog: "B's second closure", secondSet: ["A", "C", "B's second closure"],
      held: "B removed and added again mid-notification: its first closure never ran again")
  }

  private static func lastRemovedAnotherAddedMidNotification() -> Outcome {
    // C is the last: an id that counts the entries hands D the id C had, so that a lookup by
    // id still finds C.
    changedMidNotification(
      "added A, B, C; A removed C, the last, and added D, inside its closure for set 1",
      logged: ["A", "B", "C"], removed: 2, added: Named("D"), addedLog: "D",
      secondSet: ["A", "B", "D"],
      held: "C, the last, removed and D added mid-notification: C never ran after its removal")
  }

  /// Adds A, B and C, whose closures log `logged`; A's closure for 1 removes the one at
  /// `removed` and adds `added` (the removed one again when `nil`) with a closure that logs
  /// `addedLog`. Set 1 must not call the removed closure, and must call the other of B and C;
  /// set 2 must call `secondSet`, in order.
  private static func changedMidNotification(
    _ done: String, logged: [String], removed: Int, added: Named?, addedLog: String,
    secondSet: [String], held: String
  ) -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let owners = ["A", "B", "C"].map(Named.init)
    let addedOwner = added ?? owners[removed]
    add(owners[0], to: observable) { [weak observable] value, _ in
      log.append(logged[0])
      guard value == 1, let observable else { return }
      observable.removeObserver(owners[removed])
      add(addedOwner, to: observable) { _, _ in log.append(addedLog) }
    }
    for index in 1...2 {
      add(owners[index], to: observable) { _, _ in log.append(logged[index]) }
    }
    let steps = Steps(done)
    observable.value = 1
    let first = log.take()
    let (removedLog, keptLog) = (logged[removed], logged[3 - removed])
    if first.contains(removedLog) {
      return steps.flaw("set 1 still called \(removedLog) (it called \(listed(first)))")
    }
    if !first.contains(keptLog) {
      return steps.flaw("set 1 called \(listed(first)), not \(keptLog)")
    }
    observable.value = 2
    if let flaw = steps.calls(log.take(), expected: secondSet, set: 2) { return flaw }
    return withExtendedLifetime((owners, addedOwner)) { .holds(held) }
  }

  /// What each observer received, by name, in order.
  private final class Received {
    var values: [String: [String]] = [:]
    func append(_ owner: String, _ what: String) { values[owner, default: []].append(what) }
  }

  private static func twoNestedSetsInOrder() -> Outcome {
    let owners = ["A", "B", "C"].map(Named.init)
    return everyoneReceivedOneTwoThree(
      owners, Steps("A set 2 then 3 inside its closure for 1"),
      held: "A set 2 then 3 inside its closure for 1: A, B and C each received 1, 2, 3"
    ) { observable, value in
      guard value == 1 else { return }
      observable.value = 2
      observable.value = 3
    }
  }

  private static func chainedNestedSets() -> Outcome {
    // The second nested set is made while the queued 2 is delivered: a delivery the queue
    // itself started.
    let owners = ["A", "B"].map(Named.init)
    return everyoneReceivedOneTwoThree(
      owners, Steps("A set 2 inside its closure for 1, and 3 inside its closure for 2"),
      held: "A set 2 inside its closure for 1, and 3 inside its closure for 2: A and B each "
        + "received 1, 2, 3"
    ) { observable, value in
      if value < 3 { observable.value = value + 1 }
    }
  }

  /// Adds `owners`, the first of which runs `nested` on each value it receives, sets 1, and
  /// requires every owner to have received 1, 2 and 3, in that order, and the value to end on 3.
  private static func everyoneReceivedOneTwoThree(
    _ owners: [Named], _ steps: Steps, held: String,
    nested: @escaping (Observable, Int) -> Void
  ) -> Outcome {
    let observable = Observable(0)
    let received = Received()
    for owner in owners {
      add(owner, to: observable) { [weak observable] value, _ in
        received.append(owner.name, String(value))
        if owner === owners[0], let observable { nested(observable, value) }
      }
    }
    observable.value = 1
    for owner in owners {
      let got = received.values[owner.name] ?? []
      if got != ["1", "2", "3"] {
        let ending = got.last.map { " and ended on \($0)" } ?? ""
        return steps.flaw(
          "\(owner.name) received \(got.isEmpty ? "nothing" : got.joined(separator: ", "))"
            + (got.count == 1 ? " only" : "") + ending + ", not 1, 2, 3")
      }
    }
    if observable.value != 3 {
      return steps.flaw(
        "every observer received 1, 2, 3, but the value then read \(observable.value)")
    }
    return withExtendedLifetime(owners) { .holds(held) }
  }

  private static func nestedSetsOldValues() -> Outcome {
    let observable = Observable(0)
    let received = Received()
    let (a, b) = (Named("A"), Named("B"))
    add(a, to: observable) { [weak observable] value, _ in
      if value == 1 { observable?.value = 2 }
    }
    add(b, to: observable, options: Observable.Options.old.union(.new)) { value, option in
      received.append("B", (option == .old ? "old " : "new ") + String(value))
    }
    let steps = Steps("A set 2 inside its closure for 1; B asked for old and new values")
    observable.value = 1
    let expected = ["old 0", "new 1", "old 1", "new 2"]
    let got = received.values["B"] ?? []
    if got != expected {
      return steps.flaw(
        "B received \(got.isEmpty ? "nothing" : got.joined(separator: ", ")), not "
          + expected.joined(separator: ", "))
    }
    return withExtendedLifetime([a, b]) {
      .holds("B received old 0, new 1, then old 1, new 2: each queued set's own old value")
    }
  }

  private static func laterSetDelivered() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let (a, b) = (Named("A"), Named("B"))
    add(a, to: observable) { [weak observable] value, _ in
      log.append("A")
      if value == 1 { observable?.value = 2 }
    }
    add(b, to: observable) { _, _ in log.append("B") }
    var steps = Steps("A set 2 inside its closure for 1")
    observable.value = 1
    _ = log.take()
    steps.then("then the value was set to 4")
    observable.value = 4
    if let flaw = steps.calls(log.take(), expected: ["A", "B"], set: 4) { return flaw }
    if observable.value != 4 { return steps.flaw("the value then read \(observable.value)") }
    return withExtendedLifetime([a, b]) {
      .holds("after a round with a nested set, set 4 called A and B")
    }
  }
}

// MARK: - Exercise 8

extension HandingAdapter {
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .releasedDuringSet: releasedDuringSet()
    case .handsItsOwnObserver: handsItsOwnObserver()
    case .observableFreedWhileObserversLive: observableFreedWhileObserversLive()
    case .generatedHandedOwners: GeneratedPrograms.check(.handOverTheOwner) { programTarget() }
    default: notRunHere(check)
    }
  }

  /// Holds B, the observer another handler releases.
  private final class Holder {
    var owner: Named?
  }

  private static func releasedDuringSet() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let (a, c) = (Named("A"), Named("C"))
    let holder = Holder()
    holder.owner = Named("B")
    weak let b = holder.owner
    let handler: (Named, Int, Observable.Options) -> Void = { observer, value, _ in
      log.append(observer.name)
      if observer.name == "A", value == 1 { holder.owner = nil }
    }
    for owner in [a, holder.owner!, c] {
      observable.addObserver(owner, removeIfExists: true, options: .new, handler: handler)
    }
    var steps = Steps("added A, B, C; A released B, its last reference, inside its handler for 1")
    observable.value = 1
    if let flaw = steps.calls(log.take(), expected: ["A", "C"], set: 1) { return flaw }
    if b != nil { return steps.flaw("B was not freed: something the observable keeps holds it") }
    observable.value = 2
    steps.then("set 2")
    if let flaw = steps.calls(log.take(), expected: ["A", "C"], set: 2) { return flaw }
    return withExtendedLifetime([a, c]) {
      .holds("B released by A's handler during set 1: B's handler was skipped, and B freed")
    }
  }

  private static func handsItsOwnObserver() -> Outcome {
    let observable = Observable(0)
    let owners = ["A", "B", "C"].map(Named.init)
    var wrong: [String] = []
    var calls = 0
    for owner in owners {
      let name = owner.name
      observable.addObserver(owner, removeIfExists: true, options: .new) { observer, _, _ in
        calls += 1
        if observer.name != name {
          wrong.append("the handler added for \(name) was handed \(observer.name)")
        }
      }
    }
    observable.value = 1
    let steps = Steps("added A, B, C")
    if let first = wrong.first { return steps.flaw("at set 1, \(first)") }
    if calls != 3 { return steps.flaw("set 1 made \(calls) handler calls, not 3") }
    return withExtendedLifetime(owners) {
      .holds("added A, B, C: each handler was handed its own observer")
    }
  }
}

extension HandingAdapter {
  private static func observableFreedWhileObserversLive() -> Outcome {
    let a = Named("A")
    var observable: Observable? = Observable(0)
    weak let weakObservable = observable
    observable?.addObserver(a, removeIfExists: true, options: .new) { _, _, _ in }
    observable?.value = 1
    observable = nil
    let steps = "A was added, 1 set, then the observable let go while A lives"
    return withExtendedLifetime(a) {
      weakObservable == nil
        ? .holds("\(steps): it was freed")
        : .flaw(
          "\(steps): it was not freed, so something it keeps holds it. The closure made for "
            + "each observer, using self?")
    }
  }
}

// MARK: - Exercise 9

/// An owner a thread may hand to the observable.
final class SendableOwner: Sendable {
  let index: Int
  init(_ index: Int) { self.index = index }
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

  /// The observable, handed to threads: the check is what finds out whether that is safe.
  private struct Shared: @unchecked Sendable {
    let observable: Observable

    /// Adds `owner`, asking for new values, with `body` run on each.
    func add(_ owner: SendableOwner, _ body: @escaping @Sendable (Int) -> Void = { _ in }) {
      observable.addObserver(owner, removeIfExists: true, options: .new) { value, _ in body(value) }
    }
  }

  /// A flaw when `counts` is not exactly one call for each of `expected`.
  private static func check(_ counts: [Int: Int], expected: some Collection<Int>, _ steps: String)
    -> Outcome?
  {
    let missed = expected.count { counts[$0] == nil }
    let extra = counts.keys.count { !expected.contains($0) }
    let twice = counts.values.count { $0 > 1 }
    guard missed > 0 || extra > 0 || twice > 0 else { return nil }
    var found: [String] = []
    if missed > 0 {
      found.append("\(grouped(missed)) of the \(grouped(expected.count)) were not called")
    }
    if extra > 0 { found.append("\(grouped(extra)) removed ones were called") }
    if twice > 0 { found.append("\(grouped(twice)) were called more than once") }
    return .flaw("\(steps): a set then found \(listed(found))")
  }

  private static func threadsShareIt() -> Outcome {
    // Several rounds, each on a fresh observable: a race that one round misses, one of the
    // others shows.
    for _ in 0..<rounds {
      let shared = Shared(observable: Observable(0))
      let counts = Recording<Int>()
      let owners = (0..<threads * perThread).map(SendableOwner.init)
      let perThread = perThread
      onThreads(threads) { thread in
        for owner in owners[(thread * perThread)..<((thread + 1) * perThread)] {
          let index = owner.index
          shared.add(owner) { _ in counts.append(index) }
        }
      }
      let added =
        "\(threads) threads each added \(perThread) observers at once"
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

  /// How long a closure waits for another thread to use the observable.
  private static var patience: Double { 2 }

  /// Starts a thread that runs `use`, then signals `finished`, and waits for it `patience` at
  /// most: whether it got through in that time. A lock held by the caller, even a recursive
  /// one, makes it wait; it gets through once the lock is let go, and the caller then waits
  /// on `finished` for it, so that nothing is left running.
  private static func anotherThreadGetsThrough(
    _ use: @escaping @Sendable () -> Void, finished: DispatchSemaphore
  ) -> Bool {
    Thread {
      use()
      finished.signal()
    }.start()
    return finished.wait(timeout: .now() + patience) == .success
  }

  /// Has another thread read the value and remove an observer never added, as a screen's
  /// cleanup might, and records in `gotThrough` whether it got through in time.
  private static func probe(
    _ shared: Shared, _ gotThrough: Recording<Bool>, finished: DispatchSemaphore
  ) {
    let stranger = SendableOwner(-1)
    let other = anotherThreadGetsThrough(
      {
        _ = shared.observable.value
        shared.observable.removeObserver(stranger)
      }, finished: finished)
    gotThrough.append(other)
  }

  /// The flaw when a ``probe(_:_:finished:)`` waited in vain while `what`.
  private static func lockHeld(_ what: String) -> Outcome {
    .flaw(
      "\(what): another thread waited \(IsolatedGrading.seconds(patience)) to read the value "
        + "and remove an observer, in vain: a lock was held")
  }

  private static func otherThreadDuringClosure() -> Outcome {
    let shared = Shared(observable: Observable(0))
    let owners = (0..<2).map(SendableOwner.init)
    let finished = DispatchSemaphore(value: 0)
    let gotThrough = Recording<Bool>()
    // A's closure for 1 has another thread read the value and add B, and waits for it.
    shared.add(owners[0]) { [owners] value in
      guard value == 1 else { return }
      let other = anotherThreadGetsThrough(
        {
          _ = shared.observable.value
          shared.add(owners[1])
        }, finished: finished)
      gotThrough.append(other)
    }
    shared.observable.value = 1
    let waitedInVain = gotThrough.all.last == false
    if waitedInVain { finished.wait() }
    return withExtendedLifetime(owners) {
      waitedInVain
        ? .flaw(
          "A's closure for 1 waited \(IsolatedGrading.seconds(patience)) for another thread to "
            + "read the value and add an observer, in vain: a lock was held while the closure ran")
        : .holds("while A's closure for 1 ran, another thread read the value and added an observer")
    }
  }

  private static func initialCallWithNoLockHeld() -> Outcome {
    let shared = Shared(observable: Observable(5))
    let owner = SendableOwner(0)
    let finished = DispatchSemaphore(value: 0)
    let gotThrough = Recording<Bool>()
    shared.observable.addObserver(
      owner, removeIfExists: true, options: Observable.Options.initial.union(.new)
    ) {
      _, option in
      if option == .initial { probe(shared, gotThrough, finished: finished) }
    }
    let last = gotThrough.all.last
    if last == false { finished.wait() }
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
    let shared = Shared(observable: Observable(0))
    let finished = DispatchSemaphore(value: 0)
    let gotThrough = Recording<Bool>()
    // A closure that captures an object whose deinit probes the observable, and waits for it.
    let closure: () -> @Sendable (Int) -> Void = {
      let captured = Captured { probe(shared, gotThrough, finished: finished) }
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
      switch gotThrough.take().last {
      case nil:
        return .flaw("\(done.replacing(" freed", with: " did not free")): it is kept")
      case false?:
        finished.wait()
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
      switch gotThrough.take().last {
      case nil: continue
      case false?:
        finished.wait()
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
    let shared = Shared(observable: Observable(0))
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
    let steps =
      "A read the value, added D, removed B and set 2, inside its closure for 1"
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
