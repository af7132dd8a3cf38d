import Foundation
import ObserverScenarios
import Support

// Exercise 11's generated programs: labels opened, closed and let go, scores set on the main
// actor, and the main actor let run what the labels queued, then what each label showed read.

// MARK: - The objects a check drives

/// A player, and the labels a check opens on it, each in a slot (A, B, C) with a display of
/// its own, on the main actor.
@MainActor
final class LabelWorld<Label: ScoreLabelModel> {
  private var player: Label.Player?
  private weak var weakPlayer: Label.Player?
  /// Each open or closed label, with its display, by slot.
  private var labels: [Int: (label: Label, display: LabelDisplay)] = [:]
  private var weakLabels: [Int: Weak<Label>] = [:]
  /// Every display, of labels open, closed and let go.
  private var allDisplays: [LabelDisplay] = []
  /// Every score set, in order: by a step, or by a reaction from inside a display.
  nonisolated let sets = Recording<Int>()

  init(score: Int) {
    let player = Label.Player(name: "Ada", score: score)
    self.player = player
    weakPlayer = player
  }

  /// Opens a label in `slot`, on a fresh display, and returns the display; `nil` when a label
  /// is already there, or the player is gone.
  func open(_ slot: Int) -> LabelDisplay? {
    guard labels[slot] == nil, let player else { return nil }
    let display = LabelDisplay()
    let label = Label(showing: player, on: display)
    labels[slot] = (label, display)
    weakLabels[slot] = Weak(label)
    allDisplays.append(display)
    return display
  }

  /// Closes `slot`'s label; whether there was one.
  func close(_ slot: Int) -> Bool {
    guard let label = labels[slot]?.label else { return false }
    label.close()
    return true
  }

  /// Lets `slot`'s label go; whether it was freed at once, `nil` when there was none.
  func letGo(_ slot: Int) -> Bool? {
    guard labels.removeValue(forKey: slot) != nil else { return nil }
    return weakLabels[slot]?.object == nil
  }

  /// Sets each of `scores`, in order, in this one turn of the main actor.
  func set(_ scores: [Int]) {
    for score in scores {
      sets.append(score)
      player?.score = score
    }
  }

  /// Sets the player's name, which no label shows.
  func rename() {
    player?.name += "!"
  }

  /// Has the game set `score` from inside `slot`'s display, the first time it shows `on`;
  /// whether there is a label there.
  func react(_ slot: Int, on: Int, set score: Int) -> Bool {
    guard let display = labels[slot]?.display else { return false }
    display.react(on: on) { [weak self] in self?.set([score]) }
    return true
  }

  /// Lets every label and the player go.
  func letEverythingGo() {
    labels = [:]
    player = nil
  }

  /// Whether the player was freed, and the slots of the labels that were not.
  func freed() -> (player: Bool, labelsKept: [Int]) {
    (weakPlayer == nil, weakLabels.filter { $0.value.object != nil }.map(\.key).sorted())
  }

  /// How many scores every display has shown: what tells the grader the labels are done.
  var shownCount: Int { allDisplays.reduce(0) { $0 + $1.shown.count } }
}

/// Lets the main actor run what the labels queued (a `Task`, a `DispatchQueue.main.async`)
/// until nothing more is shown: at least three turns, then until two turns in a row show
/// nothing new, at most twenty.
func settle<Label>(_ world: LabelWorld<Label>) {
  var last = onMain { world.shownCount }
  var quiet = 0
  for turn in 1...20 {
    let count = onMain { world.shownCount }
    quiet = count == last ? quiet + 1 : 0
    last = count
    if turn >= 3, quiet >= 2 { return }
  }
}

// MARK: - What a label must show

/// What one label showed during one step, and what it should have.
struct LabelStepSeen {
  /// The label's name in the story: A.
  var name: String
  /// What it showed before the step, all of it.
  var before: [Int]
  /// What it showed during the step.
  var new: [LabelDisplay.Shown]
  /// The score before the step.
  var scoreBefore: Int
  /// The scores set during the step, in order.
  var sets: [Int]
  /// Whether a display set a score during the step, as a game reacting to what it shows.
  var reacted: Bool
  /// An earlier step's sets that left the score as the label showed it, after which it showed
  /// nothing more: "2, 4 were set in one turn".
  var quietSince: String? = nil
  /// The other labels closed or let go since this one last showed a score.
  var closedSince: [String] = []
  /// The other open labels that ended the step on its latest score.
  var shownByOthers: [String] = []

