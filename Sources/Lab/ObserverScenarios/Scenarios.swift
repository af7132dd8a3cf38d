import LifetimeTracking
import Support

// MARK: - Every scenario

extension Scenario {
  /// Every scenario, in the order the comparison prints them.
  public static let all: [Scenario] = [
    deliversEveryChange, deliveryOrder, releasedObserverNotCalled, deadEntriesRemoved,
    deadEntriesRemovedOnSet, explicitUnsubscribe, strongCaptureFreedAfterUnsubscribe,
    strongCaptureFreedWithoutUnsubscribe, sameKeyTwoObservers, sameObserverTwice, initialValue,
    oldValue, unsubscribeDuringNotification, reentrantSetEndsOnLatest, reentrantSetSeenOnceInOrder,
    sendable,
  ]

  static let deliversEveryChange = Scenario(
    .deliversEveryChange,
    title: "one observer receives every set value, in order",
    story: """
      One observer subscribes, and the value is set to 1, 2, 3, 4 and 5. The observer must \
      receive exactly those five values, in that order. It is the promise of the pattern, and \
      every stage keeps it.
      """,
    sizing: """
      One observer and five sets: enough to see a value lost, repeated or out of order. One \
      observer sits below every storage threshold on purpose; `delivery-order` is the scenario \
      sized for those.
      """,
    chapter: TutorialChapter.closures.path
  ) { design in
    let received = deliveries(to: design, setting: 1...5).compactMap(\.newValue)
    let reason =
      design.has(.deliversBeforeWrite)
      ? design.notes[.deliversEveryChange].map { ": \($0)" }
        ?? ": observers run before the write, so the value read there is the one being replaced"
      : ""
    return received == [1, 2, 3, 4, 5]
      ? .holds("received 1, 2, 3, 4, 5: every value set, in order")
      : .flaw("received \(list(received)) for the values 1, 2, 3, 4, 5\(reason)")
  }

  static let deliveryOrder = Scenario(
    .deliveryOrder,
    title: "many observers are called in subscription order",
    story: """
      64 observers subscribe one after another to a fresh observable. Every eighth of them, 8 \
      in all, then leaves (it unsubscribes; on a design that cannot unsubscribe, its owner is \
      released), and 8 new observers subscribe. The value is set once: the 56 who stayed must \
      be called in the order they subscribed, then the 8 newcomers in theirs. Calls to those \
      who left are not counted here; `explicit-unsubscribe` and `released-observer-not-called` \
      judge them. This is repeated on 20 fresh observables, so that a stage whose order is \
      unspecified cannot pass by luck: one dictionary may happen to keep the order of its \
      keys, 20 of them will not.
      """,
    sizing: """
      64 observers pass every storage threshold of the libraries checked: Combine's subject \
      keeps its second subscriber onward in a Set, RxSwift's Bag keeps one observer inline \
      and 30 in an array, then puts the 32nd and later in a dictionary. The 8 who leave free \
      slots spread through the storage, and the 8 newcomers are as many: a design that reuses \
      a freed slot calls a newcomer before older observers.
      """,
    chapter: TutorialChapter.keyedDict.path
  ) { design in
    let (observableCount, observerCount, leaving) = (20, 64, 8)
    let tracker = LifetimeTracker()
    var outOfOrder = 0
    for _ in 0..<observableCount {
      var owners: [ScenarioOwner?] = tracker.makeOwners(observerCount)
      let observable = design.makeObservable(0)
      let calls = ValueLog<String>()
      func subscribe(_ owner: ScenarioOwner) {
        let name = owner.name
        // Only the set's deliveries count: a design that sends its current value to each new
        // subscriber, asked or not, calls it once more on subscribing, which says nothing of
        // the order a set calls observers in.
        observable.subscribe(
          ScenarioSubscription(owner: owner) { delivery in
            if delivery.newValue != nil { calls.append(name) }
          })
      }
      for case let owner? in owners {
        subscribe(owner)
      }
      // Every eighth leaves: observers 7, 15, …, 63.
      for index in stride(
        from: observerCount / leaving - 1, to: observerCount, by: observerCount / leaving)
      {
        if design.has(.unsubscribe) {
          observable.unsubscribe(ScenarioSubscription(owner: owners[index]!) { _ in })
        }
        owners[index] = nil
      }
      let newcomers = (0..<leaving).map { tracker.makeOwner(name: "newcomer \($0)") }
      for newcomer in newcomers {
        subscribe(newcomer)
      }
      let due = owners.compactMap { $0?.name } + newcomers.map(\.name)
      observable.value = 1
      if calls.entries.filter(Set(due).contains) != due { outOfOrder += 1 }
      withExtendedLifetime((owners, newcomers)) {}
    }
    return outOfOrder == 0
      ? .holds(
        "\(observerCount) observers called in subscription order on each of \(observableCount) "
          + "observables, the last \(leaving) subscribed after \(leaving) others left")
      : .flaw(
        "call order differed from subscription order on \(outOfOrder) of \(observableCount) "
          + "observables of \(observerCount) observers, \(leaving) of them newcomers"
          // A stage keyed by name stores its closures in a dictionary, which picks the order;
          // code being graded may store them in anything.
          + (design.identity == .key && design.role != .graded
            ? ": the dictionary picks the order" : ""))
  }

