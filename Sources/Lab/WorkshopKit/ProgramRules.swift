// What one exercise promises, as the generated programs check it: a few lines of rules, read
// by the model in ProgramRun. The model is not any solution's code: it is the promise, with
// leeway where the exercise leaves a choice to the learner.

/// The promise of one exercise, for its generated programs.
struct ProgramRules {
  /// How observers are told apart, and what a second bind does.
  enum Rebind {
    /// Each bind is a new closure with an id of its own (exercise 1): a slot is bound again
    /// only once its closure is removed.
    case newID
    /// A second bind stores a second entry beside the first (exercise 4).
    case addsAnEntry
    /// A second bind replaces the first, which keeps its place (exercise 2).
    case replacesInPlace
    /// A second bind replaces the first; where the new one goes is not promised.
    case replaces
  }

  /// Whether a removal reaches a set under way.
  enum Removal {
    /// The set under way may still call an observer removed after it began, once.
    case mayFinishTheSet
    /// Once `remove` returns, the observer is never called again (exercise 6).
    case immediate
  }

  /// Sets made from inside a closure.
  enum Nesting {
    /// No closure sets the value.
    case none
    /// Either at once, inside the set under way, or after it: each value reaches each
    /// observer once (exercise 6).
    case either
    /// Queued: every observer is told of one set before anyone is told of the next
    /// (exercise 7).
    case queued
  }

  /// When the closure of an observer whose owner is gone may still be called.
  enum Released {
    /// Never, once the owner is gone.
    case never
    /// In the set under way when it went, not after.
    case notAfterTheSet
    /// Whenever: nothing holds the owner weakly (exercise 3).
    case mayStillBeCalled
  }

  /// The exercise: 1 to 9.
  var exercise: Int
  /// The names of the slots a program binds, in the learner's terms ("A", "P's label").
  var slots: [String]
  /// The owner of each slot, by index into `owners`; `nil` when there are none.
  var ownerOfSlot: [Int]? = nil
  /// The owners' names.
  var owners: [String] = []
  var rebind: Rebind
  var removal: Removal? = .mayFinishTheSet
  /// Whether a program may remove an id removed before (exercise 1).
  var removesOldIDs = false
  var nesting: Nesting = .none
  var released: Released = .never
  /// Whether calls within one set follow the order of binding.
  var ordered: Bool
  /// Whether observers may ask for `.initial` and `.old`.
  var hasOptions = false
  /// Whether a handler is handed its owner (exercise 8).
  var handsTheOwner = false
  /// When the entries of released owners are dropped, and their closures freed.
  var cleansOnSet = false
  var cleansOnBind = false
}

extension ProgramRules {
  /// The slots of most exercises, each its own owner where there are owners: a program uses
  /// A to D, and a long one all eight.
  static let eightSlots = ["A", "B", "C", "D", "E", "F", "G", "H"]

  /// Exercise 1: closures removed by their id.
  static let removableClosures = ProgramRules(
    exercise: 1, slots: eightSlots, rebind: .newID, removesOldIDs: true,
    ordered: true)
  /// Exercise 2: closures by key, called in the order their keys were first bound.
  static let keysInOrder = ProgramRules(
    exercise: 2,
    slots: ["title", "badge", "count", "label", "icon", "hint", "menu", "note"],
    rebind: .replacesInPlace,
    ordered: true)
  /// Exercise 3: closures by owner and key, in no promised order.
  static let ownersAndKeys = ProgramRules(
    exercise: 3, slots: ["P's label", "P's badge", "Q's label", "Q's badge"],
    ownerOfSlot: [0, 0, 1, 1], owners: ["P", "Q"], rebind: .replaces,
    released: .mayStillBeCalled, ordered: false)
  /// Exercise 4: weak owners, dead entries dropped on set and on bind.
  static let cleanOnSet = ProgramRules(
    exercise: 4, slots: eightSlots, ownerOfSlot: Array(0..<8),
    owners: eightSlots, rebind: .addsAnEntry, removal: nil,
    released: .notAfterTheSet, ordered: true, cleansOnSet: true, cleansOnBind: true)
  /// Exercise 5: weak owners, one entry each; dead entries dropped on bind.
  static let oneEntryPerObserver = ProgramRules(
    exercise: 5, slots: eightSlots, ownerOfSlot: Array(0..<8),
    owners: eightSlots, rebind: .replaces, removal: nil,
    released: .notAfterTheSet, ordered: false, cleansOnBind: true)
  /// Exercise 6: stage 4, a removal reaching the set under way.
  static let removeAtOnce = ProgramRules(
    exercise: 6, slots: eightSlots, ownerOfSlot: Array(0..<8),
    owners: eightSlots, rebind: .replaces, removal: .immediate, nesting: .either,
    released: .notAfterTheSet, ordered: false, hasOptions: true, cleansOnSet: true)
  /// Exercise 7: stage 4, sets made during a notification queued.
  static let queueNestedSets = ProgramRules(
    exercise: 7, slots: eightSlots, ownerOfSlot: Array(0..<8),
    owners: eightSlots, rebind: .replaces, nesting: .queued,
    released: .notAfterTheSet, ordered: false, hasOptions: true, cleansOnSet: true)
  /// Exercise 9: exercise 6's promise, on one thread, of an observable threads may share.
  static let sendable: ProgramRules = {
    var rules = removeAtOnce
    rules.exercise = 9
    return rules
  }()
  /// Exercise 8: stage 4 handing each handler its owner, which nothing keeps alive.
  static let handOverTheOwner = ProgramRules(
    exercise: 8, slots: eightSlots, ownerOfSlot: Array(0..<8),
    owners: eightSlots, rebind: .replaces, released: .never, ordered: false,
    hasOptions: true, handsTheOwner: true, cleansOnSet: true)
}
