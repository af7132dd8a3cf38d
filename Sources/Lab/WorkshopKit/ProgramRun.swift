// One generated program, run on the learner's code with the model watching: every call the
// code makes is checked, as it comes, against what the rules allow at that moment; after each
// step, the counts and what was freed. The first difference is the program's failure.

import ObserverScenarios

/// What a bind asks for, where the exercise has options.
struct ProgramOptions {
  var initial = false
  var old = false
  var new = true
  /// Whether adding removes the observer's earlier closures first (`removeIfExists`).
  var removeIfExists = true
}

/// What a closure is called for.
enum ProgramCall {
  case initial, old, new
}

/// An exercise's observable, as generated programs drive it: made fresh for each program.
struct ProgramTarget {
  /// The observable, whose value and count the program sets and reads: once the program
  /// lets it go, it must be freed.
  var observable: any AdaptableObservable
  /// Binds `slot` for `owner` (`nil` where the exercise has none), asking for `.initial` and
  /// `.old` as given; the closure stored must call `call` with what it was called for, the
  /// value and, where the handler is handed one, its owner.
  var bind:
    (
      _ slot: Int, _ owner: AnyObject?, _ asked: ProgramOptions,
      _ call: @escaping (ProgramCall, Int, AnyObject?) -> Void
    ) -> Void
  /// Removes `slot`'s observer.
  var remove: (_ slot: Int, _ owner: AnyObject?) -> Void = { _, _ in }
  /// Removes again the first id `slot` was bound under (exercise 1).
  var removeOldID: (_ slot: Int) -> Void = { _ in }
}

/// An owner in a program, whose lifetime the program follows; a closure's capture is one too.
final class ProgramOwner: Sendable {}

/// A weak reference.
struct WeakObject {
  weak var object: AnyObject?
}

/// Runs one program on a target, with the model of `rules` watching.
final class ProgramRun {
  /// One closure bound: a slot's first, or a later one.
  final class Binding {
    let number: Int
    let slot: Int
    let label: String
    let wantsOld: Bool
    let wantsNew: Bool
    let reaction: Reaction?
    /// Whether it was neither removed nor replaced.
    var live = true
    var replacedBy: String?
    /// Whether it replaced a closure bound before for its slot, which it may take the place of.
    var isReplacement = false
    var awaitsInitial: Bool
    /// Whether its owner was let go; `cleaned` once its entry was dropped.
    var dead = false
    var cleaned = false
    var freedChecked = false
    var closure = WeakObject()

    /// Whether it asked to be told the old value, or the new.
    func wants(old: Bool) -> Bool { old ? wantsOld : wantsNew }

    /// "A's closure", "A's second closure".
    var closureName: String { label.contains("closure") ? label : "\(label)'s closure" }

    init(_ number: Int, slot: Int, label: String, asked: ProgramOptions, reaction: Reaction?) {
      self.number = number
      self.slot = slot
      self.label = label
      wantsOld = asked.old
      wantsNew = asked.new
      awaitsInitial = asked.initial
      self.reaction = reaction
    }
  }

  /// One set's notification: the observers it must reach, those it may reach, those reached.
  final class Round {
    let old: Int
    let new: Int
    /// The live bindings when it began; `nil` until it has (a queued set begins late).
    var snapshot: [Binding]?
    /// The last binding made before it began: later ones are newcomers.
    var lastNumber = 0
    var called: Set<Call> = []
    /// Whether a closure set the value while it was under way.
    var interrupted = false

    init(old: Int, new: Int) {
      self.old = old
      self.new = new
    }

    /// Its call of `binding`, of the old value or the new.
    func call(_ binding: Binding, old: Bool) -> Call {
      Call(binding: binding.number, old: old, value: old ? self.old : new)
    }
  }

  /// A call made: to whom, whether of the old value, and the value.
  struct Call: Hashable {
    let binding: Int
    let old: Bool
    let value: Int
  }

