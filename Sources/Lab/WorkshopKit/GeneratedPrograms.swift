import Dispatch
import ObserverScenarios
import Support
import Synchronization

/// The generated checks: many short programs over one exercise's API, each run on the code with
/// a model of the exercise's promise watching; the first that fails is shrunk to the shortest
/// program that still fails, and told in the learner's terms.
///
/// Seeded: the same seed draws the same programs, and every program is run, however long it
/// takes: the verdict is a function of the code and the seed, the same on a quiet machine and a
/// busy one, and `swift run workshop N --seed S` replays the programs of seed `S`. No clock
/// decides it: each program is reported as it starts (``progress``), and only a program that
/// makes no progress for the grader's per-criterion limit is stopped, as a hang.
package enum GeneratedPrograms {
  /// The seed the checks draw from, when one is given (`workshop N --seed S`).
  @TaskLocal package static var seed: UInt64?

  /// The seed the checks draw from when none is given.
  package static let defaultSeed: UInt64 = 1

  /// The environment variable that passes a seed to a grading child.
  package static let seedVariable = "WORKSHOP_SEED"

  /// The one program to run, by its number (from 1), when a failure is confirmed in a fresh
  /// process: the programs before it are drawn, not run.
  @TaskLocal package static var only: Int?

  /// The environment variable that passes ``only`` to a grading child.
  package static let onlyVariable = "WORKSHOP_ONLY_PROGRAM"

  /// A step of the shrink of a program that crashed, run by a fresh grading child for each
  /// try: the tries that crashed so far, each by its index among the smaller programs of the
  /// one before, and the index to try now, or `nil` to tell the program reached, step by step.
  @TaskLocal package static var crashShrink: CrashShrink?

  /// The environment variable that passes ``crashShrink`` to a grading child.
  package static let crashShrinkVariable = "WORKSHOP_CRASH_SHRINK"

  /// A step of a crash's shrink: see ``crashShrink``.
  package struct CrashShrink: Sendable, Equatable {
    /// The tries that crashed, in order.
    package var path: [Int]
    /// The try to run now; `nil` to tell the program `path` reached.
    package var next: Int?

    package init(path: [Int], next: Int?) {
      self.path = path
      self.next = next
    }

    /// As the environment variable writes it: "3,0,5;2", "3,0;tell".
    package var text: String {
      path.map(String.init).joined(separator: ",") + ";" + (next.map(String.init) ?? "tell")
    }

    /// The step `text` writes, if it is one.
    package init?(text: String) {
      let parts = text.split(separator: ";", omittingEmptySubsequences: false)
      guard parts.count == 2 else { return nil }
      let path = parts[0].split(separator: ",").compactMap { Int($0) }
      guard path.count == parts[0].split(separator: ",").count else { return nil }
      self.path = path
      if parts[1] == "tell" {
        next = nil
      } else if let next = Int(parts[1]) {
        self.next = next
      } else {
        return nil
      }
    }
  }

  /// Told each line of a crash's shrink a grading child reports: how many smaller programs a
  /// program has (`candidates`), each step as it starts and as it is told (`step`).
  @TaskLocal package static var report: (@Sendable (String) -> Void)?

  /// Whether a program run now tells each step to ``report`` as it goes: a crash's shrink, run
  /// to tell the program it reached.
  @TaskLocal static var tellsSteps = false

  /// Told the number (from 1) and the count of each program as it starts, and again at each
  /// try of a shrink: a grading child reports it, so that the grader tells a slow check from a
  /// hung one, and names the program that hung. One for the whole process, not a task-local:
  /// exercises 10 and 11 run their programs from the main actor's queue, which a task-local
  /// does not reach.
  package static var progress: (@Sendable (_ program: Int, _ of: Int) -> Void)? {
    get { progressSink.withLock { $0 } }
    set { progressSink.withLock { $0 = newValue } }
  }

  private static let progressSink = Mutex<(@Sendable (Int, Int) -> Void)?>(nil)

  /// How many programs each check runs.
  static let programs = 4000

  /// The most steps a program has; the first programs are the shortest.
  static let longest = 12

  /// How many slots most programs use: A to D. Every twentieth program is a long one, over every
  /// slot the exercise names (eight), with up to three times as many steps: a mistake that
  /// shows only past the fourth observer, or the tenth bind, shows there. Of each hundred, one
  /// is wide, over 9 to 40 slots, and one churns a slot 260 to 300 times (``Program/churn``):
  /// a mistake that shows only past eight observers, past 255 binds, or when a new owner is
  /// given a freed one's address, shows there. One in ten runs over two observables of one type,
  /// closures of the first setting the second (``Program/overTwoObservables(using:)``).
  static let slots = 4

  /// Program `index` of the exercise `rules` describes, drawn from `random`.
  static func draw(_ index: Int, _ rules: ProgramRules, using random: inout SeededRandom)
    -> Program
  {
    switch index % 100 {
    case 39 where rules.widens:
      let width = random.pick(9...40)
      var program = Program.random(
        rules.widened(to: width), length: 3 * width, using: &random)
      program.width = width
      return program
    case 79 where rules.removal != nil || rules.ownerOfSlot != nil:
      return Program.churn(rules, times: random.pick(260...300), using: &random)
    case let other where other % 20 == 19:
      return Program.random(rules, length: 3 * longest, using: &random)
    case let other where other % 10 == 3:
      // Two observables of one type: state kept outside an observable shows in the other.
      return Program.random(rules, length: 4 + index % (longest - 3), slots: slots, using: &random)
        .overTwoObservables(using: &random)
    default:
      return Program.random(rules, length: 2 + index % (longest - 1), slots: slots, using: &random)
    }
  }

  /// The most programs a shrink runs, and the most steps they may have in all: counts, not a
  /// time, so that the shortest program found is the same on every machine. The second keeps
  /// the shrink of a program of hundreds of steps to a few hundred tries.
  static let shrinkBudget = (programs: 4000, steps: 150_000)

  /// Runs the programs of `rules`' exercise, each on a fresh target.
  static func check(_ rules: ProgramRules, _ makeTarget: @escaping () -> ProgramTarget) -> Outcome {
    ProgramSearch<Program, (story: String, failure: String)>(
      exercise: rules.exercise, programs: programs,
      draw: { index, random in draw(index, rules, using: &random) },
      failure: { ProgramRun.failure(of: $0, rules, target: makeTarget) },
      smaller: \.smaller, size: \.steps.count,
      told: { _, found in "\(found.story) → \(found.failure)" },
      held: { ran, seed in
        "\(ran) generated programs of \(rules.tried) (seed \(seed)): each kept the promise"
      }
    ).check(seed: Self.seed ?? defaultSeed)
  }
}

