import LifetimeTracking

// MARK: - The catalogue

extension Scenario {
  /// Every scenario, in the order the comparison prints them.
  package static let all: [Scenario] = [
    deliversEveryChange,
    deliveryOrder,
    releasedObserverNotCalled,
    deadEntriesRemoved,
    deadEntriesRemovedOnSet,
    explicitUnsubscribe,
    strongCaptureFreedAfterUnsubscribe,
    strongCaptureFreedWithoutUnsubscribe,
    sameKeyTwoObservers,
    sameObserverTwice,
    initialValue,
    oldValue,
    unsubscribeDuringNotification,
    reentrantSetEndsOnLatest,
    sendable,
  ]

  static let deliversEveryChange = Scenario(
    name: "delivers-every-change",
    title: "one observer receives every set value, in order",
    story: """
      One observer subscribes, and the value is set to 1, 2, 3, 4 and 5. The observer must \
      receive exactly those five values, in that order. It is the promise of the pattern, and \
      every stage keeps it.
      """,
    chapter: Chapter.stoneAge,
    documented: [.holds, .holds, .holds, .holds, .holds]
  ) { subject in
    let owner = LifetimeTracker().makeObject()
    let observable = subject.makeObservable(0)
    let log = ValueLog<Int>()
    observable.subscribe(ScenarioSubscription(owner: owner) { log.append($0.newValue) })
    for value in 1...5 {
      observable.value = value
    }
    let reason =
      subject == .reference(.observation)
      ? ": onChange fires before the write, so the value read there is the one being replaced" : ""
    return withExtendedLifetime(owner) {
      log.entries == [1, 2, 3, 4, 5]
        ? .holds("received 1, 2, 3, 4, 5: every value set, in order")
        : .flaw("received \(list(log.entries)) for the values 1, 2, 3, 4, 5\(reason)")
    }
  }

  static let deliveryOrder = Scenario(
    name: "delivery-order",
    title: "many observers are called in subscription order",
    story: """
      Sixteen observers subscribe one after another to a fresh observable, and the value is set \
      once; the observers must be called in the order they subscribed. This is repeated on 20 \
      fresh observables, so that a stage whose order is unspecified cannot pass by luck: one \
      dictionary may happen to keep the order of its keys, 20 of them will not.
      """,
    chapter: Chapter.ironAge,
    documented: [.holds, .flaw, .holds, .holds, .holds]
  ) { subject in
    let (observableCount, observerCount) = (20, 16)
    let tracker = LifetimeTracker()
    var outOfOrder = 0
    for _ in 0..<observableCount {
      let owners = tracker.makeObjects(observerCount)
      let observable = subject.makeObservable(0)
      let calls = ValueLog<String>()
      for owner in owners {
        let name = owner.name
        observable.subscribe(ScenarioSubscription(owner: owner) { _ in calls.append(name) })
      }
      observable.value = 1
      if calls.entries != owners.map(\.name) { outOfOrder += 1 }
    }
    return outOfOrder == 0
      ? .holds(
        "\(observerCount) observers called in subscription order on each of \(observableCount) "
          + "observables")
      : .flaw(
        "call order differed from subscription order on \(outOfOrder) of \(observableCount) "
          + "observables of \(observerCount) observers"
          + (subject.identity == .key ? ": the dictionary picks the order" : ""))
  }