  private let rules: ProgramRules
  let target: ProgramTarget
  /// The program's second observable, of the same type, run with a model of its own, where
  /// the program has one: nothing done to either may show in the other.
  private var second: ProgramRun?
  /// Whether it is another run's second observable.
  private var isSecond = false
  private var owners: [ProgramOwner?]
  private var weakOwners: [WeakObject]
  private var bindings: [Binding] = []
  /// The live entries, in the order the promise keeps them.
  private var order: [Binding] = []
  private var value = 0
  private var rounds: [Round] = []
  private var current = 0
  private var calls = 0
  /// The calls made to newcomers, which may count for a later round.
  private var credits: Set<Call> = []
  /// What happened, step by step, in the learner's terms.
  private var story: [String] = []
  /// What the closures did during the step under way.
  private var reactions: [String] = []
  private(set) var failure: String?

  /// The most calls a program may make: more is a set that never ends.
  private let callBudget: Int

  init(_ rules: ProgramRules, target: ProgramTarget, steps: Int) {
    self.rules = rules
    self.target = target
    callBudget = 2000 + 100 * steps
    owners = rules.owners.map { _ in ProgramOwner() }
    weakOwners = owners.map { WeakObject(object: $0) }
  }

  /// Runs `program`: its failure, with the steps that led to it; `nil` when it kept the
  /// promise.
  static func failure(of program: Program, _ rules: ProgramRules, target: () -> ProgramTarget)
    -> (story: String, failure: String)?
  {
    var observables: [WeakObject] = []
    var told = ""
    do {
      let rules = rules.widened(to: program.width)
      let run = ProgramRun(rules, target: target(), steps: program.steps.count)
      if program.usesSecond {
        run.second = ProgramRun(rules, target: target(), steps: program.steps.count)
        run.second?.isSecond = true
      }
      observables = [run, run.second].compactMap { $0 }.map {
        WeakObject(object: $0.target.observable)
      }
      for step in program.steps {
        run.perform(step)
        if let failure = run.failure { return (run.told, failure) }
      }
      told = run.told
    }
    guard observables.contains(where: { $0.object != nil }) else { return nil }
    return (
      told + "; let the observable\(observables.count > 1 ? "s" : "") go",
      "\(observables.count > 1 ? "one was" : "it was") not freed: something it stores holds "
        + "it, such as a closure that captures self"
    )
  }

  /// The steps taken, one phrase each: "bind A, bind B; set 1, and A's closure removes A";
  /// steps repeated three times or more told once, with how many times: "300 times: bind B;
  /// remove B".
  var told: String { Self.folded(story).joined(separator: "; ") }

  /// `phrases`, with each run of a group of one to four phrases repeated three times or more
  /// told once.
  static func folded(_ phrases: [String]) -> [String] {
    var folded: [String] = []
    var start = 0
    while start < phrases.count {
      var best = (length: 1, times: 1)
      for length in 1...4 where start + 2 * length <= phrases.count {
        let group = phrases[start..<(start + length)]
        var times = 1
        while start + (times + 1) * length <= phrases.count,
          phrases[(start + times * length)..<(start + (times + 1) * length)].elementsEqual(group)
        {
          times += 1
        }
        if times >= 3, times * length > best.times * best.length { best = (length, times) }
      }
      let group = phrases[start..<(start + best.length)]
      if best.times >= 3 {
        folded.append("\(best.times) times: " + group.joined(separator: ", "))
      } else {
        folded.append(contentsOf: group)
      }
      start += best.length * best.times
    }
    return folded
  }

  // MARK: - Steps

