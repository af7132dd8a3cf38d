import CommandSupport
import Foundation
import ObserverScenarios
import TestSupport
import Testing
import WorkshopKit
import WorkshopWrongAnswers

/// The grading child that runs the wrong answers, built beside the tests.
let wrongAnswersChild = testProductsFolder.appendingPathComponent("workshop-wrong-answers")
  .path

extension WrongAnswer: CustomTestStringConvertible {
  package var testDescription: String { name }
}

@Suite("Workshop: known wrong answers are caught")
struct WrongAnswerTests {
  @Test("every exercise has at least five wrong answers, each named once")
  func everyExercise() {
    for exercise in Exercise.all {
      #expect(WrongAnswer.all.count { $0.exercise == exercise.number } >= 5, "\(exercise.slug)")
    }
    #expect(Set(WrongAnswer.all.map(\.name)).count == WrongAnswer.all.count)
    for answer in WrongAnswer.all {
      let exercise = Exercise.numbered(answer.exercise)
      #expect(
        exercise?.criteria.contains { $0.criterion == answer.caughtBy } == true,
        "\(answer.name) is caught by \(answer.caughtBy.name), which does not grade it")
    }
  }

  @Test(
    "a wrong answer, graded as the workshop grades a learner's code, is not solved, and the evidence names its mistake",
    arguments: WrongAnswer.all.filter { !$0.isRace })
  func caught(answer: WrongAnswer) throws {
    try expectCaught(answer)
  }

  // A race needs two threads running at once, which grading every answer at once starves:
  // the answers whose mistake is a race are graded one at a time.
  @Test(
    "a wrong answer whose mistake is a race is not solved, graded one at a time",
    .serialized, arguments: WrongAnswer.all.filter(\.isRace))
  func caughtRace(answer: WrongAnswer) throws {
    try expectCaught(answer)
  }

  private func expectCaught(_ answer: WrongAnswer) throws {
    let exercise = try #require(Exercise.numbered(answer.exercise))
    try #require(FileManager.default.isExecutableFile(atPath: wrongAnswersChild))
    // The learner's per-check limit, which some answers are caught by, but a longer total:
    // this suite grades every answer at once on a machine that may have two cores, and the
    // total limit is tested on its own (IsolatedGradingTests).
    let limits = GradingLimits(perCriterion: GradingLimits.standard.perCriterion, total: 120)
    // A race needs two threads running at once, which this suite, grading every answer at
    // once, starves: an answer whose mistake is a race has five tries, as the learner who
    // grades it again has.
    var grade = IsolatedGrading.grade(
      exercise, command: [wrongAnswersChild, answer.name], limits: limits)
    for _ in 1..<(answer.isRace ? 5 : 1) where grade.isSolved {
      grade = IsolatedGrading.grade(
        exercise, command: [wrongAnswersChild, answer.name], limits: limits)
    }
    #expect(!grade.isSolved, "\(answer.mistake): graded solved")
    let result = try #require(grade.results.first { $0.criterion == answer.caughtBy })
    #expect(result.outcome.verdict == .flaw, "\(answer.mistake): \(result.outcome.detail)")
    let phrases = answer.evidence.split(separator: "|")
    #expect(
      phrases.contains { result.outcome.detail.contains($0) },
      "\(answer.mistake): \(answer.caughtBy.name) said \"\(result.outcome.detail)\"")
    // The generated programs catch it too, with a counterexample, unless a crash in a check
    // before them stopped the grading, or the code hung in them (a program cannot be shrunk
    // past code that never returns).
    // Exercise 9's programs run on one thread: its thread-only mistakes pass them.
    guard exercise.number <= 8 || !answer.counterexample.isEmpty,
      let generated = exercise.checks.first(where: \.isGenerated),
      let programs = grade.results.first(where: { $0.criterion == .check(generated) }),
      programs.ran, !programs.outcome.detail.hasPrefix("while it ran")
    else { return }
    // A crash in a program is told with the program shrunk, each try in a fresh process;
    // any other failure with the shortest program found, `→`, and what went wrong.
    let shown =
      programs.outcome.detail.hasPrefix("while generated program")
      ? programs.outcome.detail.contains("Shrunk, each try in a fresh process: ")
      : programs.outcome.detail.contains(" → ")
    #expect(
      programs.outcome.verdict == .flaw && shown,
      "\(answer.mistake): \(generated.rawValue) said \"\(programs.outcome.detail)\"")
    let counterexample = answer.counterexample.split(separator: "|")
    #expect(
      counterexample.isEmpty || counterexample.contains { programs.outcome.detail.contains($0) },
      "\(answer.mistake): \(generated.rawValue) said \"\(programs.outcome.detail)\"")
  }
}