  static let releasedObserverNotCalled = Scenario(
    .releasedObserverNotCalled,
    title: "a released owner's closure no longer runs",
    story: """
      An owner subscribes with a closure that writes to a log kept outside the owner, so the \
      closure does not keep it alive. The value is set to 1, the owner is released (its deinit \
      is counted), and the value is set to 2. The closure must not run for 2: there is nobody \
      left to update.
      """,
    sizing: """
      One owner: whether a closure outlives its owner does not depend on how many there are. A \
      design whose tokens end their subscriptions is graded with the token kept on the owner \
      (`storeInOwner`), as app code keeps an `AnyCancellable` or a `DisposeBag`.
      """,
    chapter: TutorialChapter.weakRefs.path
  ) { design in
    let tracker = LifetimeTracker()
    let observable = design.makeObservable(0)
    let log = ValueLog<Int>()
    var owner: ScenarioOwner? = tracker.makeOwner()
    observable.subscribe(ScenarioSubscription(owner: owner!) { log.append($0.newValue) })
    observable.value = 1
    owner = nil
    guard tracker.deinitCount == 1 else {
      return .flaw("the owner was not freed when released: the observable holds it strongly")
    }
    observable.value = 2
    if log.entries == [1] {
      return .holds("the closure stopped once its owner was freed: received 1, not 2")
    }
    let reason =
      design.notes[.releasedObserverNotCalled]
      ?? {
        switch design.identity {
        case .none: "the \(noun(design)) never learns who subscribed"
        case .key: "a key cannot tell whether its owner still lives"
        case .object: "the \(noun(design)) did not check its weak reference"
        }
      }()
    return .flaw("the closure still ran for 2 after its owner was freed: \(reason)")
  }

  static let deadEntriesRemoved = Scenario(
    .deadEntriesRemoved,
    title: "after 1,000 owners are released, a set and a new subscription leave only the new entry",
    story: """
      1,000 owners subscribe and are all released. The value is set once, and one new owner \
      subscribes. Only the newcomer's entry should then be stored: the 1,000 dead ones must \
      have been cleaned, by the set or by the subscription.
      """,
    sizing: """
      1,000 owners: far past every storage threshold (RxSwift's Bag moves from an array to a \
      dictionary at its 32nd entry), and enough that a design cleaning one dead entry per set or \
      per subscription, rather than all of them, is left with hundreds.
      """,
    chapter: TutorialChapter.weakRefs.path
  ) { design in
    afterReleasing1000Owners(on: design) { observable, tracker in
      observable.value = 1
      let newcomer = tracker.makeOwner(name: "newcomer")
      observable.subscribe(ScenarioSubscription(owner: newcomer) { _ in })
      let stored = observable.storedEntryCount
      if stored == 0 {
        return .flaw(
          "no entry stored after 1,000 owners were released, 1 set and 1 new subscription: the "
            + "new subscription's entry is missing")
      }
      return stored == 1
        ? .holds("1 entry stored after 1,000 owners were released, 1 set and 1 new subscription")
        : .flaw(
          "\(entries(stored)) still stored after their 1,000 observers were released, 1 set and "
            + "1 new subscription")
    }
  }