/// The loop of every generated check, whatever its steps: programs drawn from a seed, each run
/// with a model of the promise watching, all of them; the first that fails is shrunk, within a
/// budget of runs, and told with the command that replays it. Exercises 1 to 9 search
/// ``Program``s; 10 and 11 lists of steps of their own.
struct ProgramSearch<Steps, Found> {
  /// The exercise, for the replay command and a stream of random numbers of its own.
  var exercise: Int
  /// How many programs it runs: all of them, unless one fails.
  var programs: Int
  /// Program `index` (from 0), drawn from `random`.
  var draw: (_ index: Int, _ random: inout SeededRandom) -> Steps
  /// How a program fails, run once; `nil` when it keeps the promise.
  var failure: (Steps) -> Found?
  /// Programs a little smaller than one.
  var smaller: (Steps) -> [Steps]
  /// How many steps a program has, for the shrink's budget.
  var size: (Steps) -> Int = { _ in 1 }
  /// The part of a failing program the shrink starts from: by default all of it.
  var shrinkFrom: (Steps, Found) -> Steps = { steps, _ in steps }
  /// The program and failure to tell, from the shortest program found, the program drawn and
  /// its failure: by default the shortest, run again, or the program when that passes. `nil`
  /// goes on drawing (a race that did not show again).
  var confirmed: ((_ shortest: Steps, _ program: Steps, _ found: Found) -> (Steps, Found)?)? =
    nil
  /// A failure told: "bind A; set 1 → A's closure was called twice".
  var told: (Steps, Found) -> String
  /// The evidence when every program kept the promise, from how many ran and the seed.
  var held: (_ ran: Int, _ seed: UInt64) -> String

