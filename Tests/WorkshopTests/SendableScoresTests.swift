import ObserverScenarios
import Testing
import WorkshopKit

// Exercise 10 asks whether the learner's model is Sendable with an overload pair resolved where
// the model's type is known: these pin down that Swift resolves it so, statically.

/// A model a game on another thread could set.
private final class SendableScores: LatestScoresModel, Sendable {
  init(_ scores: [Int: Int]) {}
  func set(_ scores: [Int: Int]) {}
}

/// The same, but not Sendable: a game on another thread could not hand it there.
private final class NotSendableScores: LatestScoresModel {
  init(_ scores: [Int: Int]) {}
  func set(_ scores: [Int: Int]) {}
}

/// A screen and a saver that do nothing, for either model.
@MainActor
private final class StubScreen<Scores: LatestScoresModel>: ScoresScreenModel {
  init(showing scores: Scores, on display: ScoreDisplay) {}
  func close() {}
}

@MainActor
private final class StubSaver<Scores: LatestScoresModel>: ScoreSaverModel {
  init(saving scores: Scores, to file: ScoreFile) {}
}

/// The overload pair, as the grader's: the constrained one wins where it applies.
private func isSendable<T: Sendable>(_: T.Type) -> Bool { true }
private func isSendable<T>(_: T.Type) -> Bool { false }

/// The pair called from a generic context that knows nothing of `T`: the unconstrained one.
private func isSendableSeenGenerically<T>(_ type: T.Type) -> Bool { isSendable(type) }

@Suite("Workshop: exercise 10 tells a model that is not Sendable")
struct SendableScoresTests {
  @Test("the overload pair resolves statically, on the type named where it is called")
  func resolvedStatically() {
    #expect(isSendable(SendableScores.self))
    #expect(!isSendable(NotSendableScores.self))
    // Not a dynamic question: where the type is only a generic parameter, the answer is no.
    #expect(!isSendableSeenGenerically(SendableScores.self))
  }

  @Test("a model that is not Sendable is a flaw of the generated check, named")
  func notSendableIsAFlaw() {
    let code = ExerciseCode.mainActorScores(
      StubScreen<NotSendableScores>.self, StubSaver<NotSendableScores>.self)
    let outcome = code.run(.check(.generatedScreens))
    #expect(outcome.verdict == .flaw)
    #expect(outcome.detail.contains("NotSendableScores is not Sendable"), "\(outcome.detail)")
  }
}