  static let deadEntriesRemovedOnSet = Scenario(
    .deadEntriesRemovedOnSet,
    title: "the same, after sets alone (no new subscription)",
    story: """
      1,000 owners subscribe and are all released, then the value is set three times and \
      nobody new subscribes. No entry should be left: a stage that cleans only when someone \
      subscribes keeps every dead entry, and walks past them on every set, for as long as \
      nobody does.
      """,
    sizing: """
      1,000 owners and three sets: a design that cleans only some dead entries on each set still \
      has hundreds, and three sets rather than one catch a cleaning put off by one set.
      """,
    chapter: TutorialChapter.options.path
  ) { design in
    afterReleasing1000Owners(on: design) { observable, _ in
      for value in 1...3 {
        observable.value = value
      }
      let stored = observable.storedEntryCount
      return stored == 0
        ? .holds("0 entries stored after 1,000 owners were released and 3 sets")
        : .flaw(
          "\(entries(stored)) still stored after their 1,000 observers were released and 3 sets")
    }
  }

  static let explicitUnsubscribe = Scenario(
    .explicitUnsubscribe,
    title: "after unsubscribing, no more calls",
    story: """
      An owner subscribes, the value is set to 1, and the owner unsubscribes while it is still \
      alive, as a screen does when it goes off-screen. The value is then set to 2 and 3; the \
      owner must receive 1 only. A stage with no way to unsubscribe keeps calling.
      """,
    sizing: """
      One owner, and two sets after it unsubscribes: one late call could be a delivery already \
      under way; a second cannot.
      """,
    chapter: TutorialChapter.keyedDict.path
  ) { design in
    if let reason = design.inapplicability(for: .unsubscribe) { return .notApplicable(reason) }
    let owner = LifetimeTracker().makeOwner()
    let observable = design.makeObservable(0)
    let log = ValueLog<Int>()
    let subscription = ScenarioSubscription(owner: owner) { log.append($0.newValue) }
    observable.subscribe(subscription)
    observable.value = 1
    if design.has(.unsubscribe) {
      observable.unsubscribe(subscription)
    }
    observable.value = 2
    observable.value = 3
    if log.entries == [1] {
      return .holds("after unsubscribing, no more calls: received 1 only")
    }
    return design.has(.unsubscribe)
      ? .flaw("still called after unsubscribing: received \(list(log.entries))")
      : .flaw(
        "no way to unsubscribe: received \(list(log.entries)) though the owner wanted out after 1")
  }

  static let strongCaptureFreedAfterUnsubscribe = Scenario(
    .strongCaptureFreedAfterUnsubscribe,
    title: "an owner its closure captures strongly is freed once unsubscribed and dropped",
    story: """
      An owner subscribes with a closure that captures it strongly, as a closure that uses \
      `self` without `[weak self]` does. The owner unsubscribes, and the last outside reference \
      to it is dropped. It must then be deallocated (a `weak var` to it reads `nil`, its deinit \
      is counted). A stage without removal holds the closure, and so the owner, for ever.
      """,
    sizing: """
      One owner: a closure either lets its owner go when it is removed or does not, whatever the \
      number of observers.
      """,
    chapter: TutorialChapter.keyedDict.path
  ) { design in
    if let reason = design.inapplicability(for: .unsubscribe) { return .notApplicable(reason) }
    let observable = design.makeObservable(0)
    let freed = strongCaptureFreed(from: observable) { subscription in
      observable.value = 1
      if design.has(.unsubscribe) {
        observable.unsubscribe(subscription)
      }
    }
    if freed {
      return .holds("the owner was freed once unsubscribed and dropped" + handedNote(design))
    }
    return design.has(.unsubscribe)
      ? .flaw("the owner is still alive after unsubscribing and dropping it")
      : .flaw(
        "no way to unsubscribe: the stored closure keeps its owner alive"
          + (design.has(.storedEntryCount)
            ? " (\(entries(observable.storedEntryCount)) stored)" : ""))
  }