  /// The score after the step.
  var score: Int { sets.last ?? scoreBefore }

  /// What is wrong with what an open label showed, in the learner's terms; `nil` when it
  /// shows the latest score, and showed only scores set during the step, in order.
  var flaw: String? {
    if let off = new.first(where: { !$0.onMainActor }) {
      return "\(name) showed \(off.score) off the main actor: a label must be set on the main "
        + "actor only"
    }
    let scores = new.map(\.score)
    let last = before.last
    // The scores before each set: what a read in onChange, which runs before the write, gets.
    let replaced = Array(([scoreBefore] + sets).dropLast())
    for score in scores where !sets.contains(score) && !(sets.isEmpty && score == last) {
      guard replaced.contains(score) else {
        return "\(name) showed \(score), a score never set"
      }
      let next = sets[replaced.lastIndex(of: score) ?? 0]
      return "\(name) showed \(score), the score before \(next) was set: onChange runs before "
        + "the write, so a score read there (or kept from when the tracking was armed) is the "
        + "old one. Read it once the write is done: on the main actor's next turn"
    }
    if !isInOrder(scores) {
      return "\(name) showed \(listed(scores)), not in the order they were set "
        + "(\(listed(sets)))"
    }
    guard (scores.last ?? last) != score else { return nil }
    let shown = scores.last ?? last ?? scoreBefore
    if scores.isEmpty, let why = silence(showing: shown) { return why }
    if scores.isEmpty, Set(before).count > 1 {
      // A label that shows only higher scores falls silent here too: say so when it may.
      let lower = score < shown ? " (\(score) is lower than \(shown))" : ""
      return "\(name) still showed \(shown), not \(score): it showed a change before, and none "
        + "after it\(lower). A tracking fires once: track again each time it fires"
        + (lower.isEmpty ? "" : ", and show every score, lower ones too")
    }
    if scores.isEmpty {
      return "\(name) still showed \(shown), not \(score): its tracking never fired. "
        + "withObservationTracking tracks what its first closure reads: read the score there"
    }
    if reacted {
      return "\(name) ended on \(shown), not \(score), the latest score: \(score) was set while "
        + "a label showed \(shown), and \(name) was not tracking the score then, or did not "
        + "read it again. Track it again each time, reading the score in the same "
        + "withObservationTracking, before you show it"
    }
    return "\(name) ended on \(shown), not \(score), the latest score"
  }

  /// Why a label that showed nothing during the step, still showing `shown`, fell silent,
  /// where the program says more than "its tracking never fired": the one-time tracking not
  /// armed again after a change that left the score as shown, state the labels share, or a
  /// score of a value the label skips.
  private func silence(showing shown: Int) -> String? {
    let stillShowed = "\(name) still showed \(shown), not \(score)"
    if let quietSince {
      return "\(stillShowed): it has shown nothing since \(quietSince), leaving the score it "
        + "showed. A tracking fires once, even for a change that leaves the score as shown: "
        + "track again each time it fires"
    }
    if !closedSince.isEmpty {
      return "\(stillShowed), and has shown nothing since \(listed(closedSince)) was closed: "
        + "closing one label must leave the others showing. Does something the labels share, "
        + "such as a static property, stop this one?"
    }
    if !shownByOthers.isEmpty {
      return "\(stillShowed), where \(listed(shownByOthers)) showed \(score): each label keeps "
        + "up on its own. Does something the labels share, such as a static property, stop "
        + "this one?"
    }
    if score < 1, Set(before).count < 2 {
      let lower = score < shown ? ", lower than \(shown)" : ""
      return "\(stillShowed): it showed nothing for a score of \(score)\(lower). A label shows "
        + "every score set, zero and below zero too"
    }
    return nil
  }

  private func listed(_ names: [String]) -> String {
    names.count < 2
      ? names.joined()
      : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
  }

  /// Whether `scores`, each shown possibly more than once in a row, come in the order of
  /// `sets`.
  private func isInOrder(_ scores: [Int]) -> Bool {
    var remaining = sets[...]
    var previous: Int?
    for score in scores where score != previous {
      previous = score
      guard sets.contains(score) else { continue }
      guard let index = remaining.firstIndex(of: score) else { return false }
      remaining = remaining[(index + 1)...]
    }
    return true
  }

