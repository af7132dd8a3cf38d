import Support

// A generated program: steps over one exercise's API, drawn from a seed, shrunk when it fails.

/// What a closure does when it is called with one value.
struct Reaction: Hashable {
  enum Action: Hashable {
    /// Removes its own observer: a one-shot observer.
    case removeItself
    /// Removes another slot's observer.
    case remove(Int)
    /// Binds a slot: a newcomer, another again, or its own slot again; where the exercise has
    /// options, asking for `.initial` now and then, or keeping the slot's earlier closures
    /// (`removeIfExists: false`).
    case bind(Int, initial: Bool = false, keep: Bool = false)
    /// Releases an owner.
    case release(Int)
    /// Sets the value.
    case set(Int)
    /// Removes a slot's observer, then sets the value.
    case removeThenSet(Int, Int)
    /// Sets the value of the program's second observable: a set of its own, under way inside
    /// a closure of the first.
    case setSecond(Int)
  }

  /// The value that makes it act.
  var on: Int
  var action: Action
  /// Whether it acts when told `on` as the old value, rather than as the new one.
  var onOld = false
  /// Whether it acts on its `.initial` call instead, whatever the value: an observer that
  /// wants the value once removes itself there.
  var onInitial = false
}

/// One step of a program, as the learner's code sees it.
enum Step: Hashable {
  /// Binds a slot (a key, an owner and key, an owner), asking for `.initial`, `.old` and
  /// `.new` as given, its closure doing `reaction`; with `keep`, where the exercise has
  /// options, it adds with `removeIfExists: false`, keeping the slot's earlier closures.
  case bind(
    Int, initial: Bool = false, old: Bool = false, new: Bool = true, Reaction? = nil,
    keep: Bool = false)
  /// Removes a slot's observer.
  case remove(Int)
  /// Removes again the first id a slot was bound under, removed before (exercise 1).
  case removeOldID(Int)
  /// Sets the value.
  case set(Int)
  /// Lets an owner go: the program holds it no more. A later bind of its slot binds a new
  /// owner, which may be given the address of the one let go.
  case release(Int)
  /// Reads the value: the grader reads nothing the program does not.
  case read
  /// Reads `observerCount`.
  case count
  /// The step, on the program's second observable: two observables of one type, neither
  /// leaking into the other.
  indirect case second(Step)
}

/// A program: the steps, in order.
struct Program: Hashable {
  var steps: [Step]
  /// How many slots it may use, where that is more than the exercise's own eight: a wide
  /// program (``ProgramRules/widened(to:)``); 0 otherwise.
  var width = 0
}

// MARK: - Generating

extension Program {
  /// A program of at most `length` steps for the exercise `rules` describes, over its first
  /// `slots` slots (all of them when `nil`).
  static func random(
    _ rules: ProgramRules, length: Int, slots: Int? = nil, using random: inout SeededRandom
  ) -> Program {
    let slots = min(slots ?? rules.slots.count, rules.slots.count)
    var steps: [Step] = []
    // Most programs start by binding two or three observers: a set over nobody shows little.
    let first = rules.nesting == .none ? random.pick(1...3) : random.pick(2...4)
    for slot in 0..<first { steps.append(bind(slot, slots, rules, &random)) }
    while steps.count < length {
      let slot = random.pick(0...(slots - 1))
      switch random.pick(1...10) {
      case 1...3: steps.append(bind(slot, slots, rules, &random))
      case 4...7:
        steps.append(.set(random.pick(1...4)))
        // Now and then the count, read after a set: what it stores shows there.
        if random.chance(30) { steps.append(.count) }
      case 8: steps.append(rules.removal != nil ? .remove(slot) : .set(random.pick(1...4)))
      case 9:
        if rules.removesOldIDs, random.chance(50) {
          steps.append(.removeOldID(slot))
        } else if let owners = rules.ownerOfSlot {
          steps.append(.release(owners[slot]))
          // Often a new owner at once, in the slot of the one let go: the allocator may give
          // it the same address.
          if random.chance(50) { steps.append(bind(slot, slots, rules, &random)) }
        } else if rules.removal != nil {
          steps.append(.remove(slot))
        }
      default: steps.append(random.chance(50) ? .read : .set(random.pick(1...4)))
      }
    }
    if case .set = steps.last {
    } else {
      steps.append(.set(random.pick(1...4)))
    }
    steps.append(random.chance(50) ? .count : .read)
    return Program(steps: steps)
  }

