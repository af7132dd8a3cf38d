import ObserverScenarios
import Testing
import WorkshopKit

/// The generated check of exercise `number`.
private func generatedCheck(_ number: Int) throws -> Check {
  let check = Exercise.numbered(number)?.checks.first { $0.isGenerated }
  return try #require(check)
}

/// The outcome of exercise `number`'s generated check, drawn from `seed`, on the wrong answer
/// called `name`, built and run as a learner's code is.
private func programs(_ number: Int, answer name: String, seed: UInt64? = nil) async throws
  -> Outcome
{
  try await withWrongAnswerChild(name) { child in
    try await programs(number, command: [child], seed: seed)
  }
}

/// The outcome of exercise `number`'s generated check, drawn from `seed`, graded by the
/// grading child `command`.
private func programs(_ number: Int, command: [String], seed: UInt64? = nil) async throws
  -> Outcome
{
  var exercise = try #require(Exercise.numbered(number))
  (exercise.aimed, exercise.kept, exercise.checks) = ([], [], [try generatedCheck(number)])
  let grade = await grade(exercise, command: command, seed: seed)
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
  func solutionsHold(number: Int) async throws {
    // Built and run as the workshop builds and runs a learner's code.
    let child = try await solutionChild(number)
    for seed: UInt64? in [nil, 2, 3, 17, 2026] {
      let outcome = try await programs(number, command: [child], seed: seed)
      #expect(outcome.verdict == .holds, "seed \(seed.map(String.init) ?? "default"): \(outcome)")
      // Every program is run, however busy the machine: the count is the check's own.
      if try generatedCheck(number).replaysAlone {
        #expect(outcome.detail.hasPrefix("4000 generated programs of "), "\(outcome.detail)")
      }
    }
  }

  @Test(
    "a right answer written unlike the solution, built as a learner's code is, is graded solved, generated programs and all",
    arguments: AnswerPatch.all(.right))
  func rightAnswerSolved(answer: AnswerPatch) async throws {
    try await withAnswerChild(answer) { child in
      let grade = await grade(answer.exercise, command: [child])
      let failing = grade.results.filter { $0.outcome.verdict != .holds }
      #expect(
        grade.isSolved,
        "\(answer.name), \(answer.how): \(failing.map { "\($0.criterion.name): \($0.outcome.detail)" })"
      )
      for seed: UInt64 in [2, 3, 17] {
        let outcome = try await programs(answer.exercise.number, command: [child], seed: seed)
        #expect(outcome.verdict == .holds, "\(answer.name), seed \(seed): \(outcome.detail)")
      }
    }
  }

  @Test("the counterexample is the shortest program, told in the learner's terms")
  func shortest() async throws {
    let outcome = try await programs(2, answer: "02-sorted-keys")
    #expect(outcome.verdict == .flaw)
    #expect(
      outcome.detail.hasPrefix(
        "bind title; bind badge; set 1 → badge was called with 1 before title: closures are "
          + "called in the order their keys were first bound"))
  }

  @Test("a one-shot observer that makes the walk skip the next is told as such")
  func oneShot() async throws {
    let outcome = try await programs(1, answer: "01-walks-live-entries-by-index")
    #expect(outcome.detail.contains("and A's closure removes itself → B was not called with"))
  }

  @Test("the same seed draws the same programs: the same verdict and evidence on every run")
  func deterministic() async throws {
    for name in ["01-id-from-count", "05-rebind-during-set-appends", "07-pop-last-drain"] {
      let number = try AnswerPatch.named(name).exercise.number
      try await withWrongAnswerChild(name) { child in
        let first = try await programs(number, command: [child])
        let again = try await programs(number, command: [child])
        #expect(first == again, "\(name)")
        #expect(first.detail.contains("seed \(GeneratedPrograms.defaultSeed)"))
        let other = try await programs(number, command: [child], seed: 99)
        #expect(other.verdict == .flaw, "\(name), seed 99: \(other.detail)")
        #expect(other.detail.contains("replay: swift run workshop \(number) --seed 99"))
      }
    }
  }

  @Test(
    "exercises 10's and 11's programs, in a grading child, draw the same from the same seed",
    arguments: ["10-close-cancels-every-screen", "11-tracks-once"])
  func mainActorReplay(name: String) async throws {
    let number = try AnswerPatch.named(name).exercise.number
    let (first, again, other) = try await withWrongAnswerChild(name) { child in
      (
        try await programs(number, command: [child]), try await programs(number, command: [child]),
        try await programs(number, command: [child], seed: 99)
      )
    }
    #expect(first.verdict == .flaw)
    #expect(first.detail.contains("seed \(GeneratedPrograms.defaultSeed)"))
    #expect(first == again)
    #expect(other.verdict == .flaw, "seed 99: \(other.detail)")
    #expect(other.detail.contains("replay: swift run workshop \(number) --seed 99"))
  }

  @Test("a program that hangs is named, after how many kept the promise, and not solved")
  func hangNamed() async throws {
    let outcome = try await programs(1, answer: "01-removal-loop-never-advances")
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
