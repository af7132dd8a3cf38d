import Foundation
import ObserverScenarios

// Exercise 10: chapter 7's scores, ported to stage 5 with the screen on the main actor. It has
// no observable of its own for the scenarios to drive: its code is an app's, a model, a screen
// and a saver, and its checks drive those, real objects, from the main actor and from other
// threads.

// MARK: - What the grader hands the app

/// The question groups screen's labels, as a UI toolkit has them: exercise 10's stand-in for
/// a `UILabel`, which must be set on the main thread only.
///
/// Like Xcode's Main Thread Checker, it notes, for each call, whether it came on the main
/// actor; the grader reads what it showed, and where.
package final class ScoreDisplay: Sendable {
  /// One call of ``show(_:)``.
  package struct Shown: Sendable, Equatable {
    package var scores: [Int: Int]
    package var onMainActor: Bool
  }

  private let recording = Recording<Shown>()

  /// Shows the latest score of each group, one label a group. Call it on the main actor.
  package func show(_ scores: [Int: Int]) {
    recording.append(Shown(scores: scores, onMainActor: MainQueue.isCurrent))
  }

  /// Every call so far, in order.
  package var shown: [Shown] { recording.all }

  /// Every call, once the last one showed `scores`, or once `seconds` have passed.
  func wait(seconds: Double, forLast scores: [Int: Int]) -> [Shown] {
    recording.wait(seconds: seconds) { $0.last?.scores == scores }
  }

  /// Every call, once `count` have been made, or once `seconds` have passed.
  func wait(seconds: Double, forCount count: Int) -> [Shown] {
    recording.wait(seconds: seconds) { $0.count >= count }
  }
}

/// Tells, without trapping, whether code runs on the main actor, as stage 5's own `MainQueue`
/// does: on the main thread, or in work of the main queue, which on Linux a test runner drains
/// from another thread.
enum MainQueue {
  /// A mark on the main dispatch queue, which runs the main actor's jobs.
  private static let mark = Mark()

  static var isCurrent: Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mark.key) != nil
  }

  /// Holds the key. Unchecked `Sendable`: it is made once and never changed.
  private final class Mark: @unchecked Sendable {
    let key = DispatchSpecificKey<Void>()

    init() { DispatchQueue.main.setSpecific(key: key, value: ()) }
  }
}

/// The save file of exercise 10: notes each save, from any thread, in order.
package final class ScoreFile: Sendable {
  private let recording = Recording<[Int: Int]>()

  /// Saves the latest scores. Any thread may call it.
  package func save(_ scores: [Int: Int]) { recording.append(scores) }

  /// Every save, once `count` have been made, or once `seconds` have passed.
  func wait(seconds: Double, forCount count: Int) -> [[Int: Int]] {
    recording.wait(seconds: seconds) { $0.count >= count }
  }
}

// MARK: - Exercise 10's API

/// Exercise 10's model: the latest score of each question group, which a game sets when it
/// ends, on whatever thread it ran.
package protocol LatestScoresModel: AnyObject, SendableMetatype {
  /// Creates the model holding `scores`, as loaded from the save file.
  init(_ scores: [Int: Int])
  /// Sets the latest scores, as a game that ends does: its observers are told.
  func set(_ scores: [Int: Int])
}

/// Exercise 10's question groups screen: shows the latest scores on `display` while it is
/// open.
@MainActor
package protocol ScoresScreenModel: AnyObject, SendableMetatype {
  associatedtype Scores: LatestScoresModel
  /// Opens the screen, showing the scores at once and every change after.
  init(showing scores: Scores, on display: ScoreDisplay)
  /// Closes the screen: it shows nothing more.
  func close()
}

/// Exercise 10's saver: saves every change of the scores to `file`.
@MainActor
package protocol ScoreSaverModel: AnyObject, SendableMetatype {
  associatedtype Scores: LatestScoresModel
  /// Starts saving every change of `scores` to `file`.
  init(saving scores: Scores, to file: ScoreFile)
}

