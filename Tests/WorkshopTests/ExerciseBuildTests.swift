import CommandSupport
import Foundation
import TestSupport
import Testing
import WorkshopKit

/// The builder of this package's build, found from the products' folder the tests were built
/// in, as the workshop finds it from its own executable there.
private func builder() throws -> ExerciseBuilder {
  try #require(
    ExerciseBuilder.locate(
      executable: testProductsFolder.appendingPathComponent("workshop").path))
}

/// A fresh folder, removed by the caller.
private func temporaryFolder(_ name: String) throws -> URL {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("\(name)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder
}

@Suite("Workshop: each exercise compiled on its own")
struct ExerciseBuildTests {
  @Test("the learner's exercises are not targets of the package; the solutions are")
  func exercisesAreNotTargets() throws {
    let root = try builder().root
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    // Its table of solutions names each exercise's folder, under Exercises/Solutions/ alone.
    #expect(manifest.contains("path: \"Exercises/Solutions/\\("))
    for exercise in Exercise.all {
      #expect(!manifest.contains("\"\(exercise.folder)\""), "\(exercise.folder) is a target")
      #expect(manifest.contains("\"\(exercise.slug)\""), "\(exercise.slug)'s solution is not")
    }
  }

  @Test("a grading child links the objects of a target's current sources, never a stale one")
  func staleObjectsAreLeftOut() throws {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("objects-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let sources = scratch.appendingPathComponent("Sources/Kit/Nested")
    let folder = scratch.appendingPathComponent("Kit.build")
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for file in ["Kept.swift", "Nested/Deep.swift"] {
      try Data().write(to: scratch.appendingPathComponent("Sources/Kit/\(file)"))
    }
    for object in [
      "Kept.swift.o", "Deep.swift.o", "Removed.swift.o", "Kit.swiftmodule.o", "Kept.d",
    ] {
      try Data().write(to: folder.appendingPathComponent(object))
    }
    let linked = ExerciseBuilder.objects(
      in: folder, of: scratch.appendingPathComponent("Sources/Kit")
    ).map(\.lastPathComponent)
    #expect(linked == ["Deep.swift.o", "Kept.swift.o", "Kit.swiftmodule.o"])
  }

  @Test(
    "each solution, compiled as the workshop compiles an exercise, is solved in its own child",
    arguments: Exercise.all)
  func solutionCompiledAndGraded(exercise: Exercise) throws {
    let builder = try builder()
    let output = try temporaryFolder("exercise-build")
    defer { try? FileManager.default.removeItem(at: output) }
    let product = builder.build(
      exercise, from: builder.root.appendingPathComponent(exercise.solutionFolder), into: output)
    guard case .child(let child) = product else {
      Issue.record("did not compile: \(product)")
      return
    }
    let grade = IsolatedGrading.grade(exercise, command: [child])
    for result in grade.results where result.outcome.verdict != .holds {
      Issue.record("\(result.criterion.name): \(result.outcome.detail)")
    }
  }

  @Test("an exercise that does not compile gets the compiler's error, and stops nothing else")
  func brokenExercise() throws {
    let builder = try builder()
    let exercise = try #require(Exercise.numbered(3))
    let sources = try temporaryFolder("broken-exercise")
    let output = try temporaryFolder("exercise-build")
    defer {
      try? FileManager.default.removeItem(at: sources)
      try? FileManager.default.removeItem(at: output)
    }
    let solution = builder.root.appendingPathComponent(exercise.solutionFolder)
    for file in try FileManager.default.contentsOfDirectory(atPath: solution.path) {
      try FileManager.default.copyItem(
        at: solution.appendingPathComponent(file), to: sources.appendingPathComponent(file))
    }
    let broken = sources.appendingPathComponent("Observable.swift")
    let text = try String(contentsOf: broken, encoding: .utf8)
    try (text + "\nlet broken: Int = \"x\"\n").write(to: broken, atomically: true, encoding: .utf8)
    let product = builder.build(exercise, from: sources, into: output)
    guard case .errors(let errors) = product else {
      Issue.record("a broken exercise compiled: \(product)")
      return
    }
    #expect(errors.contains("Observable.swift:"))
    #expect(errors.contains("error: cannot convert value of type 'String' to specified type 'Int'"))
    #expect(errors.split(separator: "\n").count == 1, "each error once: \(errors)")
    let grade = ExerciseGrade(exercise, buildErrors: errors)
    #expect(!grade.isSolved)
    let text2 = WorkshopCommand.text(of: grade)
    #expect(text2.contains("Does not compile, so nothing was graded:"))
    #expect(text2.contains("Not yet solved: it does not compile."))
  }

  @Test("compiler output is cut to its error lines, each once")
  func errorLines() {
    let output = """
      error: emit-module command failed with exit code 1 (use -v to see invocation)
      Exercises/03-keys-per-owner/Observable.swift:82:19: error: cannot convert value
       80 |
         |                   `- error: cannot convert value
      Exercises/03-keys-per-owner/Observable.swift:82:19: error: cannot convert value
      """
    #expect(
      ExerciseBuilder.errors(in: output)
        == "Exercises/03-keys-per-owner/Observable.swift:82:19: error: cannot convert value")
  }

  @Test("the generated entry point names the exercise's module, API and adapter")
  func entryPoint() throws {
    let exercise = try #require(Exercise.numbered(9))
    let source = ExerciseBuilder.entryPoint(of: exercise)
    #expect(
      source.contains(
        "extension Exercise09.Observable: AdaptableObservable, SendableOptionsObservable"))
    #expect(source.contains("extension Exercise09.ObservableOptions: DeliveryOptions {}"))
    #expect(source.contains("SendableOptionsAdapter<Exercise09.Observable<Int>>"))
  }

  @Test("exercise 10's entry point conforms its model, screen and saver, and no Observable")
  func scoresEntryPoint() throws {
    let exercise = try #require(Exercise.numbered(10))
    let source = ExerciseBuilder.entryPoint(of: exercise)
    #expect(source.contains("extension Exercise10.LatestScores: LatestScoresModel {}"))
    #expect(source.contains("extension Exercise10.ScoresScreen: ScoresScreenModel {}"))
    #expect(source.contains("extension Exercise10.ScoreSaver: ScoreSaverModel {}"))
    #expect(source.contains("ExerciseCode.mainActorScores("))
    #expect(!source.contains("Exercise10.Observable"))
  }

  @Test("exercise 11's entry point conforms its player and label, and no Observable")
  func labelEntryPoint() throws {
    let exercise = try #require(Exercise.numbered(11))
    let source = ExerciseBuilder.entryPoint(of: exercise)
    #expect(source.contains("extension Exercise11.Player: ObservedPlayer {}"))
    #expect(source.contains("extension Exercise11.ScoreLabel: ScoreLabelModel {}"))
    #expect(source.contains("ExerciseCode.observedLabel(Exercise11.ScoreLabel.self)"))
    #expect(!source.contains("Exercise11.Observable"))
  }
}