  static let releasedObserverNotCalled = Scenario(
    name: "released-observer-not-called",
    title: "a released owner's closure no longer runs",
    story: """
      An owner subscribes with a closure that writes to a log kept outside the owner, so the \
      closure does not keep it alive. The value is set to 1, the owner is released (its deinit \
      is counted), and the value is set to 2. The closure must not run for 2: there is nobody \
      left to update.
      """,
    chapter: Chapter.informationAge,
    documented: [.flaw, .flaw, .holds, .holds, .holds]
  ) { subject in
    let tracker = LifetimeTracker()
    let observable = subject.makeObservable(0)
    let log = ValueLog<Int>()
    var owner: TrackedObject? = tracker.makeObject()
    observable.subscribe(ScenarioSubscription(owner: owner!) { log.append($0.newValue) })
    observable.value = 1
    owner = nil
    precondition(
      tracker.deinitCount == 1, "the owner must be freed for the experiment to mean anything")
    observable.value = 2
    if log.entries == [1] {
      return .holds("the closure stopped once its owner was freed: received 1, not 2")
    }
    let reason =
      switch (subject, subject.identity) {
      case (.reference(.notificationCenter), _):
        "the center keeps the block until removeObserver is called with its token"
      case (.reference(.observation), _):
        "the tracking re-arms itself and knows nothing of an owner"
      case (.reference(.observations), _):
        "the consuming task keeps iterating until it is cancelled and knows nothing of an owner"
      case (_, .none): "the stage never learns who subscribed"
      case (_, .key): "a key cannot tell whether its owner still lives"
      case (_, .object): "the stage did not check its weak reference"
      }
    return .flaw("the closure still ran for 2 after its owner was freed: \(reason)")
  }

  static let deadEntriesRemoved = Scenario(
    name: "dead-entries-removed",
    title: "after 1,000 owners are released, a set and a new subscription leave only the new entry",
    story: """
      1,000 owners subscribe and are all released. The value is set once, and one new owner \
      subscribes. Only the newcomer's entry should then be stored: the 1,000 dead ones must \
      have been cleaned, by the set or by the subscription.
      """,
    chapter: Chapter.informationAge,
    documented: [.flaw, .flaw, .holds, .holds, .holds]
  ) { subject in
    if let reason = subject.inapplicability(for: .entryCount) { return .notApplicable(reason) }
    let tracker = LifetimeTracker()
    let observable = subject.makeObservable(0)
    subscribeAndRelease(1_000, to: observable, tracker: tracker)
    observable.value = 1
    let newcomer = tracker.makeObject(name: "newcomer")
    observable.subscribe(ScenarioSubscription(owner: newcomer) { _ in })
    let stored = observable.storedEntryCount
    return stored == 1
      ? .holds("1 entry stored after 1,000 owners were released, 1 set and 1 new subscription")
      : .flaw(
        "\(entries(stored)) still stored after their 1,000 observers were released, 1 set and "
          + "1 new subscription")
  }

  static let deadEntriesRemovedOnSet = Scenario(
    name: "dead-entries-removed-on-set",
    title: "the same, after sets alone (no new subscription)",
    story: """
      1,000 owners subscribe and are all released, then the value is set three times and \
      nobody new subscribes. No entry should be left: a stage that cleans only when someone \
      subscribes keeps every dead entry, and walks past them on every set, for as long as \
      nobody does.
      """,
    chapter: Chapter.optionSets,
    documented: [.flaw, .flaw, .flaw, .holds, .holds]
  ) { subject in
    if let reason = subject.inapplicability(for: .entryCount) { return .notApplicable(reason) }
    let tracker = LifetimeTracker()
    let observable = subject.makeObservable(0)
    subscribeAndRelease(1_000, to: observable, tracker: tracker)
    for value in 1...3 {
      observable.value = value
    }
    let stored = observable.storedEntryCount
    return stored == 0
      ? .holds("0 entries stored after 1,000 owners were released and 3 sets")
      : .flaw(
        "\(entries(stored)) still stored after their 1,000 observers were released and 3 sets")
  }