  /// The same program over two observables: about a third of its steps moved to the second,
  /// and some closures that set the first set the second instead.
  func overTwoObservables(using random: inout SeededRandom) -> Program {
    var program = self
    program.steps = steps.map { step in
      var step = step
      if case .bind(let slot, let initial, let old, let new, var reaction?, let keep) = step,
        case .set(let value) = reaction.action, random.chance(60)
      {
        reaction.action = .setSecond(value)
        step = .bind(slot, initial: initial, old: old, new: new, reaction, keep: keep)
      }
      return random.chance(35) ? .second(step) : step
    }
    return program
  }

  /// Whether a step is on the second observable, or a closure sets it.
  var usesSecond: Bool { steps.contains(where: \.usesSecond) }

  /// A program that binds and lets go of one slot over and over, `times` times, beside one to
  /// three observers bound first and kept: ids past 255, hundreds of owners made and freed
  /// (their addresses given again to new ones), and entries that must not pile up.
  static func churn(
    _ rules: ProgramRules, times: Int, using random: inout SeededRandom
  ) -> Program {
    let kept = random.pick(1...3)
    var steps = (0..<kept).map { Step.bind($0) }
    let churned = kept
    for round in 0..<times {
      steps.append(.bind(churned))
      if let owners = rules.ownerOfSlot {
        steps.append(.release(owners[churned]))
      } else if rules.removal != nil {
        steps.append(.remove(churned))
      }
      if round % 50 == 49 {
        steps.append(.set(random.pick(1...4)))
        steps.append(.count)
      }
    }
    // Then each kept observer removed, where the exercise removes, one after another.
    if rules.removal != nil {
      for slot in 0..<kept where random.chance(50) { steps.append(.remove(slot)) }
    }
    steps += [.set(random.pick(1...4)), .count, .read]
    return Program(steps: steps)
  }

  private static func bind(
    _ slot: Int, _ slots: Int, _ rules: ProgramRules, _ random: inout SeededRandom
  ) -> Step {
    let initial = rules.hasOptions && random.chance(25)
    let old = rules.hasOptions && random.chance(40)
    // Now and then an observer that asks for the old value, or the initial one, alone.
    let new = !(rules.hasOptions && (initial || old) && random.chance(20))
    var reaction =
      random.chance(rules.nesting == .none ? 45 : 60)
      ? self.reaction(slot, slots, rules, &random) : nil
    if old, random.chance(60) {
      reaction?.onOld = true
      // Told the old value 0, the value before the first set: it acts in the first set.
      if random.chance(40) { reaction?.on = 0 }
    } else if initial, reaction?.action == .removeItself, reaction?.on == 4 {
      // A one-shot observer that acts on its `.initial` call, made while it is being added:
      // it must be stored by then, or removing itself finds nothing, and it goes on being
      // called. (Chosen from what was drawn, so that every other program stays as it was.)
      reaction?.onInitial = true
    }
    // Now and then, where `removeIfExists` is asked, an observer added again beside itself.
    let keep = rules.hasOptions && random.chance(15)
    return .bind(slot, initial: initial, old: old, new: new, reaction, keep: keep)
  }

  private static func reaction(
    _ slot: Int, _ slots: Int, _ rules: ProgramRules, _ random: inout SeededRandom
  ) -> Reaction {
    let on = random.pick(1...4)
    let other = random.pick(0...(slots - 1))
    var actions: [Reaction.Action] = [.bind(other)]
    if rules.removal != nil {
      actions += [.removeItself, .removeItself, .remove(other), .remove(other)]
    }
    if rules.rebind != .newID { actions.append(.bind(slot)) }
    if rules.hasOptions {
      // A newcomer asking for `.initial` mid-set; an observer adding itself again, replacing
      // its closure while the set still holds it, or beside it.
      actions += [.bind(other, initial: true), .bind(slot), .bind(slot, keep: true)]
    }
    if let owners = rules.ownerOfSlot, rules.released != .mayStillBeCalled {
      actions.append(.release(owners[other]))
    }
    if rules.nesting != .none {
      // Always a larger value: a chain of sets ends.
      let later = on + random.pick(1...3)
      actions += [.set(later), .set(later)]
      if rules.removal != nil { actions.append(.removeThenSet(other, later)) }
    }
    return Reaction(on: on, action: actions[random.pick(0...(actions.count - 1))])
  }
}