  private func perform(_ step: Step) {
    // A crash's shrink tells each step as it starts, and as it ends: a step that crashes the
    // process is told by the first alone.
    let tells = GeneratedPrograms.tellsSteps && !isSecond
    if tells { GeneratedPrograms.report?("starting\t\(step.phrase(rules))") }
    defer {
      if tells, let last = story.last { GeneratedPrograms.report?("step\t\(story.count)\t\(last)") }
    }
    reactions = []
    var done: String?
    switch step {
    case .second(let step):
      guard let second else { return }
      let told = second.story.count
      second.perform(step)
      guard second.story.count > told else { return }
      story.append("on the second observable, \(second.story[told])")
      takeFailure(of: second)
      return
    case .bind(let slot, let initial, let old, let new, let reaction, let keep):
      done = bind(slot, initial: initial, old: old, new: new, keep: keep, reaction: reaction)
      if done != nil, rules.cleansOnBind { clean() }
    case .remove(let slot):
      done = remove(slot)
    case .removeOldID(let slot):
      guard let first = bindings.first(where: { $0.slot == slot }), !first.live else { return }
      target.removeOldID(slot)
      done = "remove \(rules.slots[slot])'s first id again"
    case .set(let newValue):
      let round = Round(old: value, new: newValue)
      rounds = [round]
      current = 0
      value = newValue
      if rules.cleansOnSet { clean() }
      begin(round)
      target.observable.value = newValue
      finishRounds()
      rounds = []
      done = "set \(newValue)"
    case .release(let owner):
      done = release(owner)
    case .read:
      done = "read the value"
    case .count:
      done = "read observerCount"
    }
    guard let done else { return }
    story.append(([done] + reactions.prefix(3)).joined(separator: ", and "))
    guard failure == nil else { return }
    checkFreed()
    // The value and the count, read only where the program reads them: code that cleans up as
    // it is read is graded on what a program that does not read sees.
    if failure == nil, case .read = step, target.observable.value != value {
      failure = "the value read \(target.observable.value), not \(value), the last value set"
    }
    if failure == nil, case .count = step { checkCount() }
  }

  /// The label of `slot`'s next closure: "A", then "A's second closure".
  private func labelOfNext(_ slot: Int) -> String {
    let name = rules.slots[slot]
    let generation = bindings.count { $0.slot == slot } + 1
    switch generation {
    case 1: return name
    case 2: return "\(name)'s second closure"
    case 3: return "\(name)'s third closure"
    default: return "\(name)'s closure number \(generation)"
    }
  }

  private func owner(of slot: Int) -> Int? { rules.ownerOfSlot?[slot] }

  /// Binds `slot`; what the story says, or `nil` when the step cannot be taken.
  private func bind(
    _ slot: Int, initial: Bool, old: Bool, new: Bool = true, keep: Bool = false,
    reaction: Reaction?
  ) -> String? {
    let ownerIndex = owner(of: slot)
    // A slot whose owner was let go, and freed, is bound by a new owner, made before anything
    // else: the allocator may give it the address of the one freed.
    var isNewOwner = false
    if let ownerIndex, owners[ownerIndex] == nil {
      guard weakOwners[ownerIndex].object == nil else { return nil }
      let newOwner = ProgramOwner()
      owners[ownerIndex] = newOwner
      weakOwners[ownerIndex] = WeakObject(object: newOwner)
      isNewOwner = true
    }
    let earlier = order.last { $0.slot == slot && !$0.dead }
    if rules.rebind == .newID, earlier != nil { return nil }
    let keeps = keep && rules.hasOptions
    let asked = ProgramOptions(initial: initial, old: old, new: new, removeIfExists: !keeps)
    let binding = Binding(
      bindings.count + 1, slot: slot, label: labelOfNext(slot), asked: asked, reaction: reaction)
    bindings.append(binding)
    // The model first: a call the code makes while binding is checked against it. Adding
    // again replaces every closure the slot has (`removeIfExists` removes them all), unless
    // it keeps them.
    if earlier != nil, rules.rebind != .addsAnEntry, !keeps {
      for replaced in order where replaced.slot == slot && !replaced.dead {
        replaced.live = false
        replaced.replacedBy = binding.label
      }
      binding.isReplacement = true
    }
    if rules.rebind == .replacesInPlace, let earlier,
      let place = order.firstIndex(where: { $0 === earlier })
    {
      order[place] = binding
    } else {
      order.removeAll { !$0.live }
      order.append(binding)
    }
    let closure = ProgramOwner()
    binding.closure.object = closure
    let call: (ProgramCall, Int, AnyObject?) -> Void = { [weak self] kind, value, handed in
      withExtendedLifetime(closure) { self?.received(binding, kind, value, handed) }
    }
    target.bind(slot, ownerIndex.flatMap { owners[$0] }, asked, call)
    if binding.awaitsInitial, failure == nil {
      failure =
        "\(binding.label) asked for .initial, and was not called with the value, \(value), "
        + "when it was added"
    }
    var told = isNewOwner ? "bind a new \(rules.slots[slot])" : "bind \(rules.slots[slot])"
    if earlier != nil, rules.rebind != .newID {
      told += keeps ? " again with removeIfExists: false" : " again"
    }
    let options = [initial ? ".initial" : nil, old ? ".old" : nil, new ? nil : "no .new"]
      .compactMap { $0 }
    if !options.isEmpty {
      told +=
        " asking for " + options.joined(separator: " and ").replacing(" and no", with: " only, no")
    }
    return told
  }

