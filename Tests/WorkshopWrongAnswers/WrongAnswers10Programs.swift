import Foundation
import Stage5Concurrency
import WorkshopKit

// MARK: - Exercise 10: mistakes the generated programs find

/// A saver that asks for `.initial` too: it saves the scores as it starts, which no game set.
final class SaverSavingAsItStarts: Sendable, ScoreSaverModel {
  let token: ObservationToken
  init(saving scores: WrongScores, to file: ScoreFile) {
    token = scores.observable.observeOnAnyThread(options: .initial) { file.save($0.newValue) }
  }
}

/// Screens that keep their tokens in one list, shared: closing one cancels every screen's.
@MainActor
final class ScreenClosingEveryScreen: ScoresScreenModel {
  static var tokens: [ObservationToken] = []
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    Self.tokens.append(scores.observable.observe(options: .initial) { display.show($0.newValue) })
  }
  func close() {
    for token in Self.tokens { token.cancel() }
    Self.tokens = []
  }
}

/// Shows the scores as they are when its handler runs, read again, not the change it is told.
@MainActor
final class ScreenReadingTheScoresAgain: ScoresScreenModel {
  var token: ObservationToken?
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    token = scores.observable.observe(options: .initial) { [scores] _ in
      display.show(scores.observable.value)
    }
  }
  func close() { token?.cancel() }
}

/// Keeps one screen's token in the model: a second screen opened replaces the first's.
final class ScoresKeepingOneScreen: @unchecked Sendable, LatestScoresModel {
  let observable: Observable<[Int: Int]>
  // Set on the main actor only, by the screens.
  var screenToken: ObservationToken?
  init(_ scores: [Int: Int]) { observable = Observable(scores) }
  func set(_ scores: [Int: Int]) { observable.value = scores }
}

/// Opens by storing its token in the model, where the next screen's replaces it.
@MainActor
final class ScreenStoringItsTokenInTheModel: ScoresScreenModel {
  weak var scores: ScoresKeepingOneScreen?
  init(showing scores: ScoresKeepingOneScreen, on display: ScoreDisplay) {
    self.scores = scores
    scores.screenToken = scores.observable.observe(options: .initial) { display.show($0.newValue) }
  }
  func close() { scores?.screenToken?.cancel() }
}

/// The answer's saver, on the model that keeps one screen's token.
final class SaverOfOneScreenScores: Sendable, ScoreSaverModel {
  let token: ObservationToken
  init(saving scores: ScoresKeepingOneScreen, to file: ScoreFile) {
    token = scores.observable.observeOnAnyThread { file.save($0.newValue) }
  }
}

/// Sets only scores unlike those it holds: a game that ends on the same scores tells no one.
final class ScoresSkippingEqualSets: Sendable, ScoresOnStage5 {
  let observable: Observable<[Int: Int]>
  init(_ scores: [Int: Int]) { observable = Observable(scores) }
  func set(_ scores: [Int: Int]) {
    guard scores != observable.value else { return }
    observable.value = scores
  }
}

/// Merges the scores set into those it holds: a chapter left out of a set keeps its old score.
final class ScoresMergingSets: Sendable, ScoresOnStage5 {
  let observable: Observable<[Int: Int]>
  init(_ scores: [Int: Int]) { observable = Observable(scores) }
  func set(_ scores: [Int: Int]) {
    observable.value = observable.value.merging(scores) { _, new in new }
  }
}

extension WrongAnswer {
  /// Exercise 10's answers above.
  static let exercise10Programs = [
    WrongAnswer(
      name: "10-saver-saves-as-it-starts", exercise: 10,
      mistake: "the saver asks for .initial, and saves the scores as it starts",
      caughtBy: .check(.generatedScreens), evidence: "saved [7: 0, 8: 0], [7: 1], not [7: 1]",
      code: .mainActorScores(RightScreen.self, SaverSavingAsItStarts.self),
      counterexample: "start a saver"),
    WrongAnswer(
      name: "10-close-cancels-every-screen", exercise: 10,
      mistake: "the screens keep their tokens in one shared list, and close() cancels them all",
      caughtBy: .check(.generatedScreens), evidence: "still showed|its subscription ended",
      code: .mainActorScores(ScreenClosingEveryScreen.self, RightSaver.self),
      counterexample: "still showed|subscription ended"),
    WrongAnswer(
      name: "10-screen-reads-the-scores-again", exercise: 10,
      mistake: "the handler shows the scores read again, not the change it is told",
      caughtBy: .check(.generatedScreens), evidence: "every set, once each, in order",
      code: .mainActorScores(ScreenReadingTheScoresAgain.self, RightSaver.self),
      // Under load the shortest program may not show the race again, and the program drawn is
      // told: a burst, shown as a later score where an earlier one was due.
      counterexample: "sets [7: 1], [7: 2]|was due"),
    WrongAnswer(
      name: "10-one-screen-token-in-the-model", exercise: 10,
      mistake: "each screen stores its token in the model, replacing the last screen's",
      caughtBy: .check(.generatedScreens), evidence: "its subscription ended",
      code: .mainActorScores(ScreenStoringItsTokenInTheModel.self, SaverOfOneScreenScores.self),
      counterexample: "W had shown nothing|open B|open C"),
    WrongAnswer(
      name: "10-set-skips-equal-scores", exercise: 10,
      mistake: "set returns early when the scores equal those held, and tells no one",
      caughtBy: .check(.generatedScreens), evidence: "a set of the scores as they were",
      code: .mainActorScores(
        ScreenOf<ScoresSkippingEqualSets>.self, SaverOf<ScoresSkippingEqualSets>.self),
      counterexample: "again"),
    WrongAnswer(
      name: "10-set-merges-scores", exercise: 10,
      mistake: "set merges the scores into those held, so a chapter left out keeps its score",
      caughtBy: .check(.generatedScreens), evidence: ", 8: ",
      code: .mainActorScores(ScreenOf<ScoresMergingSets>.self, SaverOf<ScoresMergingSets>.self),
      counterexample: "8:"),
  ]
}