  private func listed(_ scores: [Int]) -> String {
    scores.map(String.init).joined(separator: ", ")
  }
}

// MARK: - Generated programs

/// One step of a generated program of exercise 11, on labels A, B and C.
enum LabelStep: Hashable {
  /// Opens a label in the slot, on the score as it is.
  case open(Int)
  /// Closes the slot's label.
  case close(Int)
  /// Lets the slot's label go.
  case letGo(Int)
  /// Sets each score, in order, in one turn of the main actor.
  case set([Int])
  /// Sets the player's name, which no label shows.
  case rename
  /// Has the game set a score from inside the slot's display, the first time it shows `on`.
  case react(Int, on: Int, set: Int)
  /// In one turn of the main actor: sets each score, in order, then closes the slot's label,
  /// with the change on its way to it.
  case setThenClose([Int], Int)
  /// In one turn of the main actor: sets each score, in order, then lets the slot's label go,
  /// with the change on its way to it.
  case setThenLetGo([Int], Int)
  /// In one turn of the main actor: closes the slot's label, then sets each score, in order.
  case closeThenSet(Int, [Int])

  /// The step as the story tells it.
  var told: String {
    switch self {
    case .open(let slot): "open \(slotName(slot))"
    case .close(let slot): "close \(slotName(slot))"
    case .letGo(let slot): "let \(slotName(slot)) go"
    case .set(let scores) where scores.count == 1: "set \(scores[0])"
    case .set(let scores):
      "set \(scores.map(String.init).joined(separator: ", ")) in one turn"
    case .rename: "set the name"
    case .react(let slot, let on, let score):
      "when \(slotName(slot)) shows \(on), the game sets \(score)"
    case .setThenClose(let scores, let slot):
      "set \(Self.listed(scores)) and close \(slotName(slot)) in one turn"
    case .setThenLetGo(let scores, let slot):
      "set \(Self.listed(scores)) and let \(slotName(slot)) go in one turn"
    case .closeThenSet(let slot, let scores):
      "close \(slotName(slot)) and set \(Self.listed(scores)) in one turn"
    }
  }

  /// "2", "2, 3".
  private static func listed(_ scores: [Int]) -> String {
    scores.map(String.init).joined(separator: ", ")
  }
}

/// Exercise 11's generated programs: labels opened, closed and let go, scores set one or
/// several to a turn, the name set, scores set from inside a display while it shows, and a
/// label closed or let go in the same turn as a set, after it or before. After each
/// step the main actor runs what the labels queued, and a model checks what each label showed:
/// an open label ends on the latest score, and shows only scores set since its last, in
/// order (several set in one turn may show as the last alone); a closed or let-go label shows
/// nothing more; a label let go is freed at once, and the player once everything is let go.
enum LabelPrograms<Label: ScoreLabelModel> {
  /// Runs the programs drawn from `seed`.
  static func check(seed: UInt64) -> Outcome {
    ProgramSearch<[LabelStep], String>(
      // Each program takes about a millisecond, its turns of the main actor included.
      exercise: 11, programs: 600,
      draw: { index, random in
        draw(length: 2 + index % (GeneratedPrograms.longest - 1), &random)
      },
      failure: failure(of:), smaller: smaller,
      told: { steps, failure in "\(steps.map(\.told).joined(separator: "; ")) → \(failure)" },
      held: { ran, seed in
        "\(ran) generated programs of labels opened, closed and let go, scores set one or "
          + "several to a turn, the name set, scores set while a label shows, and labels closed "
          + "or let go in the turn a score is set (seed \(seed)): "
          + "each open label ended on the latest score, and never showed an old one"
      }
    ).check(seed: seed)
  }