  private func remove(_ slot: Int) -> String? {
    let ownerIndex = owner(of: slot)
    if let ownerIndex, owners[ownerIndex] == nil { return nil }
    if rules.rebind == .newID, !bindings.contains(where: { $0.slot == slot }) { return nil }
    // The slot's closures of the observer bound now: an earlier owner's, let go, stay.
    for binding in order where binding.slot == slot && !binding.dead { binding.live = false }
    order.removeAll { $0.slot == slot && !$0.dead }
    target.remove(slot, ownerIndex.flatMap { owners[$0] })
    return "remove \(rules.slots[slot])"
  }

  private func release(_ owner: Int) -> String? {
    guard owners[owner] != nil else { return nil }
    owners[owner] = nil
    for binding in order where self.owner(of: binding.slot) == owner { binding.dead = true }
    return "let \(rules.owners[owner]) go"
  }

  /// Drops the entries of released owners, as a cleaning step does.
  private func clean() {
    guard rules.released != .mayStillBeCalled else { return }
    for binding in order where binding.dead { binding.cleaned = true }
    order.removeAll(where: \.dead)
  }

  // MARK: - Calls

  private func begin(_ round: Round) {
    guard round.snapshot == nil else { return }
    round.lastNumber = bindings.count
    round.snapshot = order.filter { !$0.dead || rules.released == .mayStillBeCalled }
  }

  /// Checks a call the code made, and does what the closure does.
  private func received(_ binding: Binding, _ kind: ProgramCall, _ got: Int, _ handed: AnyObject?) {
    guard failure == nil else { return }
    calls += 1
    if calls > callBudget {
      failure = "the code made more than \(callBudget) calls: a set that never ends?"
      return
    }
    if rules.handsTheOwner, let ownerIndex = owner(of: binding.slot) {
      if handed == nil || handed !== weakOwners[ownerIndex].object {
        let who = weakOwners.firstIndex { $0.object != nil && $0.object === handed }
        failure =
          "\(binding.label)'s handler was handed \(who.map { rules.owners[$0] } ?? "another object"), "
          + "not \(rules.owners[ownerIndex]), the observer it was added for"
        return
      }
    }
    if kind == .initial {
      if !binding.awaitsInitial {
        failure = "\(binding.label) was called with .initial when it was not being added"
      } else if got != value {
        failure = "\(binding.label)'s .initial call was handed \(got), not the value, \(value)"
      }
      binding.awaitsInitial = false
      if failure == nil, let reaction = binding.reaction, reaction.onInitial {
        react(binding, reaction)
      }
      return
    }
    guard !rounds.isEmpty else {
      failure = "\(binding.label) was called with \(got) while no set was under way"
      return
    }
    let isOld = kind == .old
    if let problem = accept(binding, old: isOld, got) {
      failure = problem
      return
    }
    if let reaction = binding.reaction, !reaction.onInitial, reaction.on == got,
      reaction.onOld == isOld
    {
      react(binding, reaction)
    }
  }

