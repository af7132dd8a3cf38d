import ObserverScenarios
import Testing
import WorkshopKit
import WorkshopWrongAnswers

extension RightAnswer: CustomTestStringConvertible {
  package var testDescription: String { name }
}

/// The generated check of exercise `number`.
private func generatedCheck(_ number: Int) throws -> Check {
  let check = Exercise.numbered(number)?.checks.first { $0.isGenerated }
  return try #require(check)
}

/// The outcome of exercise `number`'s generated check on `code`, drawn from `seed`.
private func programs(_ number: Int, on code: ExerciseCode, seed: UInt64? = nil) throws
  -> Outcome
{
  let check = try generatedCheck(number)
  return GeneratedPrograms.$seed.withValue(seed) { code.run(.check(check)) }
}

/// The outcome of exercise `number`'s generated check, drawn from `seed`, on the code the wrong
/// answers' grading child calls `name`, in that child: for code that needs its main actor.
private func programsInChild(_ number: Int, as name: String, seed: UInt64? = nil) throws
  -> Outcome
{
  try programs(number, command: [wrongAnswersChild, name], seed: seed)
}

/// The outcome of exercise `number`'s generated check, drawn from `seed`, graded by the
/// grading child `command`.
private func programs(_ number: Int, command: [String], seed: UInt64? = nil) throws -> Outcome {
  var exercise = try #require(Exercise.numbered(number))
  (exercise.aimed, exercise.kept, exercise.checks) = ([], [], [try generatedCheck(number)])
  let grade = IsolatedGrading.grade(exercise, command: command, seed: seed)
  return try #require(grade.results.first).outcome
}

@Suite("Workshop: generated programs against a model of each exercise's promise")
struct GeneratedProgramsTests {
  @Test("every exercise has one generated check")
  func oneEach() {
    for exercise in Exercise.all {
      #expect(exercise.checks.count(where: \.isGenerated) == 1, "\(exercise.slug)")
    }
  }

  @Test(
    "every solution keeps the promise in every generated program, whatever the seed",
    arguments: Exercise.all.map(\.number))
  func solutionsHold(number: Int) throws {
    // Built and run as the workshop builds and runs a learner's code.
    let child = try solutionChild(number)
    for seed: UInt64? in [nil, 2, 3, 17, 2026] {
      let outcome = try programs(number, command: [child], seed: seed)
      #expect(outcome.verdict == .holds, "seed \(seed.map(String.init) ?? "default"): \(outcome)")
      // Every program is run, however busy the machine: the count is the check's own.
      if try generatedCheck(number).replaysAlone {
        #expect(outcome.detail.hasPrefix("4000 generated programs of "), "\(outcome.detail)")
      }
    }
  }

  @Test(
    "a right answer written unlike the solution is graded solved, generated programs and all",
    arguments: RightAnswer.all)
  func rightAnswerSolved(answer: RightAnswer) throws {
    let exercise = try #require(Exercise.numbered(answer.exercise))
    // An app's checks (exercises 10 and 11: code with no design) need the main actor of a
    // grading child.
    let onMainActor = answer.code.design == nil
    let grade =
      onMainActor
      ? IsolatedGrading.grade(exercise, command: [wrongAnswersChild, answer.name])
      : ExerciseGrade(exercise, code: answer.code)
    let failing = grade.results.filter { $0.outcome.verdict != .holds }
    #expect(
      grade.isSolved,
      "\(answer.how): \(failing.map { "\($0.criterion.name): \($0.outcome.detail)" })")
    for seed: UInt64 in [2, 3, 17] {
      let outcome =
        onMainActor
        ? try programsInChild(answer.exercise, as: answer.name, seed: seed)
        : try programs(answer.exercise, on: answer.code, seed: seed)
      #expect(outcome.verdict == .holds, "\(answer.how), seed \(seed): \(outcome.detail)")
    }
  }

  @Test("every exercise has a right answer written unlike its solution")
  func rightAnswerEach() {
    for number in Exercise.all.map(\.number) {
      #expect(RightAnswer.all.contains { $0.exercise == number }, "exercise \(number)")
    }
  }

  @Test("the counterexample is the shortest program, told in the learner's terms")
  func shortest() throws {
    let answer = try #require(WrongAnswer.named("02-sorted-keys"))
    let outcome = try programs(2, on: answer.code)
    #expect(outcome.verdict == .flaw)
    #expect(
      outcome.detail.hasPrefix(
        "bind title; bind badge; set 1 → badge was called with 1 before title: closures are "
          + "called in the order their keys were first bound"))
  }

  @Test("a one-shot observer that makes the walk skip the next is told as such")
  func oneShot() throws {
    let answer = try #require(WrongAnswer.named("01-walks-live-entries-by-index"))
    let outcome = try programs(1, on: answer.code)
    #expect(outcome.detail.contains("and A's closure removes itself → B was not called with"))
  }

  @Test("the same seed draws the same programs: the same verdict and evidence on every run")
  func deterministic() throws {
    for name in ["01-id-from-count", "05-rebind-during-set-appends", "07-pop-last-drain"] {
      let answer = try #require(WrongAnswer.named(name))
      let first = try programs(answer.exercise, on: answer.code)
      let again = try programs(answer.exercise, on: answer.code)
      #expect(first == again, "\(name)")
      #expect(first.detail.contains("seed \(GeneratedPrograms.defaultSeed)"))
      let other = try programs(answer.exercise, on: answer.code, seed: 99)
      #expect(other.verdict == .flaw, "\(name), seed 99: \(other.detail)")
      #expect(other.detail.contains("replay: swift run workshop \(answer.exercise) --seed 99"))
    }
  }

  @Test(
    "exercises 10's and 11's programs, in a grading child, draw the same from the same seed",
    arguments: ["10-close-cancels-every-screen", "11-tracks-once"])
  func mainActorReplay(name: String) throws {
    let number = try #require(WrongAnswer.named(name)).exercise
    let first = try programsInChild(number, as: name)
    #expect(first.verdict == .flaw)
    #expect(first.detail.contains("seed \(GeneratedPrograms.defaultSeed)"))
    #expect(first == (try programsInChild(number, as: name)))
    let other = try programsInChild(number, as: name, seed: 99)
    #expect(other.verdict == .flaw, "seed 99: \(other.detail)")
    #expect(other.detail.contains("replay: swift run workshop \(number) --seed 99"))
  }

  @Test("a program that hangs is named, after how many kept the promise, and not solved")
  func hangNamed() throws {
    let outcome = try programsInChild(1, as: "01-removal-loop-never-advances")
    #expect(outcome.verdict == .flaw)
    #expect(
      outcome.detail.contains("of 4000 did not finish within 4 seconds, after the ")
        && outcome.detail.contains("Unfinished, so not solved"), "\(outcome.detail)")
  }

  @Test("workshop N --seed S takes a whole number, and not with --watch")
  func seedOption() throws {
    #expect(try WorkshopCommand.parse(["3", "--seed", "42"]).seed == 42)
    #expect(try WorkshopCommand.parse(["3"]).seed == nil)
    #expect(throws: (any Error).self) { try WorkshopCommand.parse(["3", "--seed", "x"]) }
    #expect(throws: (any Error).self) {
      try WorkshopCommand.parse(["--watch", "3", "--seed", "1"])
    }
  }
}