extension ExerciseCode {
  /// The code of exercise 10: a model, a screen and a saver, graded by its checks only.
  package static func mainActorScores<Screen: ScoresScreenModel, Saver: ScoreSaverModel>(
    _ screen: Screen.Type, _ saver: Saver.Type
  ) -> ExerciseCode where Saver.Scores == Screen.Scores {
    ExerciseCode { MainActorScoresChecks<Screen, Saver>.run($0) }
  }
}

// MARK: - The checks

/// A value handed between the main actor and the check's threads. The check is what finds out
/// whether the objects inside may be used where it hands them.
struct Handed<Value>: @unchecked Sendable {
  let value: Value
}

/// Runs `body` on a thread of its own while the main thread runs the main actor's jobs,
/// when called on the main thread (a grading child); else here, while whoever drains the main
/// queue runs them (the test runner).
func servingTheMainActor(_ body: @escaping @Sendable () -> Outcome) -> Outcome {
  guard Thread.isMainThread else { return body() }
  let result = Recording<Outcome>()
  let thread = Thread { result.append(body()) }
  thread.start()
  while result.all.isEmpty {
    _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
  }
  return result.all[0]
}

/// Runs `body` on the main actor and waits for it.
func onMain<T>(_ body: @MainActor () -> T) -> T {
  let result = DispatchQueue.main.sync { MainActor.assumeIsolated { Handed(value: body()) } }
  return result.value
}

/// A screen, held by the check so that it can let it go and see whether it is freed.
@MainActor
private final class Held<Screen: AnyObject> {
  var screen: Screen?
  weak var weakScreen: Screen?
  init(_ screen: Screen) {
    self.screen = screen
    weakScreen = screen
  }

  /// Lets the screen go; whether it was freed.
  func letGo() -> Bool {
    screen = nil
    return weakScreen == nil
  }
}