  /// Finds the round the call belongs to and records it; what is wrong with it otherwise.
  private func accept(_ binding: Binding, old: Bool, _ got: Int) -> String? {
    if rules.nesting == .queued {
      while true {
        let round = rounds[current]
        begin(round)
        if allowed(binding, old: old, got, in: round) {
          record(binding, old: old, in: round)
          return oldValuesFirst(binding, old: old, in: round)
            ?? ordering(binding, old: old, in: round)
        }
        let missing = self.missing(in: round)
        if missing.isEmpty, current + 1 < rounds.count {
          current += 1
          continue
        }
        if let first = missing.first,
          rounds[(current + 1)...].contains(where: { old ? $0.old == got : $0.new == got })
        {
          let early = old ? "the old value, \(got), of a later set," : "\(got)"
          let due = first.old ? "the old value, \(round.old), of \(round.new)" : "\(round.new)"
          return "\(binding.label) was called with \(early) before \(first.label) was called with "
            + "\(due): a set made during a notification waits until every observer is told of the "
            + "one under way"
        }
        return explain(binding, old: old, got, round)
      }
    }
    // A round that expects it before one it would merely be a newcomer to: two rounds may set
    // the same value.
    // Where a set inside a closure runs at once, the innermost round first: it runs to its end
    // before the one it interrupted goes on.
    let inner = rules.nesting == .readAgain ? rounds.reversed() : rounds
    let expecting = inner.filter { round in round.snapshot?.contains { $0 === binding } == true }
    for round in expecting + inner where allowed(binding, old: old, got, in: round) {
      record(binding, old: old, in: round)
      return oldValuesFirst(binding, old: old, in: round) ?? ordering(binding, old: old, in: round)
    }
    return explain(binding, old: old, got, rounds[rounds.count - 1])
  }

  private func record(_ binding: Binding, old: Bool, in round: Round) {
    let call = round.call(binding, old: old)
    round.called.insert(call)
    // A newcomer's call may have been the next round's: a queue that takes its snapshot once
    // this round is over reaches a newcomer then, as a walk of the live list does now, and
    // the two look alike. It counts for a later round of the same value that misses it.
    if binding.number > round.lastNumber { credits.insert(call) }
  }

  private func allowed(_ binding: Binding, old: Bool, _ got: Int, in round: Round) -> Bool {
    guard let snapshot = round.snapshot, binding.wants(old: old) else { return false }
    let call = round.call(binding, old: old)
    // Read again at its turn: the latest value, whichever set's turn it is.
    let expected = rules.nesting == .readAgain && !old ? value : call.value
    guard expected == got, !round.called.contains(call) else { return false }
    let isNewcomer = binding.number > round.lastNumber
    guard isNewcomer || snapshot.contains(where: { $0 === binding }) else { return false }
    if !binding.live, rules.removal == .immediate { return false }
    return !binding.dead || rules.released != .never
  }

  /// Whether `binding`, told the old value, was not told the new one already: a set tells an
  /// observer the old value, then the new. (Where a set made inside a closure may run at once,
  /// exercises 6 and 9, it runs its own calls in the middle of another's: this is not asked of
  /// a set a closure interrupted, nor of the one it made.) An old value never told is found
  /// when the set ends.
  private func oldValuesFirst(_ binding: Binding, old: Bool, in round: Round) -> String? {
    guard old, rules.nesting != .either || (!round.interrupted && rounds.count == 1),
      round.called.contains(round.call(binding, old: false))
    else { return nil }
    return "\(binding.label) was called with the old value, \(round.old), after the new value, "
      + "\(round.new): a set tells an observer that asked for .old the old value first, then "
      + "the new value"
  }

