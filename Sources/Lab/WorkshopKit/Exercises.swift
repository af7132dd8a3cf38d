import ObserverScenarios
import Support

extension Exercise {
  /// The scenarios stage 2's starters already pass.
  private static let keptByStage2: [Scenario.Name] = [
    .deliversEveryChange, .explicitUnsubscribe, .strongCaptureFreedAfterUnsubscribe,
    .sameObserverTwice,
  ]

  /// The scenarios stage 3's starters already pass.
  private static let keptByStage3: [Scenario.Name] = [
    .deliversEveryChange, .deliveryOrder, .releasedObserverNotCalled, .deadEntriesRemoved,
    .sameKeyTwoObservers,
  ]

  /// The scenarios stage 4's starters already pass.
  private static let keptByStage4: [Scenario.Name] = [
    .deliversEveryChange, .deliveryOrder, .releasedObserverNotCalled, .deadEntriesRemoved,
    .deadEntriesRemovedOnSet, .explicitUnsubscribe, .strongCaptureFreedAfterUnsubscribe,
    .sameKeyTwoObservers, .sameObserverTwice, .initialValue, .oldValue,
  ]

  /// Every exercise, in the order a learner meets them.
  package static let all: [Exercise] = [
    Exercise(
      number: 1, slug: "01-removable-closures", title: "Give stage 1 a way to unsubscribe",
      chapter: .closures, startsFrom: "stage 1",
      task: """
        Stage 1 keeps its closures for ever. bindObserver now hands out an ObserverID; make \
        removeObserver(_:) take the closure bound with that id out of the observable, so that \
        it is never called again and whatever it captures can be freed. Keep calling the \
        others in the order they were bound.
        """,
      aimed: [.explicitUnsubscribe, .strongCaptureFreedAfterUnsubscribe],
      kept: [.deliversEveryChange, .deliveryOrder, .sameKeyTwoObservers],
      checks: [.generatedRemovals],
      hints: [
        "An array of bare closures cannot tell one closure from another. What could each "
          + "entry carry beside its closure?",
        "Store each closure together with the id bindObserver hands out, in the same array, "
          + "so the order of binding is kept.",
        "removeObserver(_:) can then keep every entry whose id differs: removeAll(where:) does "
          + "it in one line.",
      ]),
    Exercise(
      number: 2, slug: "02-call-in-order", title: "Make stage 2 call in subscription order",
      chapter: .keyedDict, startsFrom: "stage 2",
      task: """
        Stage 2 keeps its closures in a dictionary, so they are called in whatever order the \
        dictionary picks. Keep removal by key, and call the closures in the order their keys \
        were first bound.
        """,
      aimed: [.deliveryOrder],
      kept: keptByStage2,
      checks: [.generatedKeysInOrder],
      hints: [
        "A dictionary has no order of its own. Something beside it, or instead of it, has to "
          + "remember the order of binding.",
        "Keep the keys in an array, in the order they were first bound, and walk that array "
          + "when the value is set; a key bound again keeps its place.",
        "Removing a key must take it out of both places, or a removed key is still walked.",
      ]),
    Exercise(
      number: 3, slug: "03-keys-per-owner", title: "Stop two binds under one key colliding",
      chapter: .keyedDict, startsFrom: "stage 2",
      task: """
        Two screens that both bind under "label" collide: the second silently replaces the \
        first. bindObserver and removeObserver now take the owner beside the key; file each \
        closure under both, so that different owners never collide, while the same owner \
        binding the same key again still replaces its closure.
        """,
      aimed: [.sameKeyTwoObservers],
      kept: keptByStage2,
      checks: [.generatedOwnersAndKeys],
      hints: [
        "The dictionary's key is what decides a collision. What would make two owners' keys "
          + "different even when their strings are equal?",
        "ObjectIdentifier(owner) tells objects apart; a small Hashable struct can hold it and "
          + "the string together.",
        "Use that struct as the dictionary's key in bind and in remove alike.",
      ]),
    Exercise(
      number: 4, slug: "04-clean-on-set", title: "Clean stage 3's dead entries on set",
      chapter: .weakRefs, startsFrom: "stage 3",
      task: """
        Stage 3 skips the entries of released observers, but drops them only when somebody \
        binds. Make a set drop them too, so that an observable nobody binds to again does not \
        keep, and walk past, every dead entry for ever.
        """,
      aimed: [.deadEntriesRemovedOnSet],
      kept: keptByStage3,
      checks: [.generatedReleases],
      hints: [
        "Look at what bindObserver does before it appends: the same clean-up belongs in the "
          + "setter.",
        "An entry is dead when its weak observer reads nil; drop those before calling the "
          + "rest.",
      ]),
    Exercise(
      number: 5, slug: "05-one-entry-per-observer",
      title: "One entry per observer in stage 3", chapter: .weakRefs, startsFrom: "stage 3",
      task: """
        A screen whose setup runs twice binds twice, and stage 3 then calls it twice for every \
        change. Make a second bind by the same observer replace its first entry, so that each \
        observer has at most one.
        """,
      aimed: [.sameObserverTwice],
      kept: keptByStage3,
      checks: [.generatedRebinds],
      hints: [
        "Before appending, look for an entry whose observer is the one binding now.",
        "Compare objects with ===, not ==: it is the same object you are after, not an equal "
          + "one. Remove its entries, then append the new one.",
      ]),
    Exercise(
      number: 6, slug: "06-remove-at-once", title: "Remove at once, even mid-notification",
      chapter: .options, startsFrom: "stage 4",
      task: """
        Stage 4 notifies from a copy of its callbacks taken before the first call, so an \
        observer that another observer removes during a notification is still called for it. \
        Make removal immediate: once removeObserver returns, the removed observer is not \
        called again, not even later in the notification under way.
        """,
      aimed: [.unsubscribeDuringNotification],
      kept: keptByStage4,
      checks: [.generatedRemovalsMidSet],
      hints: [
        "The copy is fine for walking; the question is whether each callback in it is still "
          + "wanted at the moment its turn comes.",
        "Give each callback an identity (a counter is enough) and, just before calling one, "
          + "check that the live list still holds it.",
      ]),
    Exercise(
      number: 7, slug: "07-queue-nested-sets", title: "Queue a set made during a notification",
      chapter: .options, startsFrom: "stage 4",
      task: """
        An observer that sets the value from inside its closure starts a second notification \
        before the first ends, and the observers after it then receive the new value first and \
        the stale one last. Queue a set made during a notification and deliver it once the \
        current round is done, so that every observer ends on the latest value.
        """,
      aimed: [.reentrantSetEndsOnLatest, .reentrantSetSeenOnceInOrder],
      kept: keptByStage4,
      checks: [.generatedNestedSets],
      hints: [
        "The setter needs to know whether a notification is already under way: a Boolean "
          + "property is enough on one thread.",
        "When one is under way, store the value and append the change to a queue instead of "
          + "notifying; the outer setter empties the queue, in order, before it returns.",
      ]),
    Exercise(
      number: 8, slug: "08-hand-over-the-owner", title: "Hand the owner to the handler",
      chapter: .concurrency, startsFrom: "stage 4",
      task: """
        Every handler is handed its observer, so no handler has to capture it; the observer \
        is held weakly. Yet an observer added to the starter is never freed, and its handler \
        runs for ever. Find what keeps it alive, then decide where the observable keeps each \
        observer so that its handler is still handed it on every call, and nothing the \
        observable stores keeps it alive.
        """,
      aimed: [
        .strongCaptureFreedWithoutUnsubscribe, .releasedObserverNotCalled, .deadEntriesRemoved,
        .deadEntriesRemovedOnSet,
      ],
      kept: [
        .deliversEveryChange, .deliveryOrder, .explicitUnsubscribe,
        .strongCaptureFreedAfterUnsubscribe, .sameKeyTwoObservers, .sameObserverTwice,
        .initialValue, .oldValue,
      ],
      checks: [.generatedHandedOwners],
      hints: [
        "Find what captures observer: as long as the observable keeps it, it keeps the "
          + "observer.",
        "The observer may live in one weak place only: in that closure, captured weakly, or in "
          + "the callback's weak reference, handed to the closure at each call. Either way, a "
          + "call whose observer is gone is skipped.",
      ]),
    Exercise(
      number: 9, slug: "09-sendable", title: "Make an observable Sendable, lock let go",
      chapter: .concurrency, startsFrom: "stage 4 with immediate removal (exercise 6's answer)",
      task: """
        Make Observable Sendable, so that threads may share it: guard its state with a Mutex \
        from the Synchronization module. Never hold the lock while a closure runs: a closure \
        may read the value, add or remove observers, or set the value, and a Mutex locked \
        twice on one thread stops the program. Nor hold it while a removed closure is freed, \
        or while the .initial call runs: what a closure captured may use the observable in its \
        deinit. A removed observer must still not be called for a notification under way.
        """,
      aimed: [.sendable],
      kept: keptByStage4 + [.unsubscribeDuringNotification],
      checks: [
        .threadsShareIt, .closureUsesTheObservable, .otherThreadDuringClosure,
        .initialCallWithNoLockHeld, .capturesFreedWithNoLockHeld, .generatedSendableOnOneThread,
        .addedWhileAnotherThreadSets, .valuesSetOnTwoThreads,
      ],
      hints: [
        "Move every stored property into one State struct, and keep a Mutex<State> instead; "
          + "the class can then be final and Sendable.",
        "In the setter, take under the lock what you need (the old value, the callbacks to "
          + "call), let the lock go, then call them one by one.",
        "Before each call, lock again just long enough to check the callback is still there, "
          + "and call it after unlocking.",
        "Callbacks you take out of the list under the lock (removed, replaced, or of released "
          + "observers) can be returned from withLock, so that they are freed after it.",
      ]),
    Exercise(
      number: 10, slug: "10-scores-on-the-main-actor",
      title: "Port the scores to stage 5 on the main actor", chapter: .keepingScore,
      startsFrom: "chapter 7's scores, screen and saver, on stage 4",
      task: """
        A game may end on any thread, and set the latest scores there; stage 4 then calls the \
        screen's handler on that thread, and a screen's labels must be set on the main thread \
        only. Port LatestScores to stage 5 and make ScoresScreen a @MainActor class whose \
        handler runs on the main actor, with .initial; the saver may save on any thread. A \
        closed screen, or one let go, must show nothing more and be freed. There is no \
        observable to grade here: its generated programs drive your model, screen and saver, \
        from the main actor and from other threads.
        """,
      aimed: [], kept: [],
      checks: [.generatedScreens],
      hints: [
        "Import Stage5Concurrency instead of Stage4Options: its Observable is Sendable, so a "
          + "game on any thread may set it. Then mark ScoresScreen @MainActor.",
        "In the screen's init, observe(options: .initial) { change in … }: called from "
          + "main-actor code, its handler runs on the main actor, wherever the value was set. "
          + "observeOnAnyThread would run it on the setting thread.",
        "observe(options:) returns an ObservationToken: keep it in a stored property, or the "
          + "subscription ends at once, and cancel it in close(). The saver keeps the token of "
          + "observeOnAnyThread the same way.",
      ]),
    Exercise(
      number: 11, slug: "11-observation-label", title: "Keep a label up to date with Observation",
      chapter: .inYourApp, startsFrom: "an @Observable player and a label that tracks it once",
      task: """
        Player is an @Observable class, and ScoreLabel keeps up with its score through \
        withObservationTracking. As shipped, the label shows the score before each change, \
        and hears the first change only: onChange runs before the write, and once. Make the \
        label show the latest score after every change, on the main actor, and nothing once \
        closed; a score set while a label shows (the display may set one) counts too. There \
        is no observable to grade here: its generated programs open labels, set the score on \
        the main actor, let the main actor run what your label queued, then read what it \
        showed.
        """,
      aimed: [], kept: [],
      checks: [.generatedLabels],
      hints: [
        "Read the score in withObservationTracking's first closure: it returns what that "
          + "closure returns, and tracks what it read. Show that value, and nothing read in "
          + "onChange, which runs before the new score is stored.",
        "In onChange, start the update later instead: Task { @MainActor in self?.update() } "
          + "runs once the write is done. Capture self weakly: the player keeps onChange until "
          + "its next change.",
        "A tracking fires once: let update() track again every time it runs, and return "
          + "early, showing nothing, once the label is closed.",
      ]),
  ]
}
