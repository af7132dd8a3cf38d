import Dispatch
import Foundation
import ObserverScenarios
import Stage5Concurrency
import Support

// Exercise 10's generated programs: screens opened, closed and let go, savers started, scores
// set on the main actor and on other threads, and a screen closed with a score on its way,
// checked after each step against a model of what the exercise promises.

/// One step of a generated program of exercise 10, on screens A, B and C. Each set sets chapter
/// 7's score one more than the last, with chapter 8's the same every third time
/// (``ScreenPrograms/scores(_:)``), or the scores as they are again.
enum ScreenStep: Hashable {
  /// Opens a screen in the slot, on a fresh display.
  case open(Int)
  /// Opens a screen in the slot, and the game, as the screen shows the scores it opened on,
  /// sets a score: one set between a read of the value and a subscription made after it.
  case openAsTheGameSets(Int)
  /// Closes the slot's screen.
  case close(Int)
  /// Lets the slot's screen go.
  case letGo(Int)
  /// The main actor sets this many scores, in one of its jobs.
  case setOnTheMainActor(Int)
  /// Another thread sets this many scores.
  case setElsewhere(Int)
  /// In one job of the main actor: another thread sets a score, then the slot's screen is
  /// closed, with that score on its way.
  case closeWithAScoreOnItsWay(Int)
  /// A saver starts saving to a file of its own.
  case startSaver
  /// The scores as they are are set again, on the main actor or on another thread.
  case setAgain(onTheMainActor: Bool)
}