  static let explicitUnsubscribe = Scenario(
    name: "explicit-unsubscribe",
    title: "after unsubscribing, no more calls",
    story: """
      An owner subscribes, the value is set to 1, and the owner unsubscribes while it is still \
      alive, as a screen does when it goes off-screen. The value is then set to 2 and 3; the \
      owner must receive 1 only. A stage with no way to unsubscribe keeps calling.
      """,
    chapter: Chapter.ironAge,
    documented: [.flaw, .holds, .flaw, .holds, .holds]
  ) { subject in
    if let reason = subject.inapplicability(for: .unsubscribe) { return .notApplicable(reason) }
    let owner = LifetimeTracker().makeObject()
    let observable = subject.makeObservable(0)
    let log = ValueLog<Int>()
    let subscription = ScenarioSubscription(owner: owner) { log.append($0.newValue) }
    observable.subscribe(subscription)
    observable.value = 1
    if subject.has(.unsubscribe) {
      observable.unsubscribe(owner: owner, key: subscription.key)
    }
    observable.value = 2
    observable.value = 3
    if log.entries == [1] {
      return .holds("after unsubscribing, no more calls: received 1 only")
    }
    return subject.has(.unsubscribe)
      ? .flaw("still called after unsubscribing: received \(list(log.entries))")
      : .flaw(
        "no way to unsubscribe: received \(list(log.entries)) though the owner wanted out after 1")
  }

  static let strongCaptureFreedAfterUnsubscribe = Scenario(
    name: "strong-capture-freed-after-unsubscribe",
    title: "an owner its closure captures strongly is freed once unsubscribed and dropped",
    story: """
      An owner subscribes with a closure that captures it strongly, as a closure that uses \
      `self` without `[weak self]` does. The owner unsubscribes, and the last outside reference \
      to it is dropped. It must then be deallocated (a `weak var` to it reads `nil`, its deinit \
      is counted). A stage without removal holds the closure, and so the owner, for ever.
      """,
    chapter: Chapter.ironAge,
    documented: [.flaw, .holds, .flaw, .holds, .holds]
  ) { subject in
    if let reason = subject.inapplicability(for: .unsubscribe) { return .notApplicable(reason) }
    let tracker = LifetimeTracker()
    let observable = subject.makeObservable(0)
    var owner: TrackedObject? = tracker.makeObject()
    weak let weakOwner = owner
    subscribeCapturingStrongly(owner!, to: observable)
    observable.value = 1
    if subject.has(.unsubscribe) {
      observable.unsubscribe(owner: owner!, key: owner!.name)
    }
    owner = nil
    if weakOwner == nil && tracker.deinitCount == 1 {
      return .holds("the owner was freed once unsubscribed and dropped" + handedNote(observable))
    }
    return subject.has(.unsubscribe)
      ? .flaw("the owner is still alive after unsubscribing and dropping it")
      : .flaw(
        "no way to unsubscribe: the stored closure keeps its owner alive "
          + "(\(entries(observable.storedEntryCount)) stored)")
  }

  static let strongCaptureFreedWithoutUnsubscribe = Scenario(
    name: "strong-capture-freed-without-unsubscribe",
    title: "the same owner is freed when merely dropped",
    story: """
      As before, the closure captures its owner strongly; this time the owner is dropped \
      without unsubscribing, and the value is set once more. The owner must be deallocated. \
      No seed design manages it: the observable stores the closure, the closure holds the \
      owner, and a weak reference to the owner beside the closure changes nothing, because \
      the owner never dies to clear it.
      """,
    chapter: Chapter.informationAge,
    documented: [.flaw, .flaw, .flaw, .flaw, .holds]
  ) { subject in
    let tracker = LifetimeTracker()
    let observable = subject.makeObservable(0)
    var owner: TrackedObject? = tracker.makeObject()
    weak let weakOwner = owner
    subscribeCapturingStrongly(owner!, to: observable)
    owner = nil
    observable.value = 1
    if weakOwner == nil && tracker.deinitCount == 1 {
      return .holds("the owner was freed once dropped" + handedNote(observable))
    }
    let weakNote = subject.identity == .object ? ", weak entry or not" : ""
    return .flaw(
      "the owner is still alive after it was dropped and 1 more set: the stored closure "
        + "captures it\(weakNote)")
  }