/// Runs exercise 10's checks on the main actor and on other threads.
private enum MainActorScoresChecks<Screen: ScoresScreenModel, Saver: ScoreSaverModel>
where Saver.Scores == Screen.Scores {
  typealias Scores = Screen.Scores

  /// How long a check waits for changes to reach the main actor: far longer than an honest
  /// delivery takes. In a grading child, which runs one check at a time, within the workshop's
  /// limit for a check. In a test runner, a change set on another thread reaches the main actor
  /// through a task, which waits for a thread of the cooperative pool (two threads, on two
  /// cores) while other tests block them: longer there.
  static func patience(inGradingChild: Bool) -> Double { inGradingChild ? 1.5 : 30 }

  static func run(_ check: Check) -> Outcome {
    let inGradingChild = Thread.isMainThread
    let patience = patience(inGradingChild: inGradingChild)
    // Read here: a task-local value does not reach the thread the checks run on.
    let seed = GeneratedPrograms.seed ?? GeneratedPrograms.defaultSeed
    return servingTheMainActor {
      switch check {
      case .screenOpensOnSavedScores: screenOpensOnSavedScores()
      case .screenShowsOnMainThread: screenShowsOnMainThread(patience)
      case .everyScoreToBothInOrder: everyScoreToBothInOrder(patience)
      case .closedScreenStopsAndIsFreed: closedScreenStopsAndIsFreed(patience)
      case .screenLetGoIsFreed: screenLetGoIsFreed(patience)
      case .closedWithAScoreOnItsWay: closedWithAScoreOnItsWay(patience)
      case .latestScoreShownLast: latestScoreShownLast(patience)
      case .setSeenWhenItReturns: setSeenWhenItReturns()
      case .openedWhileAnotherThreadSets: openedWhileAnotherThreadSets(patience)
      case .generatedScreens:
        // In a grading child a change reaches the main actor within microseconds, and a
        // wrong answer's that never comes costs the wait for each program the shrink tries.
        ScreenPrograms<Screen, Saver>.check(
          seed: seed, patience: inGradingChild ? (0.2, 1) : (patience, patience))
      default: .flaw("\(check.rawValue) is not a check of this exercise's API")
      }
    }
  }

  /// Sets each of `values` as chapter 7's score, in order, from a thread of its own, and waits
  /// for that thread to end.
  private static func setOnAnotherThread(_ scores: Scores, _ values: [Int]) {
    let handed = Handed(value: scores)
    onThreads(1) { _ in
      for value in values { handed.value.set([7: value]) }
    }
  }

  /// "7: 3" for `[7: 3]`: the scores, by chapter.
  private static func text(_ scores: [Int: Int]) -> String {
    scores.keys.sorted().map { "\($0): \(scores[$0] ?? 0)" }.joined(separator: ", ")
  }

  /// The chapter 7 scores shown, "0, 1, 2", scores of any other shape written whole
  /// ("[:]"), or "nothing".
  private static func values(_ shown: [[Int: Int]]) -> String {
    shown.isEmpty
      ? "nothing"
      : shown.map {
        $0 == [7: $0[7] ?? -1] ? String($0[7]!) : ScreenPrograms<Screen, Saver>.written($0)
      }
      .joined(separator: ", ")
  }

  /// Opens a screen on a fresh display, on the main actor.
  private static func open(_ scores: Scores) -> (Handed<Held<Screen>>, ScoreDisplay) {
    let handed = Handed(value: scores)
    let display = ScoreDisplay()
    let held = onMain { Handed(value: Held(Screen(showing: handed.value, on: display))) }
    return (held, display)
  }

  private static func screenOpensOnSavedScores() -> Outcome {
    let scores = Scores([7: 3])
    let handed = Handed(value: scores)
    let display = ScoreDisplay()
    let shown = onMain {
      let screen = Screen(showing: handed.value, on: display)
      let shown = display.shown
      screen.close()
      return shown
    }
    if shown.isEmpty {
      return .flaw(
        "saved scores 7: 3 were loaded, then the screen opened and showed nothing before its "
          + "init returned: it stays blank until the next game ends")
    }
    if shown.map(\.scores) != [[7: 3]] {
      return .flaw(
        "saved scores 7: 3 were loaded; the screen, as it opened, showed "
          + "\(values(shown.map(\.scores))), not 3 once")
    }
    return withExtendedLifetime(scores) {
      .holds("saved scores 7: 3 were loaded: the screen showed 3 before its init returned")
    }
  }

  /// A flaw when what `display` showed is not `expected` in order, each once, on the main
  /// actor.
  private static func screenFlaw(
    _ shown: [ScoreDisplay.Shown], expected: [Int], _ steps: String, patience: Double
  ) -> Outcome? {
    if let off = shown.first(where: { !$0.onMainActor }) {
      return .flaw(
        "\(steps): the screen showed \(text(off.scores)) off the main actor, on the thread that "
          + "set it. A screen's handler must run on the main actor")
    }
    let got = shown.map(\.scores)
    if got == expected.map({ [7: $0] }) { return nil }
    if got.count < expected.count, got == expected.prefix(got.count).map({ [7: $0] }) {
      return .flaw(
        "\(steps): \(IsolatedGrading.seconds(patience)) later the screen had shown only "
          + "\(values(got)), not \(values(expected.map { [7: $0] })): its subscription ended "
          + "(a token let go ends it), or the changes never reached the main actor")
    }
    return .flaw(
      "\(steps): the screen showed \(values(got)), not \(values(expected.map { [7: $0] }))")
  }

  private static func setSeenWhenItReturns() -> Outcome {
    let scores = Scores([7: 0])
    let handed = Handed(value: scores)
    let display = ScoreDisplay()
    // On the main actor, a set reaches a main-actor handler before it returns; a set done
    // later, elsewhere, cannot reach it before this job of the main actor ends.
    let shown = onMain {
      let screen = Screen(showing: handed.value, on: display)
      var shown: [[Int: Int]?] = []
      for value in 1...3 {
        handed.value.set([7: value])
        shown.append(display.shown.last?.scores)
      }
      screen.close()
      return shown
    }
    let steps = "a screen opened on 7: 0, then the main actor set 7: 1, 2, 3"
    for (value, last) in zip(1..., shown) where last != [7: value] {
      return .flaw(
        "\(steps): when set(7: \(value)) returned, the screen showed "
          + "\(last.map(text) ?? "nothing"), not 7: \(value): the set was not done when set "
          + "returned. Set the observable's value in set itself, not later")
    }
    return withExtendedLifetime(scores) {
      .holds("\(steps): when each set returned, the screen showed its score")
    }
  }

  /// How many scores the setting thread sets, and screens the main actor opens meanwhile.
  private static var scoresSet: Int { 300 }
  private static var screensOpened: Int { 40 }
  /// The window a race needs is a few microseconds wide: many rounds, so that one shows it,
  /// as many as fit in a second.
  private static var openingRounds: Int { 60 }

  private static func openedWhileAnotherThreadSets(_ patience: Double) -> Outcome {
    let steps =
      "another thread set 7: 1, 2, 3, … \(scoresSet) while the main actor opened \(screensOpened) "
      + "screens, one after another"
    let deadline = now() + 1_000_000_000
    var rounds = 0
    for _ in 0..<openingRounds where now() < deadline {
      rounds += 1
      let scores = Scores([7: 0])
      let handed = Handed(value: scores)
      let displays = (0..<screensOpened).map { _ in ScoreDisplay() }
      let (count, opened) = (scoresSet, screensOpened)
      // The setting thread, started first, sets a score every few microseconds; the main
      // actor opens the screens meanwhile, in one job.
      let setter = Thread {
        for value in 1...count {
          handed.value.set([7: value])
          let due = now() + 20_000
          while now() < due {}
        }
      }
      setter.start()
      let screens = onMain {
        var screens: [Screen] = []
        for display in displays {
          screens.append(Screen(showing: handed.value, on: display))
          let due = now() + UInt64(count * 20_000 / opened)
          while now() < due {}
        }
        return Handed(value: screens)
      }
      for (index, display) in displays.enumerated() {
        let shown = display.wait(seconds: patience, forLast: [7: count]).map { $0.scores[7] ?? -1 }
        if let flaw = openedFlaw(shown, screen: index + 1, steps) {
          onMain { closeAll(screens.value) }
          return flaw
        }
      }
      onMain { closeAll(screens.value) }
    }
    return .holds(
      "\(steps), \(rounds) times: each showed the score it opened on, then every later "
        + "one, in order")
  }

  @MainActor
  private static func closeAll(_ screens: [Screen]) {
    for screen in screens { screen.close() }
  }

  /// What is wrong with what screen `number` showed, when it is not one score, then each
  /// later one up to the last set.
  private static func openedFlaw(_ shown: [Int], screen number: Int, _ steps: String)
    -> Outcome?
  {
    guard let first = shown.first else {
      return .flaw("\(steps): screen \(number) showed nothing")
    }
    if shown == Array(first...max(first, scoresSet)) { return nil }
    let screen = "screen \(number) showed \(first) as it opened"
    if let twice = shown.dropFirst().first(where: { $0 <= first }) {
      return .flaw(
        "\(steps): \(screen), then \(twice) again or before it: what a screen shows as it "
          + "opens must come from the subscription itself, .initial, not from a read before or "
          + "after it")
    }
    if let lost = (first...(shown.max() ?? first)).first(where: { !shown.contains($0) }) {
      return .flaw(
        "\(steps): \(screen), then never \(lost): a score set between reading the value and "
          + "observing is lost. Observe with .initial instead of reading the value first")
    }
    if shown == [first] {
      return .flaw(
        "\(steps): \(screen), and none of the later scores, up to \(scoresSet): either they were "
          + "all set between reading the value and observing, and lost (observe with .initial "
          + "instead of reading the value first), or its subscription ended")
    }
    if let last = shown.last, shown == Array(first...last) {
      return .flaw(
        "\(steps): \(screen), then each later score up to \(last), and no more, not up to "
          + "\(scoresSet): its subscription ended, or the changes never reached the main actor")
    }
    return .flaw(
      "\(steps): \(screen), then \(shown.dropFirst().prefix(8).map(String.init).joined(separator: ", ")), "
        + "not each later score once, in order")
  }

  private static func screenShowsOnMainThread(_ patience: Double) -> Outcome {
    let scores = Scores([7: 0])
    let (held, display) = open(scores)
    let steps = "a screen opened on 7: 0; another thread set 7: 1, then 2, then 3"
    setOnAnotherThread(scores, [1, 2, 3])
    let shown = display.wait(seconds: patience, forLast: [7: 3])
    onMain { held.value.screen?.close() }
    return withExtendedLifetime(scores) {
      screenFlaw(shown, expected: [0, 1, 2, 3], steps, patience: patience)
        ?? .holds("\(steps): the screen showed 0, 1, 2, 3, each on the main actor")
    }
  }

  private static func everyScoreToBothInOrder(_ patience: Double) -> Outcome {
    let scores = Scores([7: 0])
    let handed = Handed(value: scores)
    let file = ScoreFile()
    let (held, display) = open(scores)
    let saver = onMain { Handed(value: Saver(saving: handed.value, to: file)) }
    let steps =
      "a screen and a saver observed 7: 0; another thread set 1, 2, 3, the main actor 4, 5, "
      + "then another thread 6"
    setOnAnotherThread(scores, [1, 2, 3])
    onMain {
      handed.value.set([7: 4])
      handed.value.set([7: 5])
    }
    setOnAnotherThread(scores, [6])
    let shown = display.wait(seconds: patience, forLast: [7: 6])
    let saved = file.wait(seconds: patience, forCount: 6)
    onMain { held.value.screen?.close() }
    return withExtendedLifetime((scores, saver)) {
      if let flaw = screenFlaw(shown, expected: Array(0...6), steps, patience: patience) {
        return flaw
      }
      if saved != (1...6).map({ [7: $0] }) {
        return .flaw("\(steps): the saver saved \(values(saved)), not 1, 2, 3, 4, 5, 6")
      }
      return .holds("\(steps): the screen showed 0 to 6, the saver saved 1 to 6, in order, once")
    }
  }

  /// A second screen, left open, whose display tells when a change has been delivered.
  private static func witnessFlaw(
    _ witness: ScoreDisplay, last: Int, _ steps: String, patience: Double
  ) -> Outcome? {
    let shown = witness.wait(seconds: patience, forLast: [7: last])
    guard shown.last?.scores != [7: last] else { return nil }
    return .flaw(
      "\(steps): the screen left open showed \(values(shown.map(\.scores))), never \(last)")
  }

  private static func closedScreenStopsAndIsFreed(_ patience: Double) -> Outcome {
    let scores = Scores([7: 0])
    let handed = Handed(value: scores)
    let (held, display) = open(scores)
    let (kept, witness) = open(scores)
    // What it showed before close() returned, however many times it showed its first scores.
    let shownAtClose = onMain {
      held.value.screen?.close()
      return display.shown.count
    }
    var steps = "two screens opened on 7: 0; the first was closed; the main actor set 1"
    onMain { handed.value.set([7: 1]) }
    steps += ", another thread 2"
    setOnAnotherThread(scores, [2])
    if let flaw = witnessFlaw(witness, last: 2, steps, patience: patience) { return flaw }
    let afterClose = display.shown.dropFirst(shownAtClose).map(\.scores)
    if !afterClose.isEmpty {
      return .flaw("\(steps): the closed screen still showed \(values(afterClose))")
    }
    let freed = onMain { held.value.letGo() }
    onMain { kept.value.screen?.close() }
    return withExtendedLifetime(scores) {
      freed
        ? .holds("\(steps): the closed screen showed nothing more, and was freed once let go")
        : .flaw(
          "\(steps): the closed screen showed nothing more, but once let go it was not freed: "
            + "something still holds it. A handler that captures self strongly, still kept?")
    }
  }

  private static func screenLetGoIsFreed(_ patience: Double) -> Outcome {
    let scores = Scores([7: 0])
    let (held, display) = open(scores)
    let (kept, witness) = open(scores)
    let (freed, shownAtLetGo) = onMain { (held.value.letGo(), display.shown.count) }
    let steps = "two screens opened on 7: 0; the first was let go without close()"
    if !freed {
      onMain { held.value.weakScreen?.close() }
      onMain { kept.value.screen?.close() }
      return .flaw(
        "\(steps): it was not freed, so it shows scores for ever: something still holds it. "
          + "A token it keeps, whose handler captures self strongly?")
    }
    setOnAnotherThread(scores, [1])
    let witnessed = witnessFlaw(
      witness, last: 1, steps + "; another thread set 1", patience: patience)
    onMain { kept.value.screen?.close() }
    if let witnessed { return witnessed }
    let after = display.shown.dropFirst(shownAtLetGo).map(\.scores)
    return withExtendedLifetime(scores) {
      after.isEmpty
        ? .holds("\(steps): it was freed at once, and showed nothing of 1, set after")
        : .flaw("\(steps): it was freed, yet its display then showed \(values(after))")
    }
  }

  private static func closedWithAScoreOnItsWay(_ patience: Double) -> Outcome {
    let scores = Scores([7: 0])
    let handed = Handed(value: scores)
    let (held, display) = open(scores)
    let (kept, witness) = open(scores)
    let steps =
      "two screens opened on 7: 0; another thread set 1, and the first screen was closed before "
      + "the main actor ran again"
    // One job of the main actor: the score is on its way, not shown yet, when close() runs.
    let shownAtClose = onMain {
      setOnAnotherThread(handed.value, [1])
      held.value.screen?.close()
      return display.shown.count
    }
    if let flaw = witnessFlaw(witness, last: 1, steps, patience: patience) { return flaw }
    // The first screen subscribed first, so what it had queued has run by now; one more turn
    // of the main actor all the same.
    onMain {}
    let afterClose = display.shown.dropFirst(shownAtClose).map(\.scores)
    onMain { kept.value.screen?.close() }
    return withExtendedLifetime(scores) {
      afterClose.isEmpty
        ? .holds("\(steps): the closed screen showed nothing of 1")
        : .flaw(
          "\(steps): the closed screen still showed \(values(afterClose)). Once close() "
            + "returns, nothing more may reach it: close() must end this screen's own "
            + "subscription, and a hop of your own to the main actor (a Task, "
            + "DispatchQueue.main.async) carries a score that close() cannot stop")
    }
  }

  private static func latestScoreShownLast(_ patience: Double) -> Outcome {
    let scores = Scores([7: 0])
    let handed = Handed(value: scores)
    let (held, display) = open(scores)
    let steps =
      "a screen opened on 7: 0; another thread set 1, then the main actor set 4 before it ran "
      + "again"
    onMain {
      setOnAnotherThread(handed.value, [1])
      handed.value.set([7: 4])
    }
    _ = display.wait(seconds: patience, forLast: [7: 4])
    // Anything still queued for the main actor lands before this turn.
    onMain {}
    let shown = display.shown
    onMain { held.value.screen?.close() }
    return withExtendedLifetime(scores) {
      screenFlaw(shown, expected: [0, 1, 4], steps, patience: patience)
        ?? .holds("\(steps): the screen showed 0, 1, 4, ending on the latest")
    }
  }
}