  /// A program of at most `length` steps: label A opened first, and B now and then.
  static func draw(length: Int, _ random: inout SeededRandom) -> [LabelStep] {
    var held: Set<Int> = [0]
    var steps: [LabelStep] = [.open(0)]
    if random.chance(40) {
      steps.append(.open(1))
      held.insert(1)
    }
    while steps.count < length {
      let slot = random.pick(0...2)
      let score = drawScore(&random)
      switch random.pick(1...22) {
      case 8...10: steps.append(.set((0..<random.pick(2...3)).map { _ in drawScore(&random) }))
      case 11...12 where !held.contains(slot):
        steps.append(.open(slot))
        held.insert(slot)
      case 13 where held.contains(slot): steps.append(.close(slot))
      case 14 where held.contains(slot):
        steps.append(.letGo(slot))
        held.remove(slot)
      case 15...17 where held.contains(slot):
        steps.append(.react(slot, on: random.pick(1...4), set: score))
      case 18: steps.append(.rename)
      case 19...20 where held.contains(slot):
        let scores = random.chance(70) ? [score] : [score, drawScore(&random)]
        switch random.pick(1...3) {
        case 1: steps.append(.setThenClose(scores, slot))
        case 2:
          steps.append(.setThenLetGo(scores, slot))
          held.remove(slot)
        default: steps.append(.closeThenSet(slot, scores))
        }
      default: steps.append(.set([score]))
      }
    }
    if case .set = steps.last {
    } else {
      steps.append(.set([random.pick(1...4)]))
    }
    return steps
  }

  /// A score to set: 1 to 4, and now and then 0 or below, which a label shows as well.
  private static func drawScore(_ random: inout SeededRandom) -> Int {
    random.chance(12) ? random.pick(-2...0) : random.pick(1...4)
  }