  static let sameKeyTwoObservers = Scenario(
    name: "same-key-two-observers",
    title: "two observers subscribing under one name are both called",
    story: """
      Two different owners subscribe under the same name, "label", as two screens that each \
      pick the obvious key do. The value is set once, and both must be called. A stage keyed \
      by strings lets the second subscription silently replace the first.
      """,
    chapter: Chapter.ironAge,
    documented: [.holds, .flaw, .holds, .holds, .holds]
  ) { subject in
    let tracker = LifetimeTracker()
    let (first, second) = (tracker.makeObject(name: "first"), tracker.makeObject(name: "second"))
    let observable = subject.makeObservable(0)
    let calls = ValueLog<String>()
    for owner in [first, second] {
      let name = owner.name
      observable.subscribe(
        ScenarioSubscription(owner: owner, key: "label") { _ in calls.append(name) })
    }
    observable.value = 1
    return withExtendedLifetime((first, second)) {
      switch (calls.entries.contains("first"), calls.entries.contains("second")) {
      case (true, true):
        subject.identity == .none
          ? .holds("both called: no keys, nothing to collide")
          : .holds("both called: each is told apart by its object, not by a name")
      case (false, true):
        .flaw("only the second observer was called: its bind under \"label\" replaced the first")
      case (true, false):
        .flaw("only the first observer was called: the second bind under \"label\" was dropped")
      case (false, false):
        .flaw("neither observer was called")
      }
    }
  }

  static let sameObserverTwice = Scenario(
    name: "same-observer-twice",
    title: "one observer subscribed twice is called once per change",
    story: """
      One owner subscribes twice, with the same name, as a screen whose setup code runs twice \
      does. The value is set once; the owner must be called once, not twice.
      """,
    chapter: Chapter.informationAge,
    documented: [.flaw, .holds, .flaw, .holds, .holds]
  ) { subject in
    let owner = LifetimeTracker().makeObject()
    let observable = subject.makeObservable(0)
    let log = ValueLog<Int>()
    for _ in 1...2 {
      observable.subscribe(
        ScenarioSubscription(owner: owner, key: "label") { log.append($0.newValue) })
    }
    observable.value = 1
    let calls = log.entries.count
    return withExtendedLifetime(owner) {
      switch (calls, subject.identity) {
      case (1, .key): .holds("called once: the second bind under its key replaced the first")
      case (1, _): .holds("called once: subscribing again replaced its first subscription")
      case (_, .none):
        .flaw(
          "called \(calls) times for one change: both closures are stored, nothing tells them apart"
        )
      case (_, _):
        .flaw(
          "called \(calls) times for one change: \(entries(observable.storedEntryCount)) stored for one owner"
        )
      }
    }
  }

  static let initialValue = Scenario(
    name: "initial-value",
    title: "an observer can receive the current value when it subscribes",
    story: """
      The observable holds 42. An owner subscribes asking for the current value, as KVO's \
      `.initial` option does, so that a label shows the value at once rather than after the \
      next change. It must receive 42 before any set.
      """,
    chapter: Chapter.optionSets,
    documented: [.flaw, .flaw, .flaw, .holds, .holds]
  ) { subject in
    if let reason = subject.inapplicability(for: .initialValue) { return .notApplicable(reason) }
    let owner = LifetimeTracker().makeObject()
    let observable = subject.makeObservable(42)
    let log = ValueLog<Delivery>()
    var subscription = ScenarioSubscription(owner: owner) { log.append($0) }
    subscription.wantsInitial = true
    observable.subscribe(subscription)
    return withExtendedLifetime(owner) {
      if log.entries == [.initial(42)] {
        .holds("received the current value 42 on subscribing, as it asked")
      } else if subject.has(.initialValue) {
        .flaw("received \(log.entries) on subscribing, though .initial was asked for")
      } else {
        .flaw("no option to ask for it: nothing received until the first set")
      }
    }
  }