  static let strongCaptureFreedWithoutUnsubscribe = Scenario(
    .strongCaptureFreedWithoutUnsubscribe,
    title: "the same owner is freed when merely dropped",
    story: """
      As before, the closure captures its owner strongly; this time the owner is dropped \
      without unsubscribing, and the value is set once more. The owner must be deallocated. \
      No seed design manages it: the observable stores the closure, the closure holds the \
      owner, and a weak reference to the owner beside the closure changes nothing, because \
      the owner never dies to clear it.
      """,
    sizing: """
      One owner, and one set after it is dropped: the set gives a design that cleans dead \
      entries lazily its chance to let go.
      """,
    chapter: TutorialChapter.weakRefs.path
  ) { design in
    let observable = design.makeObservable(0)
    if strongCaptureFreed(from: observable, afterDropping: { observable.value = 1 }) {
      return .holds("the owner was freed once dropped" + handedNote(design))
    }
    let weakNote = design.identity == .object ? ", weak entry or not" : ""
    return .flaw(
      "the owner is still alive after it was dropped and 1 more set: the stored closure "
        + "captures it\(weakNote)")
  }

  static let sameKeyTwoObservers = Scenario(
    .sameKeyTwoObservers,
    title: "two observers subscribing under one name are both called",
    story: """
      Two different owners subscribe under the same name, "label", as two screens that each \
      pick the obvious key do. The value is set once, and both must be called. A stage keyed \
      by strings lets the second subscription silently replace the first.
      """,
    sizing: """
      Two observers under one name: the smallest collision; more would not change what a store \
      keyed by name does.
      """,
    chapter: TutorialChapter.keyedDict.path
  ) { design in
    let tracker = LifetimeTracker()
    let (first, second) = (tracker.makeOwner(name: "first"), tracker.makeOwner(name: "second"))
    let observable = design.makeObservable(0)
    let calls = ValueLog<String>()
    for owner in [first, second] {
      let name = owner.name
      // Only the set's deliveries count: a design that sends its current value on subscribing
      // calls the first observer before the second replaces it.
      observable.subscribe(
        ScenarioSubscription(owner: owner, key: "label") { delivery in
          if delivery.newValue != nil { calls.append(name) }
        })
    }
    observable.value = 1
    return withExtendedLifetime((first, second)) {
      switch (calls.entries.contains("first"), calls.entries.contains("second")) {
      case (true, true):
        design.identity == .none
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
    .sameObserverTwice,
    title: "one observer subscribed twice is called once per change",
    story: """
      One owner subscribes twice, with the same name, as a screen whose setup code runs twice \
      does. The value is set once; the owner must be called once, not twice.
      """,
    sizing: """
      One owner subscribed twice: the smallest duplicate. An API of anonymous closures has no \
      idea of the same observer; its adapter marks the scenario not applicable.
      """,
    chapter: TutorialChapter.weakRefs.path
  ) { design in
    let owner = LifetimeTracker().makeOwner()
    let observable = design.makeObservable(0)
    let log = ValueLog<Int>()
    for _ in 1...2 {
      observable.subscribe(
        ScenarioSubscription(owner: owner, key: "label") { log.append($0.newValue) })
    }
    observable.value = 1
    let calls = log.entries.count
    return withExtendedLifetime(owner) {
      switch (calls, design.identity) {
      case (1, .key): .holds("called once: the second bind under its key replaced the first")
      case (1, _): .holds("called once: subscribing again replaced its first subscription")
      case (_, .none):
        .flaw(
          "called \(calls) times for one change: both closures are stored, nothing tells them apart"
        )
      case (_, _) where design.has(.storedEntryCount):
        .flaw(
          "called \(calls) times for one change: \(entries(observable.storedEntryCount)) stored for one owner"
        )
      case (_, _):
        .flaw("called \(calls) times for one change: both subscriptions are kept")
      }
    }
  }

  static let initialValue = Scenario(
    .initialValue,
    title: "an observer can receive the current value when it subscribes",
    story: """
      The observable holds 42. An owner subscribes asking for the current value, as KVO's \
      `.initial` option does, so that a label shows the value at once rather than after the \
      next change. It must receive 42 before any set.
      """,
    sizing: "One observer: the option exists or it does not.",
    chapter: TutorialChapter.options.path
  ) { design in
    if let reason = design.inapplicability(for: .initialValue) { return .notApplicable(reason) }
    let received = deliveries(to: design, holding: 42, asking: \.wantsInitial, setting: [])
    return if received == [.initial(42)] {
      .holds("received the current value 42 on subscribing, as it asked")
    } else if design.has(.initialValue) {
      .flaw("received \(received) on subscribing, though .initial was asked for")
    } else {
      .flaw("no option to ask for it: nothing received until the first set")
    }
  }

  static let oldValue = Scenario(
    .oldValue,
    title: "an observer can receive the previous value",
    story: """
      The observable holds 0. An owner subscribes asking for the value being replaced as well \
      as the new one, as KVO's `.old` option does, and the value is set to 1. It must receive \
      0 as the old value.
      """,
    sizing: "One observer and one set: the option exists or it does not.",
    chapter: TutorialChapter.options.path
  ) { design in
    if let reason = design.inapplicability(for: .oldValue) { return .notApplicable(reason) }
    let received = deliveries(to: design, asking: \.wantsOld, setting: [1])
    return if received.contains(.old(0)) {
      .holds("received the previous value 0, then the new value 1")
    } else if design.has(.oldValue) {
      .flaw("received \(received), no old value, though .old was asked for")
    } else {
      .flaw("no option to ask for it: received only the new value 1")
    }
  }

  static let unsubscribeDuringNotification = Scenario(
    .unsubscribeDuringNotification,
    title: "an observer removed by another during a notification is not called for it",
    story: """
      Fifty owners subscribe. Whichever is called first unsubscribes the other 49, as a \
      screen that closes its child screens does. None of the 49 should then be called for \
      the change under way: its owner has said it is gone, and may already be tearing down. \
      Counting the removed observers still called makes the result the same whatever order \
      the stage calls them in.
      """,
    sizing: """
      50 owners, 49 of them removed: past RxSwift's 31 observers kept in order, so the removal \
      happens inside a dictionary-backed bag too, and counting the 49 gives the same verdict \
      whatever order the design calls them in.
      """,
    chapter: TutorialChapter.concurrency.path
  ) { design in
    if let reason = design.inapplicability(for: .unsubscribe) { return .notApplicable(reason) }
    guard design.has(.unsubscribe) else {
      return .flaw("no way to unsubscribe, during a notification or ever")
    }
    let owners = LifetimeTracker().makeOwners(50)
    let observable = design.makeObservable(0)
    var removalDone = false
    var lateCalls = 0
    for owner in owners {
      observable.subscribe(
        ScenarioSubscription(owner: owner) { [weak observable] delivery in
          // Only the set's deliveries count: a design that sends its current value on
          // subscribing calls each observer once before the set, outside any notification.
          guard delivery.newValue != nil else { return }
          if removalDone {
            lateCalls += 1
            return
          }
          removalDone = true
          for other in owners where other !== owner {
            // The same owner and key as its subscription: what unsubscribing needs.
            observable?.unsubscribe(ScenarioSubscription(owner: other) { _ in })
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
    .reentrantSetEndsOnLatest,
    title: "when an observer sets a new value inside its callback, every observer's last received "
      + "value is the final one",
    story: """
      Sixteen observers subscribe. The value is set to 1, and whichever observer is called \
      first sets it to 2 from inside its callback, as an observer that corrects or clamps a \
      value does. Every observer's last received value must be 2, the value the observable \
      ends with. A stage that delivers the nested set at once, depth first, hands 2 to \
      everyone and then goes on handing out the stale 1. One that reads the value again for \
      each call, as stages 1 to 3 do after their articles, ends everyone on 2 and passes; \
      `reentrant-set-seen-once-in-order` shows what it gets wrong instead.
      """,
    sizing: """
      16 observers: whoever is called first sets again, so 15 are still waiting when it does. \
      The verdict counts observers that end on a stale value, not their order, so it does not \
      depend on how the design stores them.
      """,
    chapter: TutorialChapter.concurrency.path
  ) { design in
    correctedInsideACallback(design) { observers, received in
      let stale = received.count { $0.last != 2 }
      return stale == 0
        ? .holds("all \(observers) observers ended on the final value 2")
        : .flaw(
          "\(stale) of \(observers) observers ended on the stale value 1, though the value is 2: "
            + "the nested set reached them first")
    }
  }

  /// The experiment of both re-entrant scenarios: sixteen observers subscribe, the value is set
  /// to 1, and whichever observer is called first sets it to 2 from inside its callback. When the
  /// observable ends on 2, `judge` is handed the number of observers and the values each
  /// received, in order, while the owners still live.
  private static func correctedInsideACallback(
    _ design: ObservableDesign, judge: (_ observers: Int, _ received: [[Int]]) -> Outcome
  ) -> Outcome {
    let owners = LifetimeTracker().makeOwners(16)
    let observable = design.makeObservable(0)
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
    return withExtendedLifetime(owners) {
      final == 2
        ? judge(owners.count, logs.map(\.entries))
        : .flaw(
          "the value set inside the callback was lost: the outer set stored \(final) after it, "
            + "as the callback ran before the outer write")
    }
  }

  static let reentrantSetSeenOnceInOrder = Scenario(
    .reentrantSetSeenOnceInOrder,
    title: "when an observer sets a new value inside its callback, every observer receives each "
      + "value once, in the order set",
    story: """
      The same experiment as `reentrant-set-ends-on-latest`, judged another way. Sixteen \
      observers subscribe; the value is set to 1, and whichever observer is called first sets \
      it to 2 from inside its callback. Two values were set, 1 then 2, so every observer must \
      receive exactly 1, then 2: each change once, in the order it was made. A design that \
      delivers the nested set at once, depth first, hands the later observers 2 before 1. One \
      that also reads the value again for each call, as the three UZObservable ages do, hands \
      them 2 twice and 1 never: they end on the latest value, yet saw one change twice and \
      the other not at all.
      """,
    sizing: """
      16 observers: whoever is called first sets again, so 15 are still waiting when it does. \
      The verdict looks at what each observer received, not at the order between observers, \
      so it does not depend on how the design stores them.
      """,
    chapter: TutorialChapter.concurrency.path
  ) { design in
    correctedInsideACallback(design) { observers, received in
      let wrong = received.count { $0 != [1, 2] }
      if wrong == 0 {
        return .holds("all \(observers) observers received 1, then 2, once each")
      }
      let neverOne = received.count { !$0.contains(1) }
      let twice = received.count { Set($0).count < $0.count }
      let reversed = received.count {
        guard let one = $0.firstIndex(of: 1), let two = $0.firstIndex(of: 2) else { return false }
        return two < one
      }
      let neverTwo = received.count { !$0.contains(2) }
      let parts = [
        (neverOne, "never received 1"), (twice, "received a value twice"),
        (reversed, "received 2 before 1"), (neverTwo, "never received 2"),
      ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
      return .flaw(
        "\(wrong) of \(observers) observers did not receive 1 then 2, once each: "
          + parts.joined(separator: ", "))
    }
  }

  static let sendable = Scenario(
    .sendable,
    title: "the observable may be shared across threads (it is `Sendable`)",
    story: """
      Asks the compiler whether the stage's `Observable<Int>` conforms to `Sendable`: an \
      overloaded function has one version for any type and one for `Sendable` types, and \
      overload resolution picks the second only when the conformance exists. A type that is \
      not `Sendable` cannot be shared between tasks or threads in Swift 6 mode; none of the \
      seed designs has a lock, so none can claim it.
      """,
    sizing: "no size: a question put to the compiler.",
    chapter: TutorialChapter.concurrency.path
  ) { design in
    design.isSendable
      ? .holds("\(design.typeName) is Sendable: threads may share it")
      : .flaw(
        "\(design.typeName) is not Sendable: sharing it across threads does not compile in "
          + "Swift 6 mode")
  }
}

// MARK: - Helpers

/// The experiment of both dead-entry scenarios: 1,000 fresh owners subscribe, each under its own
/// name, and are all released; `then` goes on with the observable and the owners' tracker. A
/// flaw when some owners outlive their release, kept alive by the observable.
private func afterReleasing1000Owners(
  on design: ObservableDesign,
  then: (any ScenarioObservable, LifetimeTracker) -> Outcome
) -> Outcome {
  guard design.has(.storedEntryCount) else {
    return .notApplicable(
      design.inapplicable[.storedEntryCount]
        ?? "the \(noun(design)) does not report how many entries it stores: nothing to count")
  }
  let tracker = LifetimeTracker()
  let observable = design.makeObservable(0)
  var owners = tracker.makeOwners(1_000)
  for owner in owners {
    observable.subscribe(ScenarioSubscription(owner: owner) { _ in })
  }
  owners.removeAll()
  guard tracker.liveCount == 0 else {
    return .flaw(
      "\(grouped(tracker.liveCount)) of 1,000 owners still alive after they were released: the "
        + "observable holds them strongly")
  }
  return then(observable, tracker)
}

/// What one owner receives, in order, from a fresh observable of `design` holding `start`, when
/// it subscribes asking for what `asking` names and the value is set to each of `values`.
private func deliveries(
  to design: ObservableDesign, holding start: Int = 0,
  asking: WritableKeyPath<ScenarioSubscription, Bool>? = nil, setting values: some Sequence<Int>
) -> [Delivery] {
  let owner = LifetimeTracker().makeOwner()
  let observable = design.makeObservable(start)
  let log = ValueLog<Delivery>()
  var subscription = ScenarioSubscription(owner: owner) { log.append($0) }
  if let asking { subscription[keyPath: asking] = true }
  observable.subscribe(subscription)
  return withExtendedLifetime(owner) {
    for value in values {
      observable.value = value
    }
    return log.entries
  }
}

/// The experiment of both strong-capture scenarios: an owner subscribes to `observable` with a
/// closure that captures it strongly, as a closure that uses `self` without `[weak self]` does;
/// `beforeDropping` goes on with its subscription, the last outside reference to the owner is
/// dropped, and `afterDropping` runs. Whether the owner was then freed.
private func strongCaptureFreed(
  from observable: any ScenarioObservable,
  beforeDropping: (ScenarioSubscription) -> Void = { _ in }, afterDropping: () -> Void = {}
) -> Bool {
  let tracker = LifetimeTracker()
  var owner: ScenarioOwner? = tracker.makeOwner()
  weak let weakOwner = owner
  do {
    // The request holds its owner: it must be gone before the owner is dropped.
    var subscription = ScenarioSubscription(owner: owner!) { _ in }
    subscription.capturesOwnerStrongly = true
    observable.subscribe(subscription)
    beforeDropping(subscription)
  }
  owner = nil
  afterDropping()
  return weakOwner == nil && tracker.deinitCount == 1
}

/// Says how the experiment was phrased for a design that hands the owner to its handler.
private func handedNote(_ design: ObservableDesign) -> String {
  design.has(.handsOwnerToHandler)
    ? " (phrased for this \(noun(design)): the handler is handed its owner instead of "
      + "capturing it)" : ""
}

/// What an evidence line calls `design`: "stage" for one of this package's stages,
/// "observable" for any other, a learner's or a reader's own.
private func noun(_ design: ObservableDesign) -> String {
  if case .stage = design.role { "stage" } else { "observable" }
}

/// "1 entry", "1,001 entries".
private func entries(_ count: Int) -> String {
  count == 1 ? "1 entry" : "\(grouped(count)) entries"
}

/// "1, 2, 3", or "nothing".
private func list(_ values: [Int]) -> String {
  values.isEmpty ? "nothing" : values.map(String.init).joined(separator: ", ")
}

extension ValueLog<Int> {
  /// Appends a value when there is one.
  fileprivate func append(_ value: Int?) {
    if let value { append(value) }
  }
}