  /// What went wrong when `program` ran, in the learner's terms; `nil` when nothing did.
  static func failure(of program: [LabelStep]) -> String? {
    let world = onMain { LabelWorld<Label>(score: 0) }
    var labels: [Opened<LabelDisplay>] = []
    var score = 0
    // For each label, by its place in `labels`: the sets after which it fell silent on the
    // score it showed, and the labels closed since it last showed a score.
    var quietSince: [Int: String] = [:]
    var closedSince: [Int: [String]] = [:]
    func closing(_ index: Int) {
      for other in labels.indices where other != index && labels[other].state == .open {
        closedSince[other, default: []].append(slotName(labels[index].slot))
      }
    }
    func failing(_ failure: String) -> String {
      // What the labels queued runs out first: a task still on its way when the next program
      // starts would act in it, and a program would fail, or pass, by what ran before it.
      settle(world)
      onMain { world.letEverythingGo() }
      return failure
    }
    for step in program {
      var before = labels.map { $0.display.shown.map(\.score) }
      let setsBefore = world.sets.all.count
      var ownSets = 0
      switch step {
      case .open(let slot):
        guard let display = onMain({ world.open(slot) }) else { continue }
        let shown = display.shown
        if shown.map(\.score) != [score] || shown.contains(where: { !$0.onMainActor }) {
          let what =
            shown.isEmpty ? "nothing" : shown.map { String($0.score) }.joined(separator: ", ")
          return failing(
            "\(slotName(slot)) opened on \(score) and showed \(what) before its init returned, "
              + "not \(score) once, on the main actor")
        }
        labels.append(Opened(slot: slot, display: display, state: .open))
        before.append(shown.map(\.score))
      case .close(let slot):
        guard onMain({ world.close(slot) }),
          let index = labels.lastIndex(where: { $0.slot == slot && $0.state != .gone })
        else { continue }
        if labels[index].state == .open { closing(index) }
        labels[index].state = .closed
      case .letGo(let slot):
        guard let freed = onMain({ world.letGo(slot) }),
          let index = labels.lastIndex(where: { $0.slot == slot && $0.state != .gone })
        else { continue }
        if labels[index].state == .open { closing(index) }
        labels[index].state = .gone
        if !freed {
          return failing(
            "\(slotName(slot)) was let go and not freed: something still holds it. Does "
              + "onChange, the task it starts, or a closure the label keeps, capture the label "
              + "strongly?")
        }
      case .set(let scores):
        ownSets = scores.count
        onMain { world.set(scores) }
      case .setThenClose(let scores, let slot), .closeThenSet(let slot, let scores),
        .setThenLetGo(let scores, let slot):
        ownSets = scores.count
        let index = labels.lastIndex { $0.slot == slot && $0.state != .gone }
        let display = index.map { labels[$0].display }
        // What the label showed when close() returned, or it was let go: nothing after.
        let (shown, freed) = onMain { () -> (Int, Bool?) in
          switch step {
          case .setThenClose:
            world.set(scores)
            _ = world.close(slot)
            return (display?.shown.count ?? 0, nil)
          case .setThenLetGo:
            world.set(scores)
            return (display?.shown.count ?? 0, world.letGo(slot))
          default:
            _ = world.close(slot)
            let shown = display?.shown.count ?? 0
            world.set(scores)
            return (shown, nil)
          }
        }
        guard let index, let display else { break }
        before[index] = display.shown.prefix(shown).map(\.score)
        if labels[index].state == .open { closing(index) }
        if case .setThenLetGo = step {
          labels[index].state = .gone
          if freed == false {
            return failing(
              "\(slotName(slot)) was let go, in the turn a score was set, and not freed: "
                + "something still holds it. Does the task onChange starts capture the label "
                + "strongly?")
          }
        } else {
          labels[index].state = .closed
        }
      case .rename: onMain { world.rename() }
      case .react(let slot, let on, let set):
        guard onMain({ world.react(slot, on: on, set: set) }) else { continue }
      }
      settle(world)
      let sets = Array(world.sets.all.dropFirst(setsBefore))
      let latest = sets.last ?? score
      let news = zip(labels, before).map { label, before in
        Array(label.display.shown.dropFirst(before.count))
      }
      for (index, (label, before)) in zip(labels, before).enumerated() {
        let new = news[index]
        let name = slotName(label.slot)
        switch label.state {
        case .open:
          let others = labels.indices.filter { other in
            other != index && labels[other].state == .open && news[other].last?.score == latest
          }
          let seen = LabelStepSeen(
            name: name, before: before, new: new, scoreBefore: score, sets: sets,
            reacted: sets.count > ownSets, quietSince: quietSince[index],
            closedSince: closedSince[index] ?? [],
            shownByOthers: others.map { slotName(labels[$0].slot) })
          if let flaw = seen.flaw { return failing(flaw) }
          if !new.isEmpty {
            (quietSince[index], closedSince[index]) = (nil, nil)
          } else if !sets.isEmpty, before.last == latest {
            quietSince[index] =
              sets.count == 1
              ? "\(sets[0]) was set"
              : "\(sets.map(String.init).joined(separator: ", ")) were set in one turn"
          }
        case .closed, .gone:
          guard let first = new.first else { continue }
          let sameTurn =
            switch step {
            case .setThenClose(_, label.slot), .setThenLetGo(_, label.slot):
              ", though the score was set in the same turn, before: a change on its way when "
                + "the label closes must not be shown. Check that the label is open when the "
                + "update runs, not only when onChange does"
            default: ""
            }
          return failing(
            label.state == .closed
              ? "\(name), closed, still showed \(first.score)"
                + (sameTurn.isEmpty
                  ? ". A tracking already armed fires once more after close(): check that the "
                    + "label is open before showing" : sameTurn)
              : "\(name), let go, still showed \(first.score)\(sameTurn)")
        }
      }
      score = sets.last ?? score
    }
    // Everything let go, and what that queued run out, before asking what was freed.
    onMain { world.letEverythingGo() }
    settle(world)
    let (playerFreed, kept) = onMain { world.freed() }
    if let slot = kept.first {
      return "once every label and the player were let go, \(slotName(slot)) was not freed: "
        + "does the task onChange starts capture it strongly?"
    }
    if !playerFreed {
      return "once every label and the player were let go, the player was not freed: something "
        + "of a label's keeps it in a cycle"
    }
    return nil
  }

  /// Programs one step smaller than `program`.
  private static func smaller(_ program: [LabelStep]) -> [[LabelStep]] {
    smallerPrograms(program) { step in
      switch step {
      case .set(let scores) where scores.count > 1: scores.withEachLeftOut.map(LabelStep.set)
      case .set(let scores) where scores[0] > 1: [.set([scores[0] - 1])]
      case .set(let scores) where scores[0] < 1: [.set([1]), .set([scores[0] + 1])]
      case .react(let slot, let on, let set):
        (on > 1 ? [.react(slot, on: on - 1, set: set)] : [])
          + (set > 1 ? [.react(slot, on: on, set: set - 1)] : [])
      case .setThenClose(let scores, let slot) where scores.count > 1:
        scores.withEachLeftOut.map { .setThenClose($0, slot) }
      case .setThenLetGo(let scores, let slot) where scores.count > 1:
        scores.withEachLeftOut.map { .setThenLetGo($0, slot) }
      case .closeThenSet(let slot, let scores) where scores.count > 1:
        scores.withEachLeftOut.map { .closeThenSet(slot, $0) }
      default: []
      }
    }
  }
}