  static let oldValue = Scenario(
    name: "old-value",
    title: "an observer can receive the previous value",
    story: """
      The observable holds 0. An owner subscribes asking for the value being replaced as well \
      as the new one, as KVO's `.old` option does, and the value is set to 1. It must receive \
      0 as the old value.
      """,
    chapter: Chapter.optionSets,
    documented: [.flaw, .flaw, .flaw, .holds, .holds]
  ) { subject in
    if let reason = subject.inapplicability(for: .oldValue) { return .notApplicable(reason) }
    let owner = LifetimeTracker().makeObject()
    let observable = subject.makeObservable(0)
    let log = ValueLog<Delivery>()
    var subscription = ScenarioSubscription(owner: owner) { log.append($0) }
    subscription.wantsOld = true
    observable.subscribe(subscription)
    observable.value = 1
    return withExtendedLifetime(owner) {
      if log.entries.contains(.old(0)) {
        .holds("received the previous value 0, then the new value 1")
      } else if subject.has(.oldValue) {
        .flaw("received \(log.entries), no old value, though .old was asked for")
      } else {
        .flaw("no option to ask for it: received only the new value 1")
      }
    }
  }

  static let unsubscribeDuringNotification = Scenario(
    name: "unsubscribe-during-notification",
    title: "an observer removed by another during a notification is not called for it",
    story: """
      Fifty owners subscribe. Whichever is called first unsubscribes the other 49, as a \
      screen that closes its child screens does. None of the 49 should then be called for \
      the change under way: its owner has said it is gone, and may already be tearing down. \
      Counting the removed observers still called makes the result the same whatever order \
      the stage calls them in.
      """,
    chapter: Chapter.concurrency,
    documented: [.flaw, .flaw, .flaw, .flaw, .holds]
  ) { subject in
    if let reason = subject.inapplicability(for: .unsubscribe) { return .notApplicable(reason) }
    guard subject.has(.unsubscribe) else {
      return .flaw("no way to unsubscribe, during a notification or ever")
    }
    let owners = LifetimeTracker().makeObjects(50)
    let observable = subject.makeObservable(0)
    var removalDone = false
    var lateCalls = 0
    for owner in owners {
      observable.subscribe(
        ScenarioSubscription(owner: owner) { [weak observable] _ in
          if removalDone {
            lateCalls += 1
            return
          }
          removalDone = true
          for other in owners where other !== owner {
            observable?.unsubscribe(owner: other, key: other.name)
          }
        })
    }
    observable.value = 1
    let removed = owners.count - 1
    return lateCalls == 0
      ? .holds("0 of \(removed) observers removed during a notification were called for it")
      : .flaw(
        "\(lateCalls) of \(removed) observers removed during a notification were still called "
          + "for it: the loop walks a copy taken before the removal")
  }

  static let reentrantSetEndsOnLatest = Scenario(
    name: "reentrant-set-ends-on-latest",
    title: "when an observer sets a new value inside its callback, every observer's last received "
      + "value is the final one",
    story: """
      Sixteen observers subscribe. The value is set to 1, and whichever observer is called \
      first sets it to 2 from inside its callback, as an observer that corrects or clamps a \
      value does. Every observer's last received value must be 2, the value the observable \
      ends with. A stage that delivers the nested set at once, depth first, hands 2 to \
      everyone and then goes on handing out the stale 1.
      """,
    chapter: Chapter.concurrency,
    documented: [.flaw, .flaw, .flaw, .flaw, .holds]
  ) { subject in
    let owners = LifetimeTracker().makeObjects(16)
    let observable = subject.makeObservable(0)
    let logs = owners.map { _ in ValueLog<Int>() }
    var corrected = false
    for (owner, log) in zip(owners, logs) {
      observable.subscribe(
        ScenarioSubscription(owner: owner) { [weak observable] delivery in
          guard let value = delivery.newValue else { return }
          log.append(value)
          if value == 1 && !corrected {
            corrected = true
            observable?.value = 2
          }
        })
    }
    observable.value = 1
    let final = observable.value
    let stale = logs.count { $0.entries.last != final }
    return withExtendedLifetime(owners) {
      if final != 2 {
        .flaw(
          "the value set inside the callback was lost: the outer set stored \(final) after it, "
            + "as the callback ran before the outer write")
      } else if stale == 0 {
        .holds("all \(owners.count) observers ended on the final value \(final)")
      } else {
        .flaw(
          "\(stale) of \(owners.count) observers ended on the stale value 1, though the value is "
            + "\(final): the nested set reached them first")
      }
    }
  }

