import ObserverScenarios

/// A check of one exercise's own promise, beside the scenarios that compare the stages.
///
/// The scenarios each run one fixed sequence, written to tell the stages apart. Every exercise
/// has one generated check (see ``GeneratedPrograms``); the others each run the sequence a
/// learner's mistake breaks where one program on one thread cannot see it: threads, locks
/// held, the main actor. Each is run by the adapter of the exercises it belongs to (see
/// ``ExerciseAdapter/run(_:)``) and listed, in the catalogue, under the exercises it grades.
package enum Check: String, Sendable, Hashable, CaseIterable, Codable {
  /// Exercise 9: threads that add, remove and set at once lose nothing.
  case threadsShareIt = "threads-share-it"
  /// Exercise 9: a closure may read, add, remove and set, with no lock held around it.
  case closureUsesTheObservable = "closure-uses-the-observable"
  /// Exercise 9: while a closure runs, another thread may use the observable.
  case otherThreadDuringClosure = "another-thread-while-a-closure-runs"
  /// Exercise 9: the `.initial` call runs with no lock held: another thread may use the
  /// observable meanwhile.
  case initialCallWithNoLockHeld = "initial-call-with-no-lock-held"
  /// Exercise 9: what a removed, replaced or dead observer's closure captured is freed with no
  /// lock held, since its deinit may use the observable.
  case capturesFreedWithNoLockHeld = "captures-freed-with-no-lock-held"
  /// Exercise 9: one thread sets 1, 2, 3, … while another adds observers with `.initial`:
  /// each is shown the value it was added at, then every later one, once.
  case addedWhileAnotherThreadSets = "added-while-another-thread-sets"
  /// Exercise 9: two threads set values of eight numbers and a string while others read the
  /// value and add observers: every value read or delivered is whole and was set, each set's
  /// old and new value reach every observer once, each thread's values in the order it set them.
  case valuesSetOnTwoThreads = "values-set-on-two-threads"
  /// Exercise 10: a screen opened on saved scores shows them before its init returns.
  case screenOpensOnSavedScores = "screen-opens-on-saved-scores"
  /// Exercise 10: scores set on another thread reach the screen on the main thread, in order.
  case screenShowsOnMainThread = "screen-shows-on-the-main-thread"
  /// Exercise 10: the screen and the saver each get every score, in order, once.
  case everyScoreToBothInOrder = "every-score-to-both-in-order"
  /// Exercise 10: a closed screen shows nothing more, and is freed once let go.
  case closedScreenStopsAndIsFreed = "closed-screen-stops-and-is-freed"
  /// Exercise 10: a screen let go without closing is freed, and shows nothing more.
  case screenLetGoIsFreed = "screen-let-go-is-freed"
  /// Exercise 10: a screen closed while a score is on its way to the main actor shows nothing
  /// of it.
  case closedWithAScoreOnItsWay = "closed-with-a-score-on-its-way"
  /// Exercise 10: a score set on the main actor after one on its way from another thread is
  /// shown after it: the screen ends on the latest.
  case latestScoreShownLast = "latest-score-shown-last"

  /// Exercise 10: scores set, on the main actor or on another thread, are what a screen
  /// opened after `set` returns shows first.
  case setSeenWhenItReturns = "a-set-is-seen-when-it-returns"
  /// Exercise 10: screens opened on the main actor while another thread sets 1, 2, 3, … each
  /// show the value they opened on, then every later one, in order, none skipped.
  case openedWhileAnotherThreadSets = "opened-while-another-thread-sets"

  /// Exercise 11: a label opened on the score shows it before its init returns.
  case labelOpensOnTheScore = "label-opens-on-the-score"
  /// Exercise 11: after a change, the label shows the new score, never the one it replaced.
  case showsTheNewScore = "shows-the-new-score-not-the-old"
  /// Exercise 11: changes in turns of their own each reach the label, not the first alone.
  case everyChangeAfterTheFirst = "every-change-after-the-first"
  /// Exercise 11: several changes in one turn of the main actor: the label ends on the last.
  case severalChangesInOneTurn = "several-changes-in-one-turn"
  /// Exercise 11: a score set while the label shows another is shown after it.
  case changeMadeWhileShowing = "a-change-made-while-showing"
  /// Exercise 11: a closed label shows nothing more, though its tracking fires once more.
  case closedLabelShowsNothingMore = "closed-label-shows-nothing-more"
  /// Exercise 11: a label let go is freed at once, and the player once everything is let go.
  case labelLetGoIsFreed = "label-let-go-is-freed"

  // Generated programs (see ``GeneratedPrograms``): many short programs over the exercise's
  // API, checked against a model of its promise; the shortest failing one is the evidence.

  /// Exercise 1: binds, removals (once, twice, of old ids) and sets, closures removing
  /// themselves or others and binding newcomers mid-set.
  case generatedRemovals = "generated-binds-and-removals"
  /// Exercise 2: keys bound, bound again, removed and bound again, in order, mid-set too.
  case generatedKeysInOrder = "generated-keys-in-order"
  /// Exercise 3: owners and keys bound, bound again, removed, owners let go.
  case generatedOwnersAndKeys = "generated-owners-and-keys"
  /// Exercise 4: observers let go between and during sets; what a set must drop and free.
  case generatedReleases = "generated-releases-and-sets"
  /// Exercise 5: observers bound again, let go, between and during sets.
  case generatedRebinds = "generated-binds-again"
  /// Exercise 6: removals, additions and sets from inside closures, `.initial` and `.old`.
  case generatedRemovalsMidSet = "generated-removals-mid-set"
  /// Exercise 7: sets from inside closures, chained, with removals and `.old`.
  case generatedNestedSets = "generated-nested-sets"
  /// Exercise 8: observers added, removed and let go, each handler handed its own.
  case generatedHandedOwners = "generated-handed-owners"
  /// Exercise 9: exercise 6's programs, on one thread: removals, additions and sets from
  /// inside closures, `.initial` and `.old`.
  case generatedSendableOnOneThread = "generated-programs-on-one-thread"
  /// Exercise 10: screens opened, closed and let go, savers started, scores set on the main
  /// actor and on other threads, checked after each step.
  case generatedScreens = "generated-screens-and-scores"
  /// Exercise 11: labels opened, closed and let go, scores set one or several to a turn and
  /// from inside a display, checked after each turn of the main actor.
  case generatedLabels = "generated-labels-and-changes"
}

extension Check {
  /// Whether it runs generated programs (``GeneratedPrograms``) rather than one fixed sequence.
  package var isGenerated: Bool { rawValue.hasPrefix("generated-") }
}

/// One thing an exercise is graded on: a scenario shared with the stages, or a check of the
/// exercise's own promise.
package enum Criterion: Hashable, Sendable {
  /// A comparison scenario.
  case scenario(Scenario.Name)
  /// A check of the exercise's promise.
  case check(Check)

  /// Its name, as the grading child and the JSON output write it.
  package var name: String {
    switch self {
    case .scenario(let name): name.rawValue
    case .check(let check): check.rawValue
    }
  }

  /// The criterion called `name`, if there is one.
  package init?(name: String) {
    if let scenario = Scenario.Name(rawValue: name) {
      self = .scenario(scenario)
    } else if let check = Check(rawValue: name) {
      self = .check(check)
    } else {
      return nil
    }
  }
}