// MARK: - Shrinking

extension Program {
  /// Smaller programs like this one, the likeliest to keep failing first: fewer steps, then
  /// simpler steps, then fewer observers, then smaller values.
  var smaller: [Program] {
    var candidates: [Program] = []
    // One observable, where two are not needed.
    if usesSecond { candidates.append(Program(steps: steps.map(\.onFirst), width: width)) }
    // Fewer steps: chunks, halves first, then one at a time.
    var size = steps.count / 2
    while size >= 1 {
      var start = 0
      while start + size <= steps.count {
        var shorter = steps
        shorter.removeSubrange(start..<(start + size))
        candidates.append(Program(steps: shorter, width: width))
        start += size
      }
      size /= 2
    }
    // Simpler steps.
    for (index, step) in steps.enumerated() {
      for simpler in step.simpler {
        var changed = steps
        changed[index] = simpler
        candidates.append(Program(steps: changed, width: width))
      }
    }
    // Fewer observers: a slot renamed to a lower one that is used already.
    let used = Set(steps.flatMap(\.slots)).sorted()
    for high in used.reversed() {
      for low in used where low < high {
        candidates.append(Program(steps: steps.map { $0.renaming(high, to: low) }, width: width))
      }
      // Or to the lowest slot not used, so that a program uses A, B, C before D.
      if let free = (0..<high).first(where: { !used.contains($0) }) {
        candidates.append(Program(steps: steps.map { $0.renaming(high, to: free) }, width: width))
      }
    }
    return candidates.filter { $0 != self }
  }
}

extension Step {
  /// What it does, in a few words, before it is done: "bind A", "set 2".
  func phrase(_ rules: ProgramRules) -> String {
    let name = { (slot: Int) in slot < rules.slots.count ? rules.slots[slot] : "slot \(slot + 1)" }
    switch self {
    case .bind(let slot, _, _, _, _, _): return "bind \(name(slot))"
    case .remove(let slot): return "remove \(name(slot))"
    case .removeOldID(let slot): return "remove \(name(slot))'s first id again"
    case .set(let value): return "set \(value)"
    case .release(let owner):
      return "let \(owner < rules.owners.count ? rules.owners[owner] : "owner \(owner + 1)") go"
    case .read: return "read the value"
    case .count: return "read observerCount"
    case .second(let step): return "on the second observable, \(step.phrase(rules))"
    }
  }

  /// The step on the first observable, its closure setting the first.
  var onFirst: Step {
    switch self {
    case .second(let step): return step.onFirst
    case .bind(let slot, let initial, let old, let new, var reaction?, let keep):
      guard case .setSecond(let value) = reaction.action else { return self }
      // A set of the first observable from its own closure ends only if it sets more.
      reaction.action = .set(value)
      let kept = value > reaction.on || reaction.onInitial ? reaction : nil
      return .bind(slot, initial: initial, old: old, new: new, kept, keep: keep)
    default: return self
    }
  }

  /// Whether it is on the second observable, or its closure sets it.
  var usesSecond: Bool {
    switch self {
    case .second: return true
    case .bind(_, _, _, _, let reaction?, _):
      if case .setSecond = reaction.action { return true }
      return false
    default: return false
    }
  }

  /// The slots it names.
  var slots: [Int] {
    switch self {
    case .second(let step): step.slots
    case .bind(let slot, _, _, _, let reaction, _):
      [slot] + (reaction.map { $0.action.slots } ?? [])
    case .remove(let slot), .removeOldID(let slot): [slot]
    case .set, .release, .read, .count: []
    }
  }

