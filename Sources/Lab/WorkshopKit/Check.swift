import ObserverScenarios

/// A check of one exercise's own promise, beside the scenarios that compare the stages.
///
/// The scenarios each run one fixed sequence, written to tell the stages apart; a check runs
/// the sequence a learner's mistake breaks: removal among several observers, two owners under
/// one key, two nested sets in one handler, threads. Each is run by the adapter of the
/// exercises it belongs to (see ``ExerciseAdapter/run(_:)``) and listed, in the catalogue,
/// under the exercises it grades. Its ``title`` says what each checks.
package enum Check: String, Sendable, Hashable, CaseIterable, Codable {
  case removesOneOfSeveral = "removes-one-of-several"
  case removesTwiceThenBinds = "removes-twice-then-binds"
  case reboundKeyKeepsItsPlace = "rebound-key-keeps-its-place"
  case removedKeyBoundAgainGoesLast = "removed-key-bound-again-goes-last"
  case twoOwnersOneKey = "two-owners-one-key"
  case oneOwnerTwoKeys = "one-owner-two-keys"
  case setDropsEveryDeadEntry = "set-drops-every-dead-entry"
  case secondBindReplacesTheFirst = "second-bind-replaces-the-first"
  case rebindAmongSeveral = "rebind-among-several"
  case removedMidNotificationAmongSeveral = "removed-mid-notification-among-several"
  case removedAndAddedAgainMidNotification = "removed-and-added-again-mid-notification"
  case twoNestedSetsInOrder = "two-nested-sets-in-order"
  case nestedSetsOldValues = "nested-sets-old-values"
  case laterSetDelivered = "later-set-delivered"
  case releasedDuringSet = "released-during-a-set"
  case handsItsOwnObserver = "hands-its-own-observer"
  case threadsShareIt = "threads-share-it"
  case closureUsesTheObservable = "closure-uses-the-observable"
  case otherThreadDuringClosure = "another-thread-while-a-closure-runs"
  case screenOpensOnSavedScores = "screen-opens-on-saved-scores"
  case screenShowsOnMainThread = "screen-shows-on-the-main-thread"
  case everyScoreToBothInOrder = "every-score-to-both-in-order"
  case closedScreenStopsAndIsFreed = "closed-screen-stops-and-is-freed"
  case screenLetGoIsFreed = "screen-let-go-is-freed"

  /// What it checks, in one line.
  package var title: String {
    switch self {
    case .removesOneOfSeveral: "bind A, B, C, remove A then B: only C is called"
    case .removesTwiceThenBinds: "removing an id twice, then binding again, removes nobody else"
    case .reboundKeyKeepsItsPlace: "a key bound again keeps its place and runs its new closure"
    case .removedKeyBoundAgainGoesLast: "a key removed and bound again goes last, called once"
    case .twoOwnersOneKey: "two owners of one class under one key each keep their closure"
    case .oneOwnerTwoKeys: "one owner with two keys keeps both and removes one at a time"
    case .setDropsEveryDeadEntry: "a set drops every dead entry, wherever it sits"
    case .secondBindReplacesTheFirst: "a second bind replaces the first closure"
    case .rebindAmongSeveral: "binding again among several observers leaves one entry each"
    case .removedMidNotificationAmongSeveral:
      "removals from inside closures, of later and earlier observers, act at once"
    case .removedAndAddedAgainMidNotification:
      "removed and added again mid-notification: the old closure does not run"
    case .twoNestedSetsInOrder: "a handler that sets 2 then 3: everyone ends on 3"
    case .nestedSetsOldValues: "queued sets deliver the values they replaced as old values"
    case .laterSetDelivered: "a set after a round with nested sets is delivered"
    case .releasedDuringSet: "an observer released during a set is skipped, not called"
    case .handsItsOwnObserver: "each handler is handed the observer it was added for"
    case .threadsShareIt: "threads adding, removing and setting at once lose nothing"
    case .closureUsesTheObservable: "a closure may read, add, remove and set: no lock held"
    case .otherThreadDuringClosure: "while a closure runs, another thread may use the observable"
    case .screenOpensOnSavedScores: "a screen shows the saved scores the moment it opens"
    case .screenShowsOnMainThread:
      "scores set on another thread reach the screen on the main thread"
    case .everyScoreToBothInOrder: "the screen and the saver each get every score, in order, once"
    case .closedScreenStopsAndIsFreed:
      "a closed screen shows nothing more, and is freed once let go"
    case .screenLetGoIsFreed: "a screen let go without closing is freed, and shows nothing more"
    }
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