  static let sendable = Scenario(
    name: "sendable",
    title: "the observable may be shared across threads (it is `Sendable`)",
    story: """
      Asks the compiler whether the stage's `Observable<Int>` conforms to `Sendable`: an \
      overloaded function has one version for any type and one for `Sendable` types, and \
      overload resolution picks the second only when the conformance exists. A type that is \
      not `Sendable` cannot be shared between tasks or threads in Swift 6 mode; none of the \
      seed designs has a lock, so none can claim it.
      """,
    chapter: Chapter.concurrency,
    documented: [.flaw, .flaw, .flaw, .flaw, .holds]
  ) { subject in
    subject.isSendable
      ? .holds("\(subject.typeName) is Sendable: threads may share it")
      : .flaw(
        "\(subject.typeName) is not Sendable: sharing it across threads does not compile in "
          + "Swift 6 mode")
  }
}

// MARK: - Helpers

/// The tutorial chapters scenarios point to.
enum Chapter {
  static let stoneAge = Stage.stoneAge.chapter
  static let ironAge = Stage.ironAge.chapter
  static let informationAge = Stage.informationAge.chapter
  static let optionSets = Stage.optionSets.chapter
  static let comparing = "Tutorial/06-comparing-the-stages.md"
  static let concurrency = Stage.concurrency.chapter
}

/// Subscribes `count` fresh owners, each under its own name, then releases them all.
private func subscribeAndRelease(
  _ count: Int, to observable: any ScenarioObservable, tracker: LifetimeTracker
) {
  var owners = tracker.makeObjects(count)
  for owner in owners {
    observable.subscribe(ScenarioSubscription(owner: owner) { _ in })
  }
  owners.removeAll()
  precondition(
    tracker.liveCount == 0, "every owner must be freed for the experiment to mean anything")
}

/// Subscribes `owner` with a closure that captures it strongly, as a closure that uses `self`
/// without `[weak self]` does.
private func subscribeCapturingStrongly(
  _ owner: TrackedObject, to observable: any ScenarioObservable
) {
  var subscription = ScenarioSubscription(owner: owner) { _ in }
  subscription.capturesOwnerStrongly = true
  observable.subscribe(subscription)
}

/// Says how the experiment was phrased for a stage that hands the owner to its handler.
private func handedNote(_ observable: any ScenarioObservable) -> String {
  observable.handsOwnerToHandler
    ? " (phrased for this stage: the handler is handed its owner instead of capturing it)" : ""
}

/// "1 entry", "1,001 entries".
private func entries(_ count: Int) -> String {
  count == 1 ? "1 entry" : "\(grouped(count)) entries"
}

/// "1, 2, 3", or "nothing".
private func list(_ values: [Int]) -> String {
  values.isEmpty ? "nothing" : values.map(String.init).joined(separator: ", ")
}

/// 1001 as "1,001", whatever the locale.
package func grouped(_ number: Int) -> String {
  let digits = String(number.magnitude)
  var groups: [Substring] = []
  var end = digits.endIndex
  while end > digits.startIndex {
    let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
    groups.insert(digits[start..<end], at: 0)
    end = start
  }
  return (number < 0 ? "-" : "") + groups.joined(separator: ",")
}

extension ValueLog<Int> {
  /// Appends a value when there is one.
  fileprivate func append(_ value: Int?) {
    if let value { append(value) }
  }
}
