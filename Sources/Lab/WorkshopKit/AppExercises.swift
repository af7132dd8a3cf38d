import Foundation
import ObserverScenarios
import Synchronization

// Exercises 10 and 11 grade an app's code, not an observable the scenarios can drive. Exercise
// 10 is chapter 7's scores, ported to stage 5 with the screen on the main actor: a model, a
// screen and a saver. Exercise 11 is an `@Observable` player, and a score label that keeps up
// with it through `withObservationTracking`. Their generated programs (ScreenPrograms.swift,
// LabelPrograms.swift) drive those, real objects, from the main actor and from other threads,
// and read what each screen or label showed on the stand-ins below.

// MARK: - What the grader hands the apps

/// The question groups screen's labels, as a UI toolkit has them: exercise 10's stand-in for
/// a `UILabel`, which must be set on the main thread only.
///
/// Like Xcode's Main Thread Checker, it notes, for each call, whether it came on the main
/// actor; the grader reads what it showed, and where.
public final class ScoreDisplay: Sendable {
  /// One call of ``show(_:)``.
  package struct Shown: Sendable, Equatable {
    package var scores: [Int: Int]
    package var onMainActor: Bool
  }

  private let recording = Recording<Shown>()
  /// What the grader does, once, inside the next call on the main actor.
  private let reaction = Mutex<Handed<() -> Void>?>(nil)

  /// Shows the latest score of each group, one label a group. Call it on the main actor.
  public func show(_ scores: [Int: Int]) {
    let onMainActor = MainQueue.isCurrent
    recording.append(Shown(scores: scores, onMainActor: onMainActor))
    // The reaction sets the scores, as a game would: on the main actor only.
    guard onMainActor else { return }
    reaction.withLock { $0.take() }?.value()
  }

  /// Every call so far, in order.
  package var shown: [Shown] { recording.all }

