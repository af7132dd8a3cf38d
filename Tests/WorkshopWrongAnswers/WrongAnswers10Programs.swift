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

extension WrongAnswer {
  /// Exercise 10's answers above.
  static let exercise10Programs = [
    WrongAnswer(
      name: "10-saver-saves-as-it-starts", exercise: 10,
      mistake: "the saver asks for .initial, and saves the scores as it starts",
      caughtBy: .check(.generatedScreens), evidence: "saved 0, 1, not 1",
      code: .mainActorScores(RightScreen.self, SaverSavingAsItStarts.self),
      counterexample: "start a saver"),
    WrongAnswer(
      name: "10-close-cancels-every-screen", exercise: 10,
      mistake: "the screens keep their tokens in one shared list, and close() cancels them all",
      caughtBy: .check(.generatedScreens), evidence: "its subscription ended",
      code: .mainActorScores(ScreenClosingEveryScreen.self, RightSaver.self),
      counterexample: "close"),
    WrongAnswer(
      name: "10-screen-reads-the-scores-again", exercise: 10,
      mistake: "the handler shows the scores read again, not the change it is told",
      caughtBy: .check(.generatedScreens), evidence: "each score once, in order",
      code: .mainActorScores(ScreenReadingTheScoresAgain.self, RightSaver.self),
      counterexample: "another thread sets 1, 2|the main actor sets 1, 2"),
    WrongAnswer(
      name: "10-one-screen-token-in-the-model", exercise: 10,
      mistake: "each screen stores its token in the model, replacing the last screen's",
      caughtBy: .check(.generatedScreens), evidence: "its subscription ended",
      code: .mainActorScores(ScreenStoringItsTokenInTheModel.self, SaverOfOneScreenScores.self),
      counterexample: "open B|open C"),
  ]
}
