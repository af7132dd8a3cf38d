import CommandSupport
import Foundation
import Synchronization
import TestSupport
import Testing
import WorkshopKit

/// The builder of this package's exercises, found from the products' folder the tests were
/// built in, as the workshop finds it from its own executable there.
private func builder() throws -> ExerciseBuilder {
  try #require(
    ExerciseBuilder.locate(
      executable: testProductsFolder.appendingPathComponent("workshop").path))
}

@Suite("Workshop: the exercises, a package SwiftPM builds", .serialized)
struct ExerciseBuildTests {
  @Test(
    "each exercise is a target of Exercises/Package.swift with a grading child; none is the root's")
  func exercisesArePackageTargets() throws {
    let root = try builder().root
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let exercises = try String(
      contentsOf: root.appendingPathComponent("Exercises/Package.swift"), encoding: .utf8)
    // The root names no exercise nor solution; the exercises' package names each exercise's
    // folder, and nothing of Solutions/, which the tests copy over the exercises to grade.
    #expect(!manifest.contains("path: \"Exercises"))
    #expect(!exercises.contains("Solutions"))
    for exercise in Exercise.all {
      #expect(!manifest.contains(exercise.slug), "\(exercise.folder) is a root target")
      #expect(exercises.contains("\"\(exercise.slug)\""), "\(exercise.slug) is not an exercise")
      let child = root.appendingPathComponent(
        "Exercises/Grading/\(ExerciseBuilder.childName(of: exercise))/main.swift")
      let main = try String(contentsOf: child, encoding: .utf8)
      #expect(main.contains("import \(ExerciseBuilder.moduleName(of: exercise))\n"))
      #expect(main.contains("exercise: \(exercise.number),"), "\(child.path)")
    }
    let grading = try FileManager.default.contentsOfDirectory(
      atPath: root.appendingPathComponent("Exercises/Grading").path)
    #expect(grading.sorted() == Exercise.all.map(ExerciseBuilder.childName(of:)))
  }

  @Test("the workshop builds through swift build alone: no swiftc, no package description")
  func buildsThroughSwiftPM() throws {
    let root = try builder().root
    let source = try String(
      contentsOf: root.appendingPathComponent("Sources/Lab/WorkshopKit/ExerciseBuild.swift"),
      encoding: .utf8)
    #expect(source.contains(#""swift", "build""#))
    for word in [#""swiftc""#, #""describe""#, "-emit-library", "-module-name"] {
      #expect(!source.contains(word), "ExerciseBuild.swift runs \(word)")
    }
  }

  @Test("the package is found above the workshop's executable, or else above the current folder")
  func locatesFromTheCurrentFolder() throws {
    let root = try builder().root
    let away = FileManager.default.temporaryDirectory.appendingPathComponent("away-\(UUID())")
    let inside = root.appendingPathComponent("Sources/Lab/WorkshopKit").path
    #expect(
      ExerciseBuilder.locate(
        executable: away.appendingPathComponent("workshop").path,
        currentDirectory: inside)?.root.standardizedFileURL.path
        == root.resolvingSymlinksInPath().standardizedFileURL.path)
    #expect(
      ExerciseBuilder.locate(
        executable: away.appendingPathComponent("workshop").path, currentDirectory: away.path)
        == nil)
  }

  @Test(
    "each solution, built as the workshop builds an exercise, is solved in its own children",
    arguments: Exercise.all)
  func solutionBuiltAndGraded(exercise: Exercise) async throws {
    let child = try await solutionChild(exercise.number)
    let grade = await grade(exercise, command: [child])
    #expect(!grade.results.isEmpty)
    for result in grade.results where result.outcome.verdict != .holds {
      Issue.record("\(result.criterion.name): \(result.outcome.detail)")
    }
  }

  @Test("an exercise that does not compile gets the compiler's error, and stops no other")
  func brokenExercise() throws {
    let builder = try solvedCopy()
    let broken = try #require(Exercise.numbered(3))
    let file = builder.exercises.appendingPathComponent("\(broken.slug)/Observable.swift")
    let text = try String(contentsOf: file, encoding: .utf8)
    try (text + "\nlet broken: Int = \"x\"\n").write(to: file, atomically: true, encoding: .utf8)
    defer { try? text.write(to: file, atomically: true, encoding: .utf8) }
    let product = builder.build(broken)
    guard case .errors(let errors) = product else {
      Issue.record("a broken exercise compiled: \(product)")
      return
    }
    #expect(errors.contains("\(broken.slug)/Observable.swift:"))
    #expect(errors.contains("error: cannot convert value of type 'String' to specified type 'Int'"))
    #expect(errors.split(separator: "\n").count == 1, "each error once: \(errors)")
    let grade = ExerciseGrade(broken, buildErrors: errors)
    #expect(!grade.isSolved)
    let shown = WorkshopCommand.text(of: grade)
    #expect(shown.contains("Does not compile, so nothing was graded:"))
    #expect(shown.contains("Not yet solved: it does not compile."))
    // The exercises before and after it still build.
    for other in [2, 4].compactMap(Exercise.numbered) {
      guard case .child = builder.build(other) else {
        Issue.record("exercise \(other.number) did not build beside a broken exercise 3")
        continue
      }
    }
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

  @Test("SwiftPM's own error lines are kept; its line that a command failed is not")
  func swiftPMErrorLines() {
    let output = """
      error: 'exercises': Invalid manifest
      error: emit-module command failed with exit code 1 (use -v to see invocation)
      """
    #expect(ExerciseBuilder.errors(in: output) == "error: 'exercises': Invalid manifest")
  }
}