  /// Whether the observers bound before `binding`, which the round must call first, were;
  /// and, for a call of the new value, whether every old value the round owes was told first.
  /// Where a bind ``ProgramRules/Rebind/replaces`` another, the replacement's place is not
  /// promised: only the order of the others is.
  private func ordering(_ binding: Binding, old: Bool, in round: Round) -> String? {
    guard rules.ordered, let snapshot = round.snapshot,
      let place = snapshot.firstIndex(where: { $0 === binding })
    else { return nil }
    // A set inside a closure that may run at once interrupts the order of the one under way,
    // and two sets of one value cannot be told apart: the order is checked where no closure
    // set.
    guard rules.nesting != .either || (!round.interrupted && rounds.count == 1) else {
      return nil
    }
    if !old, rules.hasOptions {
      for owed in snapshot where isRequired(owed, old: true, in: round) {
        let call = round.call(owed, old: true)
        if !round.called.contains(call), !credits.contains(call) {
          let before =
            owed === binding
            ? "the old value, \(round.old)" : "\(owed.label) was handed the old value, \(round.old)"
          return "\(binding.label) was called with the new value, \(round.new), before \(before): "
            + "a set tells each observer that asked for .old the old value first, then the new "
            + "value to each"
        }
      }
    }
    let free = rules.rebind == .replaces
    guard !(free && binding.isReplacement) else { return nil }
    for earlier in snapshot[..<place] where isRequired(earlier, old: old, in: round) {
      if free, earlier.isReplacement { continue }
      if !round.called.contains(round.call(earlier, old: old)) {
        let with = old ? "the old value, \(round.old)," : "\(round.new)"
        return "\(binding.label) was called with \(with) before \(earlier.label): "
          + (rules.exercise == 2
            ? "closures are called in the order their keys were first bound"
            : "observers are called in the order they were bound")
      }
    }
    return nil
  }

  private func isRequired(_ binding: Binding, old: Bool, in round: Round) -> Bool {
    binding.live && !binding.dead && binding.wants(old: old)
  }

  /// The calls the round must still make: whom, and whether of the old value.
  private func missing(in round: Round) -> [(label: String, old: Bool)] {
    guard let snapshot = round.snapshot else { return [] }
    var missing: [(label: String, old: Bool)] = []
    for binding in snapshot {
      for old in [true, false] where isRequired(binding, old: old, in: round) {
        let call = round.call(binding, old: old)
        if !round.called.contains(call), !credits.contains(call) {
          missing.append((binding.label, old))
        }
      }
    }
    return missing
  }

  /// What is wrong with a call no round allows.
  private func explain(_ binding: Binding, old: Bool, _ got: Int, _ round: Round) -> String {
    if old, !binding.wantsOld {
      return "\(binding.label) was called with an old value, \(got), though it did not ask "
        + "for .old"
    }
    if !old, !binding.wantsNew {
      return "\(binding.label) was called with a new value, \(got), though it did not ask "
        + "for .new"
    }
    let with = old ? "the old value \(got)" : "\(got)"
    if rules.nesting == .readAgain, !old, got != value, rounds.count > 1 {
      return "\(binding.label) was called with \(got) after a closure set \(value): each "
        + "closure is handed the value read again at its turn"
    }
    // A value an earlier set already handed it, where a later set, a nested one, still owes it
    // its own: the value is wrong, not the count.
    let owing = rounds.last { round in
      let call = round.call(binding, old: old)
      return round.snapshot?.contains { $0 === binding } == true && !round.called.contains(call)
        && call.value != got
    }
    if let owing, binding.live, !binding.dead {
      return old
        ? "\(binding.label) was handed \(got) as the old value, where the set of \(owing.new) "
          + "replaced \(owing.old)"
        : "\(binding.label) was called with \(got), where the set under way was of \(owing.new)"
    }
    let twice = Call(binding: binding.number, old: old, value: got)
    if rounds.contains(where: { $0.called.contains(twice) }) {
      return "\(binding.label) was called twice with \(old ? "the old value " : "")\(got) for "
        + "one set: each observer is called once for each set"
    }
    if let replacement = binding.replacedBy {
      return "\(binding.label) was called with \(with) after \(replacement) replaced it: "
        + "binding again replaces the closure"
    }
    if !binding.live {
      return "\(binding.label) was called with \(with) after it was removed: "
        + (rules.removal == .immediate
          ? "once removeObserver returns, the observer is never called again"
          : "a removed closure is not called by a later set")
    }
    if binding.dead, let ownerIndex = owner(of: binding.slot) {
      return "\(binding.label) was called with \(with) after \(rules.owners[ownerIndex]) was "
        + "let go: an observer that is gone is not called"
    }
    if old {
      return "\(binding.label) was handed \(got) as the old value, where the set of "
        + "\(round.new) replaced \(round.old)"
    }
    return "\(binding.label) was called with \(got), where the set under way was of \(round.new)"
  }

