import Foundation
import ObserverScenarios
import TestSupport
import Testing
import WorkshopKit

extension Check {
  /// Whether it runs generated programs (``GeneratedPrograms``) rather than one fixed sequence.
  var isGenerated: Bool { rawValue.hasPrefix("generated-") }
}

@Suite("Workshop: known wrong answers, patches of the solutions, are caught")
struct WrongAnswerTests {
  @Test("every known answer is a patch that reads, named after its exercise")
  func everyPatchReads() throws {
    for kind in [AnswerPatch.Kind.wrong, .right] {
      let names = AnswerPatch.names(kind)
      let chosen = ProcessInfo.processInfo.environment["WORKSHOP_ANSWERS"] != nil
      #expect(chosen || !names.isEmpty, "no patch in Tests/\(kind.rawValue)")
      for name in names {
        #expect(throws: Never.self, "Tests/\(kind.rawValue)") { try AnswerPatch(kind, named: name) }
      }
    }
  }

  @Test("every exercise has at least five wrong answers and one right answer")
  func everyExercise() throws {
    // Not when some are chosen with WORKSHOP_ANSWERS.
    guard ProcessInfo.processInfo.environment["WORKSHOP_ANSWERS"] == nil else { return }
    let (wrong, right) = (AnswerPatch.all(.wrong), AnswerPatch.all(.right))
    for exercise in Exercise.all {
      #expect(wrong.count { $0.exercise.number == exercise.number } >= 5, "\(exercise.slug)")
      #expect(right.contains { $0.exercise.number == exercise.number }, "\(exercise.slug)")
    }
    for answer in wrong {
      let criterion = try #require(answer.caughtBy, "\(answer.name): no such criterion")
      #expect(
        answer.exercise.criteria.contains { $0.criterion == criterion },
        "\(answer.name) is caught by \(criterion.name), which does not grade it")
      #expect(!answer.evidence.isEmpty, "\(answer.name)")
    }
  }

  @Test(
    "a wrong answer, built and graded as the workshop grades a learner's code, is not solved, and the evidence names its mistake",
    arguments: AnswerPatch.all(.wrong).filter { !$0.isRace })
  func caught(answer: AnswerPatch) async throws {
    try await expectCaught(answer)
  }

  // A race needs two threads running at once, which grading every answer at once starves:
  // the answers whose mistake is a race are graded one at a time.
  @Test(
    "a wrong answer whose mistake is a race is not solved, graded one at a time",
    .serialized, arguments: AnswerPatch.all(.wrong).filter(\.isRace))
  func caughtRace(answer: AnswerPatch) async throws {
    try await expectCaught(answer)
  }

  private func expectCaught(_ answer: AnswerPatch) async throws {
    let exercise = answer.exercise
    let caughtBy = try #require(answer.caughtBy)
    // The learner's per-check limit, which some answers are caught by, but a longer total:
    // this suite grades every answer at once on a machine that may have two cores, and the
    // total limit is tested on its own (IsolatedGradingTests).
    let limits = GradingLimits(perCriterion: GradingLimits.standard.perCriterion, total: 120)
    let grade = try await withAnswerChild(answer) { child in
      // A race needs two threads running at once, which this suite, grading every answer at
      // once, starves: an answer whose mistake is a race has five tries, as the learner who
      // grades it again has.
      var grade = await WorkshopTests.grade(exercise, command: [child], limits: limits)
      for _ in 1..<(answer.isRace ? 5 : 1) where grade.isSolved {
        grade = await WorkshopTests.grade(exercise, command: [child], limits: limits)
      }
      return grade
    }
    #expect(!grade.isSolved, "\(answer.name), \(answer.mistake): graded solved")
    let result = try #require(grade.results.first { $0.criterion == caughtBy })
    #expect(result.outcome.verdict == .flaw, "\(answer.name): \(result.outcome.detail)")
    #expect(
      answer.evidence.contains { result.outcome.detail.contains($0) },
      "\(answer.name), \(answer.mistake): \(caughtBy.name) said \"\(result.outcome.detail)\"")
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
      "\(answer.name): \(generated.rawValue) said \"\(programs.outcome.detail)\"")
    #expect(
      answer.counterexample.isEmpty
        || answer.counterexample.contains { programs.outcome.detail.contains($0) },
      "\(answer.name): \(generated.rawValue) said \"\(programs.outcome.detail)\"")
  }
}