/// Exercise 10's generated programs, with a screen W left open throughout, which tells when
/// every change has reached the main actor. After each step, once it has, a model checks: a
/// screen shows, as it opens, the score it opened on, on the main actor, and a score the game
/// sets meanwhile after it; an open screen then shows every score set, once each, in order, on
/// the main actor, and one set on the main actor as soon as the set returns; a closed or let-go screen shows
/// nothing more, and one let go is freed at once; each saver saves every score set since it
/// started, in order, once.
enum ScreenPrograms<Screen: ScoresScreenModel, Saver: ScoreSaverModel>
where Saver.Scores == Screen.Scores {
  typealias Scores = Screen.Scores

  /// Runs the programs drawn from `seed`. After each step, a program waits for the changes on
  /// their way to land (``settle(until:)``): until every screen and saver has all it is due, or
  /// until the main actor, and the tasks that hop to it, have run everything queued. No clock
  /// decides what never came: the order of the main actor's jobs does, so a loaded machine is
  /// slower, not wrong.
  static func check(seed: UInt64) -> Outcome {
    ProgramSearch<[ScreenStep], (step: Int, text: String)>(
      // Each program takes a few milliseconds; with the wait for a change that never comes,
      // the programs and then the shrink stay within the check's limit.
      exercise: 10, programs: 500,
      // From 2 steps to 8, the longest.
      draw: { index, random in draw(length: 2 + index % (8 - 1), &random) },
      failure: { failure(of: $0) }, smaller: smaller,
      // The steps after the one that failed tell nothing.
      shrinkFrom: { program, found in Array(program.prefix(found.step + 1)) },
      // A race may not show on every run: a few runs of each, the shortest first. (Once
      // each: a lazy compactMap would run a program twice, and a race may differ.)
      confirmed: { shortest, program, _ in
        for steps in [shortest, shortest, shortest, program, program] {
          if let found = failure(of: steps) { return (steps, found) }
        }
        return nil
      },
      told: { steps, found in "\(told(steps)) → \(found.text)" },
      held: { ran, seed in
        "\(ran) generated programs of screens opened, closed and let go, savers started, and "
          + "scores set on the main actor, on other threads, as a screen opened, and on their "
          + "way to a screen as it closed (seed \(seed)): each open screen showed every score "
          + "once, in order, on the main actor, and each saver saved them"
      }
    ).check(seed: seed)
  }

  /// A program of at most `length` steps: screen A opened first.
  static func draw(length: Int, _ random: inout SeededRandom) -> [ScreenStep] {
    var held: Set<Int> = [0]
    var steps: [ScreenStep] = [.open(0)]
    while steps.count < length {
      let slot = random.pick(0...2)
      switch random.pick(1...20) {
      case 1...4: steps.append(.setElsewhere(random.pick(1...3)))
      case 5...8: steps.append(.setOnTheMainActor(random.pick(1...3)))
      case 9...11 where !held.contains(slot):
        steps.append(slot == 1 ? .openAsTheGameSets(slot) : .open(slot))
        held.insert(slot)
      case 12 where held.contains(slot): steps.append(.close(slot))
      case 13...14 where held.contains(slot):
        steps.append(.letGo(slot))
        held.remove(slot)
      case 15 where held.contains(slot): steps.append(.closeWithAScoreOnItsWay(slot))
      case 16...17: steps.append(.startSaver)
      case 18: steps.append(.setAgain(onTheMainActor: random.chance(50)))
      // A burst, quicker than a saver or a screen that hops on its own may keep up with.
      case 19: steps.append(.setElsewhere(12))
      default: steps.append(.setElsewhere(1))
      }
    }
    return steps
  }

  /// The scores the `number`th set sets: chapter 7's, and chapter 8's too every third time,
  /// so that a set that keeps a chapter it was not given shows.
  static func scores(_ number: Int) -> [Int: Int] {
    number % 3 == 0 ? [7: number, 8: number] : [7: number]
  }

  /// `[7: 3, 8: 3]`, as Swift writes the dictionary.
  static func written(_ scores: [Int: Int]) -> String {
    scores.isEmpty
      ? "[:]"
      : "[" + scores.keys.sorted().map { "\($0): \(scores[$0]!)" }.joined(separator: ", ") + "]"
  }

  /// The program as a story, with the scores each set sets: "open A; another thread sets
  /// [7: 1], [7: 2]; close A".
  static func told(_ program: [ScreenStep]) -> String {
    var score = 0
    func next(_ count: Int) -> String {
      defer { score += count }
      guard count > 3 else {
        return ((score + 1)...(score + count)).map { written(scores($0)) }.joined(separator: ", ")
      }
      return "\(count) scores, \(written(scores(score + 1))) to \(written(scores(score + count)))"
    }
    let steps = program.map { step in
      switch step {
      case .open(let slot): "open \(slotName(slot))"
      case .openAsTheGameSets(let slot):
        "open \(slotName(slot)), and as it shows the scores it opened on, the game sets "
          + next(1)
      case .close(let slot): "close \(slotName(slot))"
      case .letGo(let slot): "let \(slotName(slot)) go"
      case .setOnTheMainActor(let count): "the main actor sets \(next(count))"
      case .setElsewhere(let count): "another thread sets \(next(count))"
      case .closeWithAScoreOnItsWay(let slot):
        "another thread sets \(next(1)) and \(slotName(slot)) is closed before the main actor "
          + "runs again"
      case .startSaver: "start a saver"
      case .setAgain(let onTheMainActor):
        "\(onTheMainActor ? "the main actor" : "another thread") sets \(written(scores(score))) "
          + "again"
      }
    }
    return "with screen W open throughout, on \(written(scores(0))): "
      + steps.joined(separator: "; ")
  }

  /// The screens, savers and scores of one program, on the main actor.
  @MainActor
  private final class World {
    let scores: Scores
    var screens: [Int: Screen] = [:]
    var weakScreens: [Int: Weak<Screen>] = [:]
    var savers: [Saver] = []

    init(_ scores: Scores) { self.scores = scores }

    func open(_ slot: Int, on display: ScoreDisplay) {
      let screen = Screen(showing: scores, on: display)
      screens[slot] = screen
      weakScreens[slot] = Weak(screen)
    }

    /// Lets `slot`'s screen go: whether it was freed at once.
    func letGo(_ slot: Int) -> Bool {
      screens[slot] = nil
      return weakScreens[slot]?.object == nil
    }

    func closeAll() {
      for screen in screens.values { screen.close() }
    }
  }

  /// How many turns in a row (``turn()``) must come back with nothing new shown or saved
  /// before a program takes it that nothing more is on its way.
  private static var quietTurns: Int { 3 }

  /// The most turns a program waits for after a step: only code that shows or saves for ever
  /// takes them all, and the grader stops it sooner, as making no progress.
  private static var mostTurns: Int { 10_000 }

  /// One turn of the machinery that carries a change to the main actor, run after whatever is
  /// queued already: work sent to a dispatch queue, as stage 5 hands a turn on, starts a task,
  /// as stage 5 starts the one that carries a change set on another thread, which hops to the
  /// main actor and back; then the main actor runs a job of this thread's. Each waits for what
  /// was queued before it.
  private static func turn() {
    let back = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      Task {
        await MainActor.run {}
        back.signal()
      }
    }
    back.wait()
    onMain {}
  }

  /// The stage 5 observables `scores` keeps in its stored properties, which can tell when the
  /// changes set on them so far have been delivered (`waitUntilDelivered()`).
  private static func observables(of scores: Scores) -> [Stage5Concurrency.Observable<[Int: Int]>] {
    Mirror(reflecting: scores).children.compactMap {
      $0.value as? Stage5Concurrency.Observable<[Int: Int]>
    }
  }

  /// Waits until `done` says every change due has landed. First, when the model keeps its
  /// scores in stage 5's observable, until it has delivered every change set so far, to every
  /// handler, those on the main actor included; then, for what a screen or saver sends on its
  /// own way, until ``quietTurns`` turns in a row (``turn()``) have landed nothing: what
  /// `landed` counts, every score shown and saved, did not change. Decided by the order in which
  /// queued work runs, not by a clock.
  private static func settle(
    _ observables: [Stage5Concurrency.Observable<[Int: Int]>], until done: () -> Bool,
    landed: () -> Int
  ) {
    if !done(), !observables.isEmpty {
      let delivered = DispatchSemaphore(value: 0)
      Task {
        for observable in observables { await observable.waitUntilDelivered() }
        delivered.signal()
      }
      delivered.wait()
    }
    var last = landed()
    var (quiet, turns) = (0, 0)
    while !done(), quiet < quietTurns, turns < mostTurns {
      turn()
      let now = landed()
      (quiet, turns) = (now == last ? quiet + 1 : 0, turns + 1)
      last = now
    }
  }

  /// What went wrong when `program` ran, in the learner's terms, and at which step; `nil` when
  /// nothing did.
  private static func failure(of program: [ScreenStep]) -> (step: Int, text: String)? {
    let scores = Handed(value: Scores(Self.scores(0)))
    let observed = observables(of: scores.value)
    let world = onMain { Handed(value: World(scores.value)) }
    defer { onMain { world.value.closeAll() } }
    // W, slot -1, left open throughout: when it has shown a set, every screen has been sent it.
    let witness = ScoreDisplay()
    onMain { world.value.open(-1, on: witness) }
    // W is held to the promise too: a screen opened after it must not silence it.
    var screens = [Opened<ScoreDisplay>(slot: -1, display: witness, state: .open)]
    var savers: [(file: ScoreFile, from: Int)] = []
    /// Every score shown, by any screen, and saved, by any saver, so far.
    func landed() -> Int {
      screens.reduce(0) { $0 + $1.display.shown.count }
        + savers.reduce(0) { $0 + $1.file.saved.count }
    }
    var score = 0
    var all: [Int] = []
    /// Another thread sets the scores of each of `numbers`, and the caller waits for it.
    func setElsewhere(_ numbers: [Int]) {
      onThreads(1) { _ in
        for number in numbers { scores.value.set(Self.scores(number)) }
      }
    }
    for (index, step) in program.enumerated() {
      // `index` names the step that fails, so that the steps after it can be left out.
      var before = screens.map { $0.display.shown.count }
      var sets: [Int] = []
      func next(_ count: Int) -> [Int] {
        sets = Array((score + 1)...(score + count))
        return sets
      }
      switch step {
      case .open(let slot), .openAsTheGameSets(let slot):
        guard !screens.contains(where: { $0.slot == slot && $0.state != .gone }) else { continue }
        let display = ScoreDisplay()
        let gameSets = step == .openAsTheGameSets(slot)
        if gameSets {
          let number = next(1)[0]
          display.reactOnce { scores.value.set(Self.scores(number)) }
        }
        onMain { world.value.open(slot, on: display) }
        // The score the game set may reach it before its init returns: the step's set, below.
        let shown = Array(display.shown.prefix(gameSets ? 1 : .max))
        if shown.map(\.scores) != [Self.scores(score)] || shown.contains(where: { !$0.onMainActor })
        {
          return (
            index,
            "\(slotName(slot)) opened on \(written(Self.scores(score))) and showed "
              + "\(listed(shown.map(\.scores))) before its init returned, not "
              + "\(written(Self.scores(score))) once, on the main actor"
          )
        }
        screens.append(Opened(slot: slot, display: display, state: .open))
        guard gameSets else { continue }
        before.append(1)
      case .close(let slot), .closeWithAScoreOnItsWay(let slot):
        guard let position = screens.lastIndex(where: { $0.slot == slot && $0.state != .gone })
        else { continue }
        let onItsWay = step == .close(slot) ? [] : next(1)
        // What it shows before close() returns is its own affair; after, nothing may reach it.
        let display = screens[position].display
        before[position] = onMain {
          if !onItsWay.isEmpty { setElsewhere(onItsWay) }
          world.value.screens[slot]?.close()
          return display.shown.count
        }
        screens[position].state = .closed
      case .letGo(let slot):
        guard let position = screens.lastIndex(where: { $0.slot == slot && $0.state != .gone })
        else { continue }
        screens[position].state = .gone
        if !onMain({ world.value.letGo(slot) }) {
          return (
            index,
            "\(slotName(slot)) was let go and not freed: something still holds it, and it "
              + "shows scores for ever. A token it keeps, whose handler captures self strongly?"
          )
        }
      case .setOnTheMainActor, .setAgain(onTheMainActor: true):
        if case .setOnTheMainActor(let count) = step { _ = next(count) } else { sets = [score] }
        let numbers = sets
        let open = screens.filter { $0.state == .open }
        // What a screen showed for a set, read before the main actor runs anything else.
        let late = onMain {
          () -> (
            screen: Opened<ScoreDisplay>, shown: Int, during: [ScoreDisplay.Shown], number: Int
          )? in
          for number in numbers {
            let counts = open.map { $0.display.shown.count }
            scores.value.set(Self.scores(number))
            for (screen, count) in zip(open, counts)
            where screen.display.shown.last?.scores != Self.scores(number) {
              return (screen, count, Array(screen.display.shown.dropFirst(count)), number)
            }
          }
          return nil
        }
        if let (screen, shown, during, number) = late {
          let (name, set) = (screenName(screen.slot), written(Self.scores(number)))
          if !during.isEmpty {
            return (
              index,
              "\(name) showed \(listed(during.map(\.scores))) for the main actor's set(\(set)), "
                + "not \(set): every set, once each, in order, as it was set"
            )
          }
          // A score that never comes: the subscription is gone, or the value is set later, on a
          // queue of the model's own, which the turns may not have waited for.
          settle(observed, until: { screen.display.shown.count > shown }, landed: landed)
          guard screen.display.shown.count > shown else {
            return (
              index,
              "once the main actor had run everything on its way, \(name) had shown nothing of "
                + "\(set), set on the main actor: its subscription ended (a token let go ends "
                + "it), or the value is set later. Set on the main actor, a score reaches a "
                + "main-actor handler before set returns: set the value in set itself"
            )
          }
          return (
            index,
            "when the main actor's set(\(set)) returned, \(name) showed "
              + "\(listed(screen.display.shown.prefix(shown).suffix(1).map(\.scores))), not it. "
              + "Set on the main actor, a score reaches a main-actor handler before set returns: "
              + "set the value in set itself, and show it in the handler observe calls, not in a "
              + "hop of your own (a Task, DispatchQueue.main.async)"
          )
        }
      case .setElsewhere(let count): setElsewhere(next(count))
      case .setAgain(onTheMainActor: false):
        sets = [score]
        setElsewhere(sets)
      case .startSaver:
        let file = ScoreFile()
        onMain { world.value.savers.append(Saver(saving: scores.value, to: file)) }
        savers.append((file, all.count))
        continue
      }
      score = sets.last ?? score
      all += sets
      // Every change on its way lands: each open screen has shown every set, and each saver
      // saved them, then one more turn of the main actor; or nothing more is on its way.
      let due = all.count
      settle(
        observed,
        until: {
          zip(screens, before).allSatisfy { screen, before in
            screen.state != .open || screen.display.shown.count >= before + sets.count
          } && savers.allSatisfy { $0.file.saved.count >= due - $0.from }
        }, landed: landed)
      onMain {}
      for (screen, before) in zip(screens, before) {
        let new = Array(screen.display.shown.dropFirst(before))
        if case .openAsTheGameSets(let slot) = step, slot == screen.slot, screen.state == .open,
          new.isEmpty
        {
          return (
            index,
            "\(slotName(slot)) showed \(written(Self.scores(score - 1))) as it opened, then never "
              + "\(written(Self.scores(score))), which the game set as it showed them: a score set "
              + "between reading the value and observing is lost. Observe with .initial instead "
              + "of reading the value first"
          )
        }
        if let flaw = flaw(
          screen, new: new, sets: sets,
          again: step == .setAgain(onTheMainActor: true)
            || step == .setAgain(onTheMainActor: false))
        {
          return (index, flaw)
        }
      }
      for (file, from) in savers {
        let saved = file.saved
        let expected = all[from...].map(Self.scores)
        if saved != expected {
          let started =
            from == 0
            ? "before any score was set" : "after \(written(Self.scores(all[from - 1]))) was set"
          return (
            index,
            "a saver started \(started) saved \(compared(saved, expected)): it must save every "
              + "score set after it starts, in order, once"
          )
        }
      }
    }
    return nil
  }

  /// What is wrong with what `screen` showed during a step that set `sets`; `nil` when
  /// nothing is.
  private static func flaw(
    _ screen: Opened<ScoreDisplay>, new: [ScoreDisplay.Shown], sets: [Int], again: Bool
  ) -> String? {
    let name = screenName(screen.slot)
    guard screen.state == .open else {
      guard let first = new.first else { return nil }
      return screen.state == .closed
        ? "\(name), closed, still showed \(written(first.scores)): once close() returns, nothing "
          + "more may reach it. close() must end this screen's own subscription; a hop of your "
          + "own to the main actor (a Task, DispatchQueue.main.async) carries a score close() "
          + "cannot stop"
        : "\(name), let go, still showed \(written(first.scores))"
    }
    if let off = new.first(where: { !$0.onMainActor }) {
      return "\(name) showed \(written(off.scores)) off the main actor, on the thread that set "
        + "it: a screen's handler must run on the main actor"
    }
    let shown = new.map(\.scores)
    let expected = sets.map(scores)
    guard shown != expected else { return nil }
    if shown.count < expected.count, shown == Array(expected.prefix(shown.count)) {
      return "once everything on its way had landed, \(name) had shown \(listed(shown)) of "
        + "\(listed(expected)): "
        + (again
          ? "a set of the scores as they were is a set too, and must reach every screen"
          : "its subscription ended (a token let go ends it), or the changes never reached the "
            + "main actor")
    }
    return "\(name) showed \(compared(shown, expected)): every set, once each, in order, as it "
      + "was set"
  }

  /// "[7: 2], [7: 2], not [7: 1], [7: 2]" for short lists; for long ones, where the first
  /// difference is: "[7: 11] where [7: 10] was due, at place 10 of the 12 due".
  private static func compared(_ got: [[Int: Int]], _ expected: [[Int: Int]]) -> String {
    guard max(got.count, expected.count) > 4,
      let index = (0..<max(got.count, expected.count)).first(where: {
        $0 >= got.count || $0 >= expected.count || got[$0] != expected[$0]
      })
    else { return "\(listed(got)), not \(listed(expected))" }
    let was = index < got.count ? written(got[index]) : "nothing more"
    let due = index < expected.count ? written(expected[index]) : "nothing more"
    return "\(was) where \(due) was due, at place \(index + 1) of the \(expected.count) due "
      + "(\(got.count) shown)"
  }

  /// "[7: 1], [7: 2]" for scores, "nothing" for none.
  private static func listed(_ scores: [[Int: Int]]) -> String {
    scores.isEmpty ? "nothing" : scores.map(written).joined(separator: ", ")
  }

  /// Programs one step smaller than `program`.
  private static func smaller(_ program: [ScreenStep]) -> [[ScreenStep]] {
    smallerPrograms(program) { step in
      switch step {
      case .setOnTheMainActor(let count) where count > 1: [.setOnTheMainActor(count - 1)]
      case .setElsewhere(let count) where count > 3: [.setElsewhere(count / 2)]
      case .setElsewhere(let count) where count > 1: [.setElsewhere(count - 1)]
      case .closeWithAScoreOnItsWay(let slot): [.close(slot)]
      case .openAsTheGameSets(let slot): [.open(slot)]
      default: []
      }
    }
  }

  /// The name a story gives the screen in `slot`: W for the one left open throughout, then A,
  /// B, C.
  private static func screenName(_ slot: Int) -> String { slot < 0 ? "W" : slotName(slot) }
}
