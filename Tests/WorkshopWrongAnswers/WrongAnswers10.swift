import Foundation
import Stage5Concurrency
import WorkshopKit

// MARK: - Exercise 10: the scores on stage 5, the screen on the main actor

/// The latest scores, on stage 5, as the answer has them: every wrong answer below shares it.
final class WrongScores: Sendable, ScoresOnStage5 {
  let observable: Observable<[Int: Int]>
  init(_ scores: [Int: Int]) { observable = Observable(scores) }
  func set(_ scores: [Int: Int]) { observable.value = scores }
}

/// A model on stage 5's observable, as the answer's is: the answer's screen and saver below
/// serve any of them.
protocol ScoresOnStage5: LatestScoresModel {
  var observable: Observable<[Int: Int]> { get }
}

/// The answer's screen, for any model on stage 5.
@MainActor
final class ScreenOf<Model: ScoresOnStage5>: ScoresScreenModel {
  var token: ObservationToken?
  init(showing scores: Model, on display: ScoreDisplay) {
    token = scores.observable.observe(options: .initial) { display.show($0.newValue) }
  }
  func close() { token?.cancel() }
}

/// The answer's saver, for any model on stage 5.
final class SaverOf<Model: ScoresOnStage5>: Sendable, ScoreSaverModel {
  let token: ObservationToken
  init(saving scores: Model, to file: ScoreFile) {
    token = scores.observable.observeOnAnyThread { file.save($0.newValue) }
  }
}

/// The answer's screen and saver, on the answer's model: the wrong answers below each change one
/// of the three.
typealias RightScreen = ScreenOf<WrongScores>
typealias RightSaver = SaverOf<WrongScores>

/// A `@MainActor` screen whose handler, passed to observeOnAnyThread, runs where the scores
/// were set.
@MainActor
final class ScreenObservingOnAnyThread: ScoresScreenModel {
  var token: ObservationToken?
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    token = scores.observable.observeOnAnyThread(options: .initial) { display.show($0.newValue) }
  }
  func close() { token?.cancel() }
}

/// A `@MainActor` screen that observes on any thread and asserts that it is on the main actor:
/// true for a set made there, a trap for one made on another thread.
@MainActor
final class ScreenAssumingTheMainActor: ScoresScreenModel {
  var labels: [Int: Int] = [:]
  var token: ObservationToken?
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    token = scores.observable.observeOnAnyThread(options: .initial) { [weak self] change in
      MainActor.assumeIsolated {
        self?.labels = change.newValue
        display.show(change.newValue)
      }
    }
  }
  func close() { token?.cancel() }
}

/// Drops the token `observe` returns: the subscription ends as soon as it starts.
@MainActor
final class ScreenDroppingItsToken: ScoresScreenModel {
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    _ = scores.observable.observe(options: .initial) { display.show($0.newValue) }
  }
  func close() {}
}

/// Keeps its token, but `close()` forgets to cancel it.
@MainActor
final class ScreenNotCancellingOnClose: ScoresScreenModel {
  var token: ObservationToken?
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    token = scores.observable.observe(options: .initial) { display.show($0.newValue) }
  }
  func close() {}
}

/// Keeps its token, whose handler captures the screen strongly: a cycle, broken only by
/// `close()`.
@MainActor
final class ScreenLeakedThroughItsToken: ScoresScreenModel {
  let display: ScoreDisplay
  var token: ObservationToken?
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    self.display = display
    token = scores.observable.observe(options: .initial) { change in
      self.display.show(change.newValue)
    }
  }
  func close() { token?.cancel() }
}

/// Observes without `.initial`: blank until the next game ends.
@MainActor
final class ScreenWithoutInitial: ScoresScreenModel {
  var token: ObservationToken?
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    token = scores.observable.observe { display.show($0.newValue) }
  }
  func close() { token?.cancel() }
}

/// A saver that drops the token `observeOnAnyThread` returns: it saves nothing.
final class SaverDroppingItsToken: Sendable, ScoreSaverModel {
  init(saving scores: WrongScores, to file: ScoreFile) {
    _ = scores.observable.observeOnAnyThread { file.save($0.newValue) }
  }
}

/// Shows the value as it opens, then hops each change to the main actor in a task of its own:
/// a task already on its way still shows its score after close().
@MainActor
final class ScreenHoppingInATask: ScoresScreenModel {
  var token: ObservationToken?
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    display.show(scores.observable.value)
    token = scores.observable.observeOnAnyThread { change in
      Task { @MainActor in display.show(change.newValue) }
    }
  }
  func close() { token?.cancel() }
}

/// Shows a change at once on the main thread, and through `DispatchQueue.main.async` from
/// any other: a later score set on the main actor is shown before an earlier one.
@MainActor
final class ScreenHoppingOffTheMainThreadOnly: ScoresScreenModel {
  var token: ObservationToken?
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    token = scores.observable.observeOnAnyThread(options: .initial) { change in
      if Thread.isMainThread {
        MainActor.assumeIsolated { display.show(change.newValue) }
      } else {
        DispatchQueue.main.async { display.show(change.newValue) }
      }
    }
  }
  func close() { token?.cancel() }
}

/// The answer's model on stage 5, right in all but one word: it does not say it is `Sendable`,
/// so a game on another thread could not set it in Swift 6.
final class ScoresNotSendable: ScoresOnStage5 {
  let observable: Observable<[Int: Int]>
  init(_ scores: [Int: Int]) { observable = Observable(scores) }
  func set(_ scores: [Int: Int]) { observable.value = scores }
}