  /// Runs the programs drawn from `seed`.
  ///
  /// - Parameter seed: The seed: the same seed draws the same programs.
  /// - Returns: A flaw telling the shortest failing program found, or what held.
  func check(seed: UInt64) -> Outcome {
    var random = SeededRandom(seed: seed &* 0x2545_F491_4F6C_DD1D &+ UInt64(exercise))
    let progress = GeneratedPrograms.progress
    let only = GeneratedPrograms.only
    for index in 0..<programs {
      let program = draw(index, &random)
      if let only, index + 1 != only { continue }
      progress?(index + 1, programs)
      if only != nil, let shrink = GeneratedPrograms.crashShrink {
        return crashShrinkStep(shrink, from: program)
      }
      guard let found = failure(program) else { continue }
      var (runs, steps) = (0, 0)
      let shortest = shortestFailing(shrinkFrom(program, found), smaller: smaller) { candidate in
        runs += 1
        steps += size(candidate)
        // Each try of the shrink is a sign of life too: a long program shrinks slowly.
        progress?(index + 1, programs)
        return runs <= GeneratedPrograms.shrinkBudget.programs
          && steps <= GeneratedPrograms.shrinkBudget.steps && failure(candidate) != nil
      }
      let chosen: (Steps, Found)?
      if let confirmed {
        chosen = confirmed(shortest, program, found)
      } else {
        chosen = failure(shortest).map { (shortest, $0) } ?? (program, found)
      }
      guard let (steps, failed) = chosen else { continue }
      return .flaw(
        "\(told(steps, failed)) (generated program \(index + 1) of seed \(seed), shrunk; "
          + "replay: swift run workshop \(exercise) --seed \(seed))")
    }
    if let only { return .holds("generated program \(only) of seed \(seed) kept the promise") }
    return .holds(held(programs, seed))
  }

  /// One step of the shrink of a program that crashed, in a fresh process: runs the try asked
  /// for, which crashes this process or returns; or runs the program reached, telling each step
  /// as it goes, up to the one that crashes.
  private func crashShrinkStep(_ shrink: GeneratedPrograms.CrashShrink, from program: Steps)
    -> Outcome
  {
    let report = GeneratedPrograms.report
    var reached = program
    for taken in shrink.path {
      let candidates = smaller(reached)
      guard taken < candidates.count else { break }
      reached = candidates[taken]
    }
    guard let next = shrink.next else {
      _ = GeneratedPrograms.$tellsSteps.withValue(true) { failure(reached) }
      return .holds("the program reached ran to its end")
    }
    let candidates = smaller(reached)
    report?("candidates\t\(candidates.count)")
    guard next < candidates.count else { return .holds("no smaller program") }
    _ = failure(candidates[next])
    return .holds("the smaller program ran to its end")
  }
}

extension ProgramRules {
  /// What the programs try, for the evidence of a check that holds.
  var tried: String {
    var parts = ["binds"]
    if rebind != .newID { parts.append("binds again") }
    if removal != nil { parts.append("removals") }
    if ownerOfSlot != nil { parts.append("owners let go") }
    if hasOptions { parts.append(".initial, .old, removeIfExists: false") }
    if nesting != .none { parts.append("sets inside closures") }
    if widens { parts.append("up to 40 observers") }
    if removal != nil || ownerOfSlot != nil { parts.append("300 binds in a row") }
    if ownerOfSlot != nil { parts.append("new observers in the place of freed ones") }
    return parts.joined(separator: ", ")
      + " and sets, closures changing the list mid-set, over one observable or two"
  }
}

/// A value a target's closures share.
private final class Shared<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

// MARK: - Each exercise's target

extension RemovableClosuresAdapter {
  package static func run(_ check: Check) -> Outcome {
    check == .generatedRemovals
      ? GeneratedPrograms.check(.removableClosures) { programTarget() } : notRunHere(check)
  }

  /// Exercise 1's observable, driven by slot: each slot's ids kept in order.
  static func programTarget() -> ProgramTarget {
    let observable = Observable(0)
    let ids = Shared<[Int: [Observable.ID]]>([:])
    return ProgramTarget(
      observable: observable,
      bind: { slot, _, _, call in
        ids.value[slot, default: []].append(observable.bindObserver { call(.new, $0, nil) })
      },
      remove: { slot, _ in ids.value[slot]?.last.map(observable.removeObserver) },
      removeOldID: { slot in ids.value[slot]?.first.map(observable.removeObserver) })
  }
}

extension KeyedAdapter {
  package static func run(_ check: Check) -> Outcome {
    check == .generatedKeysInOrder
      ? GeneratedPrograms.check(.keysInOrder) { programTarget() } : notRunHere(check)
  }

  /// Exercise 2's observable: each slot a key, named as the programs name it.
  static func programTarget() -> ProgramTarget {
    let observable = Observable(0)
    // As many keys as a wide program names.
    let keys = ProgramRules.keysInOrder.widened(to: 40).slots
    return ProgramTarget(
      observable: observable,
      bind: { slot, _, _, call in
        observable.bindObserver(forKey: keys[slot]) { call(.new, $0, nil) }
      },
      remove: { slot, _ in observable.removeObserver(forKey: keys[slot]) })
  }
}

extension OwnerKeyedAdapter {
  package static func run(_ check: Check) -> Outcome {
    check == .generatedOwnersAndKeys
      ? GeneratedPrograms.check(.ownersAndKeys) { programTarget() } : notRunHere(check)
  }