  /// Takes the second observable's failure as the program's, if it has one and the program
  /// has none yet.
  private func takeFailure(of second: ProgramRun) {
    guard failure == nil, let failed = second.failure else { return }
    failure = "on the second observable, \(failed)"
  }

  private func react(_ binding: Binding, _ reaction: Reaction) {
    let who =
      binding.closureName
      + (reaction.onInitial
        ? ", on its .initial call," : reaction.onOld ? ", told the old value," : "")
    switch reaction.action {
    case .removeItself:
      if remove(binding.slot) != nil { reactions.append("\(who) removes itself") }
    case .remove(let slot):
      if remove(slot) != nil { reactions.append("\(who) removes \(rules.slots[slot])") }
    case .bind(let slot, let initial, let keep):
      if let told = bind(slot, initial: initial, old: false, keep: keep, reaction: nil) {
        reactions.append("\(who) binds \(told.dropFirst("bind ".count))")
      }
    case .release(let owner):
      if let told = release(owner) {
        reactions.append("\(who) \(told.replacing("let ", with: "lets "))")
      }
    case .set(let newValue):
      nestedSet(newValue)
      reactions.append("\(who) sets \(newValue)")
    case .setSecond(let newValue):
      guard let second else { return }
      second.perform(.set(newValue))
      reactions.append("\(who) sets the second observable to \(newValue)")
      takeFailure(of: second)
    case .removeThenSet(let slot, let newValue):
      let removed = remove(slot) != nil
      nestedSet(newValue)
      reactions.append(
        "\(who) \(removed ? "removes \(rules.slots[slot]) then " : "")sets \(newValue)")
    }
  }

  private func nestedSet(_ newValue: Int) {
    for earlier in rounds { earlier.interrupted = true }
    let round = Round(old: value, new: newValue)
    rounds.append(round)
    value = newValue
    if rules.nesting != .queued { begin(round) }
    target.observable.value = newValue
  }

  /// At the end of a top-level set: every round must have reached every observer it must.
  private func finishRounds() {
    guard failure == nil else { return }
    let start = rules.nesting == .queued ? current : 0
    for round in rounds[start...] {
      begin(round)
      if let first = missing(in: round).first {
        failure =
          "\(first.label) was not \(first.old ? "handed the old value, \(round.old), of" : "called with") "
          + "\(round.new): every observer bound when a set begins, and not removed or let go "
          + "since, is called once for it"
        return
      }
    }
  }

  // MARK: - After each step

  private func checkFreed() {
    // Freed what must be: released owners, removed or replaced closures, dropped entries.
    for (index, weak) in weakOwners.enumerated() where owners[index] == nil && weak.object != nil {
      failure =
        "\(rules.owners[index]) was not freed when the program let it go: something the "
        + "observable stores keeps it alive"
      return
    }
    for binding in bindings where !binding.freedChecked {
      let gone = !binding.live || binding.cleaned
      guard gone else { continue }
      binding.freedChecked = true
      guard binding.closure.object != nil else { continue }
      if binding.cleaned, let ownerIndex = owner(of: binding.slot) {
        failure =
          "\(binding.closureName) was still stored after \(rules.owners[ownerIndex]) was "
          + "let go and a \(rules.cleansOnSet ? "set" : "bind") came: a dead entry is dropped "
          + "with its closure"
      } else if let replacement = binding.replacedBy {
        failure = "\(binding.closureName) was still stored after \(replacement) replaced it"
      } else {
        failure = "\(binding.closureName) was still stored after it was removed"
      }
      return
    }
  }

  private func checkCount() {
    let alive = order.filter { !$0.dead }
    let stored = order.count
    let count = target.observable.observerCount
    guard count < alive.count || count > stored else { return }
    let expected = alive.count == stored ? "\(alive.count)" : "\(alive.count) to \(stored)"
    // At most six named: a wide program binds forty.
    let names = alive.map(\.label)
    let shown = names.count > 6 ? Array(names.prefix(5)) + ["\(names.count - 5) more"] : names
    let bound = alive.isEmpty ? "no closure is bound" : "bound: \(listed(shown))"
    failure = "observerCount said \(count), not \(expected) (\(bound))"
  }
}