  /// Has `act` run, once, from inside the next call of ``show(_:)`` made on the main actor:
  /// a game that sets the scores as the screen shows them.
  func reactOnce(_ act: @escaping () -> Void) {
    reaction.withLock { $0 = Handed(value: act) }
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
public final class ScoreFile: Sendable {
  private let recording = Recording<[Int: Int]>()

  /// Saves the latest scores. Any thread may call it.
  public func save(_ scores: [Int: Int]) { recording.append(scores) }

  /// Every save so far, in order.
  var saved: [[Int: Int]] { recording.all }
}

/// The score label's text, as a UI toolkit has it: exercise 11's stand-in for a `UILabel`,
/// which must be set on the main actor only.
///
/// It notes each score shown, and whether it came on the main actor; the grader reads them.
/// Like a game that reacts to what the player sees, the grader may also set the score from
/// inside ``show(_:)``.
public final class LabelDisplay: Sendable {
  /// One call of ``show(_:)``.
  package struct Shown: Sendable, Equatable {
    package var score: Int
    package var onMainActor: Bool
  }

  /// What the grader does, once, the first time the label shows `on`. Unchecked `Sendable`:
  /// it is made on the main actor and run there, inside `show`.
  struct Reaction: @unchecked Sendable {
    var on: Int
    var act: () -> Void
  }

  private let recording = Recording<Shown>()
  private let reaction = Mutex<Reaction?>(nil)

  /// Shows `score` on the label. Call it on the main actor.
  public func show(_ score: Int) {
    let onMainActor = MainQueue.isCurrent
    recording.append(Shown(score: score, onMainActor: onMainActor))
    // The reaction uses the player, which lives on the main actor: a call from elsewhere is a
    // flaw the grader reports, and does not run it.
    guard onMainActor else { return }
    let due = reaction.withLock { waiting -> Reaction? in
      guard let reaction = waiting, reaction.on == score else { return nil }
      waiting = nil
      return reaction
    }
    due?.act()
  }

  /// Every call so far, in order.
  package var shown: [Shown] { recording.all }

  /// Has `act` run, once, the first time the label shows `score`, from inside ``show(_:)``.
  func react(on score: Int, _ act: @escaping () -> Void) {
    reaction.withLock { $0 = Reaction(on: score, act: act) }
  }
}

// MARK: - Exercise 10's API

/// Exercise 10's model: the latest score of each question group, which a game sets when it
/// ends, on whatever thread it ran.
public protocol LatestScoresModel: AnyObject, SendableMetatype {
  /// Creates the model holding `scores`, as loaded from the save file.
  init(_ scores: [Int: Int])
  /// Sets the latest scores, as a game that ends does: its observers are told.
  func set(_ scores: [Int: Int])
}

/// Exercise 10's question groups screen: shows the latest scores on `display` while it is
/// open.
@MainActor
public protocol ScoresScreenModel: AnyObject, SendableMetatype {
  associatedtype Scores: LatestScoresModel
  /// Opens the screen, showing the scores at once and every change after.
  init(showing scores: Scores, on display: ScoreDisplay)
  /// Closes the screen: it shows nothing more.
  func close()
}

/// Exercise 10's saver: saves every change of the scores to `file`.
@MainActor
public protocol ScoreSaverModel: AnyObject, SendableMetatype {
  associatedtype Scores: LatestScoresModel
  /// Starts saving every change of `scores` to `file`.
  init(saving scores: Scores, to file: ScoreFile)
}

extension ExerciseCode {
  /// The code of exercise 10, whose model is not `Sendable`: a model, a screen and a saver,
  /// graded by its generated programs, which say first that a game on another thread could
  /// not set that model.
  package static func mainActorScores<Screen: ScoresScreenModel, Saver: ScoreSaverModel>(
    _ screen: Screen.Type, _ saver: Saver.Type
  ) -> ExerciseCode where Saver.Scores == Screen.Scores {
    mainActorScores(screen, saver, scoresAreSendable: false)
  }

  /// The code of exercise 10, whose model is `Sendable`: a model, a screen and a saver, graded
  /// by its generated programs.
  ///
  /// Swift picks this overload, the more constrained, where the model's type is known to be
  /// `Sendable` where it is called: the grading child's generated code names the learner's
  /// types, so it asks the question of the learner's `LatestScores` itself.
  package static func mainActorScores<Screen: ScoresScreenModel, Saver: ScoreSaverModel>(
    _ screen: Screen.Type, _ saver: Saver.Type
  ) -> ExerciseCode where Saver.Scores == Screen.Scores, Screen.Scores: Sendable {
    mainActorScores(screen, saver, scoresAreSendable: true)
  }

  private static func mainActorScores<Screen: ScoresScreenModel, Saver: ScoreSaverModel>(
    _ screen: Screen.Type, _ saver: Saver.Type, scoresAreSendable: Bool
  ) -> ExerciseCode where Saver.Scores == Screen.Scores {
    app(checkedBy: .generatedScreens) { seed in
      guard scoresAreSendable else {
        let name = String(describing: Screen.Scores.self)
        return .flaw(
          "\(name) is not Sendable: a game that ends on another thread cannot set it there, "
            + "as Swift 6 checks. Make it a final class that says it is Sendable, whose stored "
            + "properties are constants of Sendable types, such as stage 5's Observable")
      }
      return ScreenPrograms<Screen, Saver>.check(seed: seed)
    }
  }
}

// MARK: - Exercise 11's API

/// Exercise 11's model: a player whose score a game sets, an `@Observable` class used on the
/// main actor, as an app's model is.
public protocol ObservedPlayer: AnyObject {
  /// A player called `name`, with `score`.
  init(name: String, score: Int)
  /// The player's name, which the label does not show.
  var name: String { get set }
  /// The score the label shows.
  var score: Int { get set }
}

/// Exercise 11's score label: shows a player's latest score on `display` while it is open.
@MainActor
public protocol ScoreLabelModel: AnyObject, SendableMetatype {
  associatedtype Player: ObservedPlayer
  /// Opens the label, showing the score at once and the latest score after every change.
  init(showing player: Player, on display: LabelDisplay)
  /// Closes the label: it shows nothing more.
  func close()
}

extension ExerciseCode {
  /// The code of exercise 11: a player and a label, graded by its generated programs.
  package static func observedLabel<Label: ScoreLabelModel>(_ label: Label.Type) -> ExerciseCode {
    app(checkedBy: .generatedLabels) { seed in LabelPrograms<Label>.check(seed: seed) }
  }
}

// MARK: - Grading an app

extension ExerciseCode {
  /// The code of an app (exercises 10 and 11), graded by one check, its generated programs:
  /// `programs` runs those drawn from a seed on a thread of their own while the main actor
  /// runs.
  ///
  /// In a grading child, on the main thread, the programs get a thread of their own while this
  /// one runs the main actor's jobs; in a test runner, they run on the calling thread, while
  /// whoever drains the main queue runs them.
  static func app(
    checkedBy generated: Check,
    _ programs: @escaping @Sendable (_ seed: UInt64) -> Outcome
  ) -> ExerciseCode {
    ExerciseCode { check in
      guard check == generated else { return notRunHere(check) }
      // Read here: a task-local value does not reach the thread the programs run on. (The
      // progress report is the process's own, which reaches every thread.)
      let seed = GeneratedPrograms.seed ?? GeneratedPrograms.defaultSeed
      guard Thread.isMainThread else { return programs(seed) }
      let result = Recording<Outcome>()
      Thread { result.append(programs(seed)) }.start()
      while result.all.isEmpty {
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.01))
      }
      return result.all[0]
    }
  }
}

// MARK: - What the checks share

/// A value handed between the main actor and the check's threads. The check is what finds out
/// whether the objects inside may be used where it hands them.
struct Handed<Value>: @unchecked Sendable {
  let value: Value
}

/// Runs `body` on the main actor and waits for it.
func onMain<T>(_ body: @MainActor () -> T) -> T {
  let result = DispatchQueue.main.sync { MainActor.assumeIsolated { Handed(value: body()) } }
  return result.value
}

/// An object held weakly, to see whether it is freed.
final class Weak<Object: AnyObject> {
  weak var object: Object?
  init(_ object: Object) { self.object = object }
}

/// A program's screen or label, as the model knows it: its slot, its display, and whether it
/// is open, closed or let go.
struct Opened<Display: Sendable>: Sendable {
  enum State { case open, closed, gone }
  var slot: Int
  var display: Display
  var state: State
}

/// The programs one step smaller than `program`: each step left out, then each made simpler,
/// one at a time, in the ways `simpler` gives.
func smallerPrograms<Step>(_ program: [Step], simpler: (Step) -> [Step]) -> [[Step]] {
  let simplified = program.indices.flatMap { index in
    simpler(program[index]).map { step in
      var candidate = program
      candidate[index] = step
      return candidate
    }
  }
  return program.withEachLeftOut + simplified
}

extension Array {
  /// The array without one of its elements, for each element in turn.
  var withEachLeftOut: [[Element]] {
    indices.map { index in
      var shorter = self
      shorter.remove(at: index)
      return shorter
    }
  }
}

/// The name a story gives a slot's screen or label: A, B, C.
func slotName(_ slot: Int) -> String { String(UnicodeScalar(UInt8(65 + slot))) }
