import ObserverScenarios

/// A check of one exercise's own promise, beside the scenarios that compare the stages.
///
/// The scenarios each run one fixed sequence, written to tell the stages apart. Every exercise
/// has one generated check (see ``GeneratedPrograms``); the others each run the sequence a
/// learner's mistake breaks where one program on one thread cannot see it: threads, and locks
/// held while another thread waits. Each is run by the adapter of the exercises it belongs to (see
/// ``ExerciseAdapter/run(_:)``) and listed, in `Exercise.all`, under the exercises it grades.
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
  /// Exercise 9: two threads set values of ten numbers and a string while others read the
  /// value and add observers: every value read or delivered is whole and was set, each set's
  /// old and new value reach every observer once, each thread's values in the order it set them.
  case valuesSetOnTwoThreads = "values-set-on-two-threads"

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
  /// from inside a display, labels closed or let go in the turn a score is set, checked after
  /// each turn of the main actor.
  case generatedLabels = "generated-labels-and-changes"

  /// Whether a program of this check fails again when run alone: its generated programs run an
  /// observable on one thread, so a failing one, run by its number in a fresh process, shows the
  /// same failure, and a crashing one can be shrunk there. Not an app's (exercises 10 and 11),
  /// whose programs race the main actor, nor a fixed sequence.
  package var replaysAlone: Bool {
    rawValue.hasPrefix("generated-") && self != .generatedScreens && self != .generatedLabels
  }
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