  /// Exercise 3's observable: each slot an owner and a key ("P's label").
  static func programTarget() -> ProgramTarget {
    let observable = Observable(0)
    let keys = ["label", "badge", "label", "badge"]
    return ProgramTarget(
      observable: observable,
      bind: { slot, owner, _, call in
        guard let owner else { return }
        observable.bindObserver(owner, forKey: keys[slot]) { call(.new, $0, nil) }
      },
      remove: { slot, owner in
        guard let owner else { return }
        observable.removeObserver(owner, forKey: keys[slot])
      })
  }
}

extension WeakAdapter {
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .generatedReleases: GeneratedPrograms.check(.cleanOnSet) { programTarget() }
    case .generatedRebinds: GeneratedPrograms.check(.oneEntryPerObserver) { programTarget() }
    default: notRunHere(check)
    }
  }

  /// Exercises 4 and 5's observable: each slot an owner.
  static func programTarget() -> ProgramTarget {
    let observable = Observable(0)
    return ProgramTarget(
      observable: observable,
      bind: { _, owner, _, call in
        guard let owner else { return }
        observable.bindObserver(owner) { call(.new, $0, nil) }
      })
  }
}

extension DeliveryOptions {
  /// The options a program's bind asks for.
  static func asked(_ asked: ProgramOptions) -> Self {
    var options: Self = []
    if asked.initial { options.insert(.initial) }
    if asked.old { options.insert(.old) }
    if asked.new { options.insert(.new) }
    return options
  }

  /// What a call with this option is for.
  var call: ProgramCall {
    if self == .initial { return .initial }
    return self == .old ? .old : .new
  }
}

extension OptionsAdapter {
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .generatedRemovalsMidSet: GeneratedPrograms.check(.removeAtOnce) { programTarget() }
    case .generatedNestedSets: GeneratedPrograms.check(.queueNestedSets) { programTarget() }
    default: notRunHere(check)
    }
  }

  /// Exercises 6 and 7's observable: each slot an owner, added with `removeIfExists` as the
  /// program asks.
  static func programTarget() -> ProgramTarget {
    let observable = Observable(0)
    return ProgramTarget(
      observable: observable,
      bind: { _, owner, asked, call in
        guard let owner else { return }
        observable.addObserver(
          owner, removeIfExists: asked.removeIfExists, options: .asked(asked)
        ) { value, option in call(option.call, value, nil) }
      },
      remove: { _, owner in owner.map(observable.removeObserver) })
  }
}

extension SendableOptionsAdapter {
  /// Exercise 9's observable, on one thread: each slot an owner, added with `removeIfExists`.
  static func programTarget() -> ProgramTarget {
    let observable = Observable(0)
    return ProgramTarget(
      observable: observable,
      bind: { _, owner, asked, call in
        guard let owner = owner as? ProgramOwner else { return }
        // A program runs on one thread: the closure never crosses to another.
        let closure = SingleThreaded(call)
        observable.addObserver(
          owner, removeIfExists: asked.removeIfExists, options: .asked(asked)
        ) { value, option in closure.value(option.call, value, nil) }
      },
      remove: { _, owner in
        guard let owner = owner as? ProgramOwner else { return }
        observable.removeObserver(owner)
      })
  }
}

extension HandingAdapter {
  package static func run(_ check: Check) -> Outcome {
    check == .generatedHandedOwners
      ? GeneratedPrograms.check(.handOverTheOwner) { programTarget() } : notRunHere(check)
  }

  /// Exercise 8's observable: each slot an owner, handed to its handler.
  static func programTarget() -> ProgramTarget {
    let observable = Observable(0)
    return ProgramTarget(
      observable: observable,
      bind: { _, owner, asked, call in
        guard let owner = owner as? ProgramOwner else { return }
        observable.addObserver(
          owner, removeIfExists: asked.removeIfExists, options: .asked(asked)
        ) { handed, value, option in call(option.call, value, handed) }
      },
      remove: { _, owner in owner.map(observable.removeObserver) })
  }
}

/// The smallest failing case found from `start`, which fails: each round takes the first of
/// `smaller`'s candidates, each a little smaller than the best so far, that `fails`, until none
/// does. `fails` says no once the shrink's budget of runs or steps is spent. Every generated
/// check shrinks with it: exercises 1 to 9 their ``Program``s, 10 and 11 their lists of steps.
func shortestFailing<Candidate>(
  _ start: Candidate, smaller: (Candidate) -> [Candidate], fails: (Candidate) -> Bool
) -> Candidate {
  var best = start
  var shrinking = true
  while shrinking {
    shrinking = false
    for candidate in smaller(best) where fails(candidate) {
      best = candidate
      shrinking = true
      break
    }
  }
  return best
}
