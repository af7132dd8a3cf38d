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
    /// At once, inside the set under way; each closure that set still calls is handed the
    /// value read again at its turn, the latest (exercises 1 to 5, as stages 1 to 3 do).
    case readAgain
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
  /// The names of the slots a program binds, in the learner's terms ("A", "P's label"): the
  /// slots of most programs; a wide program has more (``widened(to:)``).
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
  /// Whether calls within one set follow the order of binding. Where a second bind
  /// ``Rebind/replaces`` the first, the replacement may keep the first's place or go last:
  /// only the order of the others is promised.
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

  /// The name of slot `index` (from 0) of a wide program: A to Z, then "observer 27" on.
  static func slotName(_ index: Int) -> String {
    index < 26 ? String(UnicodeScalar(UInt8(65 + index))) : "observer \(index + 1)"
  }

  /// Whether a wide program may have more slots than ``slots``: where each slot is a letter,
  /// or a key named like one.
  var widens: Bool { slots == Self.eightSlots || exercise == 2 }

  /// The same rules over `count` slots, each its own owner where there are owners: a mistake
  /// that shows only past eight observers shows in a wide program.
  func widened(to count: Int) -> ProgramRules {
    guard widens, count > slots.count else { return self }
    var rules = self
    let extra = (slots.count..<count).map { exercise == 2 ? "key \($0 + 1)" : Self.slotName($0) }
    rules.slots += extra
    if ownerOfSlot != nil {
      rules.ownerOfSlot = Array(0..<count)
      rules.owners = rules.slots
    }
    return rules
  }

  /// Exercise 1: closures removed by their id.
  static let removableClosures = ProgramRules(
    exercise: 1, slots: eightSlots, rebind: .newID, removesOldIDs: true, nesting: .readAgain,
    ordered: true)
  /// Exercise 2: closures by key, called in the order their keys were first bound.
  static let keysInOrder = ProgramRules(
    exercise: 2,
    slots: ["title", "badge", "count", "label", "icon", "hint", "menu", "note"],
    rebind: .replacesInPlace, nesting: .readAgain,
    ordered: true)
  /// Exercise 3: closures by owner and key, in no promised order.
  static let ownersAndKeys = ProgramRules(
    exercise: 3, slots: ["P's label", "P's badge", "Q's label", "Q's badge"],
    ownerOfSlot: [0, 0, 1, 1], owners: ["P", "Q"], rebind: .replaces, nesting: .readAgain,
    released: .mayStillBeCalled, ordered: false)
  /// Exercise 4: weak owners, dead entries dropped on set and on bind.
  static let cleanOnSet = ProgramRules(
    exercise: 4, slots: eightSlots, ownerOfSlot: Array(0..<8),
    owners: eightSlots, rebind: .addsAnEntry, removal: nil, nesting: .readAgain,
    released: .notAfterTheSet, ordered: true, cleansOnSet: true, cleansOnBind: true)
  /// Exercise 5: weak owners, one entry each, in binding order; dead entries dropped on bind.
  static let oneEntryPerObserver = ProgramRules(
    exercise: 5, slots: eightSlots, ownerOfSlot: Array(0..<8),
    owners: eightSlots, rebind: .replaces, removal: nil, nesting: .readAgain,
    released: .notAfterTheSet, ordered: true, cleansOnBind: true)
  /// Exercise 6: stage 4, a removal reaching the set under way.
  static let removeAtOnce = ProgramRules(
    exercise: 6, slots: eightSlots, ownerOfSlot: Array(0..<8),
    owners: eightSlots, rebind: .replaces, removal: .immediate, nesting: .either,
    released: .notAfterTheSet, ordered: true, hasOptions: true, cleansOnSet: true)
  /// Exercise 7: stage 4, sets made during a notification queued.
  static let queueNestedSets = ProgramRules(
    exercise: 7, slots: eightSlots, ownerOfSlot: Array(0..<8),
    owners: eightSlots, rebind: .replaces, nesting: .queued,
    released: .notAfterTheSet, ordered: true, hasOptions: true, cleansOnSet: true)
  /// Exercise 9: exercise 6's promise, on one thread, of an observable threads may share.
  static let sendable: ProgramRules = {
    var rules = removeAtOnce
    rules.exercise = 9
    return rules
  }()
  /// Exercise 8: stage 4 handing each handler its owner, which nothing keeps alive.
  static let handOverTheOwner = ProgramRules(
    exercise: 8, slots: eightSlots, ownerOfSlot: Array(0..<8),
    owners: eightSlots, rebind: .replaces, released: .never, ordered: true,
    hasOptions: true, handsTheOwner: true, cleansOnSet: true)
}