  /// Simpler forms of it: no reaction, fewer options, a smaller value.
  var simpler: [Step] {
    switch self {
    case .bind(let slot, let initial, let old, let new, let reaction, let keep):
      var steps: [Step] = []
      if keep { steps.append(.bind(slot, initial: initial, old: old, new: new, reaction)) }
      if !new {
        steps.append(.bind(slot, initial: initial, old: old, new: true, reaction, keep: keep))
      }
      if let reaction {
        steps.append(.bind(slot, initial: initial, old: old, new: new, nil, keep: keep))
        if reaction.onOld {
          var onNew = reaction
          onNew.onOld = false
          steps.append(.bind(slot, initial: initial, old: old, new: new, onNew, keep: keep))
        }
        // A closure acting on its `.initial` call acts whatever the value.
        if reaction.on > 1, !reaction.onInitial {
          var lowered = reaction
          lowered.on -= 1
          lowered.action = reaction.action.lowered(by: 1)
          steps.append(.bind(slot, initial: initial, old: old, new: new, lowered, keep: keep))
        }
        for action in reaction.action.simpler where action.setsAbove(reaction.on) {
          var simpler = reaction
          simpler.action = action
          steps.append(.bind(slot, initial: initial, old: old, new: new, simpler, keep: keep))
        }
      }
      if initial, new || old {
        steps.append(.bind(slot, initial: false, old: old, new: new, reaction, keep: keep))
      }
      if old, new || initial {
        steps.append(.bind(slot, initial: initial, old: false, new: new, reaction, keep: keep))
      }
      return steps
    case .set(let value): return value > 1 ? [.set(1), .set(value - 1)] : []
    // On the first observable instead, or simpler on the second.
    case .second(let step): return [step] + step.simpler.map { .second($0) }
    case .remove, .removeOldID, .release, .read, .count: return []
    }
  }

  func renaming(_ slot: Int, to other: Int) -> Step {
    let rename = { $0 == slot ? other : $0 }
    switch self {
    case .bind(let bound, let initial, let old, let new, let reaction, let keep):
      return .bind(
        rename(bound), initial: initial, old: old, new: new,
        reaction.map {
          var renamed = $0
          renamed.action = $0.action.renaming(slot, to: other)
          return renamed
        }, keep: keep)
    case .remove(let removed): return .remove(rename(removed))
    case .removeOldID(let removed): return .removeOldID(rename(removed))
    // Where each slot has its own owner (exercises 4 to 8), the owner goes with it.
    case .release(let owner): return .release(rename(owner))
    case .set, .read, .count: return self
    case .second(let step): return .second(step.renaming(slot, to: other))
    }
  }
}

extension Reaction.Action {
  var slots: [Int] {
    switch self {
    case .remove(let slot), .bind(let slot, _, _), .removeThenSet(let slot, _): [slot]
    case .removeItself, .release, .set, .setSecond: []
    }
  }

  var simpler: [Self] {
    switch self {
    case .removeThenSet(let slot, let value): [.remove(slot), .set(value)]
    case .bind(let slot, let initial, let keep) where initial || keep: [.bind(slot)]
    case .set(let value) where value > 2: [.set(value - 1)]
    case .setSecond(let value): value > 1 ? [.set(value), .setSecond(value - 1)] : [.set(value)]
    default: []
    }
  }

  /// Whether the value it sets, if any, is above `value`: a chain of sets then ends.
  func setsAbove(_ value: Int) -> Bool {
    switch self {
    case .set(let set), .removeThenSet(_, let set): set > value
    default: true
    }
  }

  /// With its value lowered along with the value that triggers it, so that it stays larger.
  func lowered(by amount: Int) -> Self {
    switch self {
    case .set(let value): .set(value - amount)
    case .removeThenSet(let slot, let value): .removeThenSet(slot, value - amount)
    default: self
    }
  }

  func renaming(_ slot: Int, to other: Int) -> Self {
    let rename = { $0 == slot ? other : $0 }
    switch self {
    case .remove(let removed): return .remove(rename(removed))
    case .bind(let bound, let initial, let keep):
      return .bind(rename(bound), initial: initial, keep: keep)
    case .removeThenSet(let removed, let value): return .removeThenSet(rename(removed), value)
    case .release(let owner): return .release(rename(owner))
    case .removeItself, .set, .setSecond: return self
    }
  }
}