extension WrongAnswer {
  static let exercise10 = [
    WrongAnswer(
      name: "10-scores-not-sendable", exercise: 10,
      mistake: "LatestScores, on stage 5, does not say it is Sendable",
      caughtBy: .check(.generatedScreens),
      evidence: "is not Sendable: a game that ends on another thread cannot set it",
      code: .mainActorScores(
        ScreenOf<ScoresNotSendable>.self, SaverOf<ScoresNotSendable>.self)),
    WrongAnswer(
      name: "10-screen-observes-on-any-thread", exercise: 10,
      mistake: "a @MainActor screen observes with observeOnAnyThread",
      caughtBy: .check(.generatedScreens),
      evidence: "off the main actor, on the thread that set it",
      code: .mainActorScores(ScreenObservingOnAnyThread.self, RightSaver.self),
      counterexample: "off the main actor"),
    WrongAnswer(
      name: "10-screen-assumes-the-main-actor", exercise: 10,
      mistake: "the handler, on any thread, asserts MainActor.assumeIsolated",
      caughtBy: .check(.generatedScreens),
      evidence: "the program crashed",
      code: .mainActorScores(ScreenAssumingTheMainActor.self, RightSaver.self)),
    WrongAnswer(
      name: "10-screen-drops-its-token", exercise: 10,
      mistake: "the screen drops the token observe returns",
      caughtBy: .check(.generatedScreens),
      evidence: "its subscription ended",
      code: .mainActorScores(ScreenDroppingItsToken.self, RightSaver.self),
      counterexample: "its subscription ended"),
    WrongAnswer(
      name: "10-close-does-not-cancel", exercise: 10,
      mistake: "close() does not cancel the token",
      caughtBy: .check(.generatedScreens),
      evidence: "closed, still showed",
      code: .mainActorScores(ScreenNotCancellingOnClose.self, RightSaver.self),
      counterexample: "closed, still showed"),
    WrongAnswer(
      name: "10-screen-leaked-through-its-token", exercise: 10,
      mistake: "the handler captures self strongly, in a token the screen keeps",
      caughtBy: .check(.generatedScreens),
      evidence: "let go and not freed",
      code: .mainActorScores(ScreenLeakedThroughItsToken.self, RightSaver.self),
      counterexample: "let go and not freed"),
    WrongAnswer(
      name: "10-screen-without-initial", exercise: 10,
      mistake: "the screen observes without .initial",
      caughtBy: .check(.generatedScreens),
      evidence: "showed nothing before its init returned",
      code: .mainActorScores(ScreenWithoutInitial.self, RightSaver.self),
      counterexample: "showed nothing before its init returned"),
    WrongAnswer(
      name: "10-saver-drops-its-token", exercise: 10,
      mistake: "the saver drops the token observeOnAnyThread returns",
      caughtBy: .check(.generatedScreens),
      evidence: "saved nothing",
      code: .mainActorScores(RightScreen.self, SaverDroppingItsToken.self),
      counterexample: "saved nothing"),
    WrongAnswer(
      name: "10-screen-hops-in-a-task", exercise: 10,
      mistake: "each change hops to the main actor in a Task of the screen's own",
      caughtBy: .check(.generatedScreens),
      evidence: "a hop of your own",
      code: .mainActorScores(ScreenHoppingInATask.self, RightSaver.self),
      counterexample: "before set returns|closed, still showed"),
    WrongAnswer(
      name: "10-screen-hops-off-the-main-thread-only", exercise: 10,
      mistake: "a change is shown at once on the main thread, through main.async from others",
      caughtBy: .check(.generatedScreens),
      evidence: "a hop of your own",
      code: .mainActorScores(ScreenHoppingOffTheMainThreadOnly.self, RightSaver.self),
      counterexample: "closed, still showed"),
  ]
}

// MARK: - Exercise 10: time

/// Shows the value it reads as it opens, then observes without `.initial`: a score set between
/// the read and the subscription is never shown.
@MainActor
final class ScreenReadsThenObserves: ScoresScreenModel {
  var token: ObservationToken?
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    display.show(scores.observable.value)
    token = scores.observable.observe { display.show($0.newValue) }
  }
  func close() { token?.cancel() }
}

/// Latest scores whose `set` hands the change to another queue: it is not done when `set`
/// returns.
final class ScoresSetLater: Sendable, ScoresOnStage5 {
  let observable: Observable<[Int: Int]>
  private let queue = DispatchQueue(label: "scores")
  init(_ scores: [Int: Int]) { observable = Observable(scores) }
  func set(_ scores: [Int: Int]) {
    queue.async { self.observable.value = scores }
  }
}

extension WrongAnswer {
  /// Exercise 10's answers above: what a screen shows as it opens, and when a set is done.
  static let exercise10Time = [
    WrongAnswer(
      name: "10-screen-reads-then-observes", exercise: 10,
      mistake: "the screen shows the value it reads, then observes without .initial",
      caughtBy: .check(.generatedScreens),
      evidence: "between reading the value and observing",
      code: .mainActorScores(ScreenReadsThenObserves.self, RightSaver.self)),
    WrongAnswer(
      name: "10-set-done-later", exercise: 10,
      mistake: "set hands the change to another queue, so it is not done when set returns",
      // A set done on a queue of the model's own lands when that queue runs: on a busy
      // machine, after the turns the programs wait for, when it looks like a set that never
      // came. Either way it fails.
      caughtBy: .check(.generatedScreens),
      evidence: "set the value in set itself|never reached the main actor",
      code: .mainActorScores(ScreenOf<ScoresSetLater>.self, SaverOf<ScoresSetLater>.self),
      counterexample: "before set returns|never reached the main actor"),
  ]
}
