import CommandSupport
import DesignCatalog
import Foundation
import ObserverScenarios
import Support
import TestSupport
import Testing
import WorkshopKit

/// A design that never calls anybody: nothing it is graded on can hold but what needs no call.
private final class SilentAdapter: ScenarioObservable {
  var value: Int
  init(_ value: Int) { self.value = value }
  var storedEntryCount: Int { 0 }
  func subscribe(_ subscription: ScenarioSubscription) {}
}

private let silentDesign = ObservableDesign(
  id: "silent", title: "calls nobody", module: "WorkshopTests", typeName: "SilentAdapter",
  capabilities: [.unsubscribe, .storedEntryCount], isSendable: false,
  makeObservable: { SilentAdapter($0) })

private let silent = ExerciseCode(design: silentDesign) { _ in .flaw("called nobody") }

/// Runs the workshop on `code` and returns what it wrote and how it ended.
private func workshop(
  _ arguments: [String], code: [Int: ExerciseCode] = testedCode,
  hints: HintStore? = nil
) -> CommandRun {
  guard let store = hints else {
    // A store of its own, in a folder removed once the command has run.
    do {
      return try withTemporaryFolder("workshop-hints") { folder in
        workshop(arguments, code: code, hints: HintStore(url: folder.appending(path: "hints.json")))
      }
    } catch {
      Issue.record("no temporary folder for the hints: \(error)")
      return CommandRun { _ in .failure }
    }
  }
  return CommandRun { io in
    WorkshopCommand.run(
      arguments, io: io, code: code, hints: store,
      watch: { _, _ in
        Issue.record("--watch must not start in a test")
        return .failure
      })
  }
}

/// Code that keeps every promise of each exercise, for the tests of the command, which grade in
/// this process: stage 5's design for the scenarios (it holds every one: `compare-stages`), and
/// each check said to hold. What the grader makes of real code is tested with the solutions and
/// the known answers, built and run as a learner's code is (`ExerciseBuildTests`,
/// `WrongAnswerTests`).
let testedCode: [Int: ExerciseCode] = Dictionary(
  uniqueKeysWithValues: Exercise.all.map { exercise in
    let isAnApp = exercise.aimed.isEmpty && exercise.kept.isEmpty
    return (
      exercise.number,
      ExerciseCode(design: isAnApp ? nil : CatalogEntry.concurrency.design) { check in
        .holds("\(check.rawValue) kept by the tests' stand-in")
      }
    )
  })

extension Exercise: CustomTestStringConvertible {
  package var testDescription: String { "\(number) \(slug)" }
}

@Suite("Workshop: the exercise list")
struct ExerciseListTests {
  @Test("exercises are numbered 1, 2, 3… and each slug starts with its number")
  func numbering() {
    #expect(Exercise.all.map(\.number) == Array(1...Exercise.all.count))
    for exercise in Exercise.all {
      #expect(exercise.slug.hasPrefix(String(format: "%02d-", exercise.number)))
    }
    #expect(Exercise.all.count >= 8)
  }

  @Test("every chapter from 1 to 5 is followed by at least one exercise")
  func everyChapter() {
    for chapter in 1...5 {
      #expect(Exercise.all.contains { $0.chapter.number.chapter == chapter }, "chapter \(chapter)")
    }
  }

  @Test("aimed and kept scenarios are disjoint, and there are hints", arguments: Exercise.all)
  func scenariosAndHints(exercise: Exercise) throws {
    // An app's grading child hands over its models, not an observable's adapter.
    let child = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "Exercises/Grading/\(ExerciseBuilder.childName(of: exercise))/main.swift"),
      encoding: .utf8)
    if !child.contains("Adapter<") {
      // An app's code, not an observable: no scenario can drive it, and its generated programs
      // grade it all (each mistake learners make is caught there: WrongAnswerTests), with no
      // fixed sequence beside them (Exercises/README.md says so).
      #expect(exercise.aimed.isEmpty && exercise.kept.isEmpty)
      #expect(!exercise.checks.isEmpty && exercise.checks.allSatisfy(\.isGenerated))
    } else {
      #expect(!exercise.aimed.isEmpty)
    }
    #expect(Set(exercise.aimed).isDisjoint(with: exercise.kept))
    #expect(exercise.hints.count >= 2)
    #expect(
      FileManager.default.fileExists(
        atPath: packageRoot.appendingPathComponent(exercise.next.path).path),
      "\(exercise.next.path)")
  }

  @Test("a starter and its solution have the same file names", arguments: Exercise.all)
  func sameFiles(exercise: Exercise) throws {
    func files(_ folder: String) throws -> [String] {
      try FileManager.default.contentsOfDirectory(
        atPath: packageRoot.appendingPathComponent(folder).path
      ).sorted()
    }
    let starter = try files(exercise.folder)
    #expect(!starter.isEmpty)
    #expect(starter == (try files(exercise.solutionFolder)))
  }

  @Test(
    "each chapter an exercise follows ends with it: 'Your turn' and the grading command, or, in the last such chapter, a 'Practise it' paragraph"
  )
  func chaptersPointToTheirExercises() throws {
    #expect(Set(Exercise.all.map(\.chapter.number.chapter)).isSuperset(of: 1...5))
    let numbers = Set(Exercise.all.map(\.chapter.number))
    for number in numbers.sorted() {
      let chapter = try #require(TutorialChapter.numbered(number))
      let name = chapter.path
      let text = try String(
        contentsOf: packageRoot.appendingPathComponent(chapter.path), encoding: .utf8)
      for exercise in Exercise.all where exercise.chapter.number == number {
        // The last chapter an exercise follows, with no section of its own for it, ends its
        // choosing section with a paragraph that points to it.
        let pointer = "\nPractise it: exercise \(exercise.number) "
        if number == numbers.max(), !text.contains("\n## Your turn\n") {
          let paragraph = try #require(
            text.components(separatedBy: pointer).dropFirst().first, "\(name) has no pointer")
          let end = paragraph.range(of: "\n\n")?.lowerBound ?? paragraph.endIndex
          #expect(
            paragraph[..<end].contains("`swift run workshop \(exercise.number)`"), "\(name)")
          continue
        }
        let turn = try #require(
          text.components(separatedBy: "\n## Your turn\n").last, "\(name) has no Your turn")
        #expect(turn.contains("swift run workshop \(exercise.number)\n"), "\(name)")
      }
    }
  }

  @Test("Exercises/README.md lists every exercise as the exercise list has it, in order")
  func exercisesReadmeTable() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("Exercises/README.md"), encoding: .utf8)
    // The first table's rows, past its header: the JSON's keys have a table of their own.
    let rows = readme.split(separator: "\n").drop { $0.first != "|" }.prefix { $0.first == "|" }
      .dropFirst(2)
    let expected = try Exercise.all.map { exercise in
      let chapter = try #require(TutorialChapter.numbered(exercise.chapter.number))
      return "| \(exercise.number) | [\(exercise.title)](\(exercise.slug)) | "
        + "[\(chapter.number)](../\(chapter.path)) | `swift run workshop \(exercise.number)` |"
    }
    #expect(rows.map(String.init) == expected)
  }

  @Test("Exercises/README.md's time limits are the workshop's")
  func exercisesReadmeLimits() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("Exercises/README.md"), encoding: .utf8
    )
    .replacing("\n", with: " ")
    let limits = GradingLimits.standard
    #expect(
      readme.contains(
        "makes no progress for \(Int(limits.perCriterion)) seconds is stopped as hung"))
    #expect(
      readme.contains(
        "grading an exercise takes at most \(Int(limits.total)) seconds (its build at most "
          + "\(Int(ExerciseBuilder.buildLimit)),"))
  }

  @Test("the README's workshop section shows the workshop's command")
  func readmeShowsTheWorkshop() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(
      readme.components(separatedBy: "\n## ").first { $0.hasPrefix("The workshop\n") })
    #expect(section.contains("```sh\nswift run workshop\n```"))
  }
}

@Suite("Workshop: the command")
struct WorkshopCommandTests {
  @Test("with code that keeps each exercise's promises, every exercise is solved")
  func allSolved() {
    let result = workshop([])
    #expect(result.status == .success)
    #expect(result.error.isEmpty)
    #expect(result.output.contains("\(Exercise.all.count) of \(Exercise.all.count) solved."))
    #expect(workshop(["--strict"]).status == .success)
  }

  @Test(
    "an unsolved exercise: ✗, its failing verdicts and evidence, a hint; exit 0 unless --strict")
  func unsolved() throws {
    var code = testedCode
    code[1] = silent
    let list = workshop([], code: code)
    #expect(list.status == .success)
    #expect(list.output.contains("  ✗  1 "))
    #expect(list.output.contains("\(Exercise.all.count - 1) of \(Exercise.all.count) solved."))
    #expect(list.output.contains("Next: edit Exercises/01-"))
    let one = workshop(["1"], code: code)
    #expect(one.status == .success)
    let evidence = Scenario.Name.deliversEveryChange.scenario.run(on: silentDesign).detail
    #expect(one.output.contains("✗ delivers-every-change"))
    #expect(one.output.contains(evidence.split(separator: " ").prefix(3).joined(separator: " ")))
    #expect(one.output.contains("Not yet solved"))
    #expect(one.output.contains("swift run workshop hint 1"))
    #expect(workshop(["1", "--strict"], code: code).status == .failure)
    #expect(workshop(["2", "--strict"], code: code).status == .success)
  }

  @Test("grading one exercise shows each aimed and kept scenario, then what to read next")
  func gradeOne() throws {
    let exercise = try #require(Exercise.numbered(2))
    let output = workshop(["2"]).output
    for (criterion, _) in exercise.criteria {
      #expect(output.contains("✓ \(criterion.name)"), "\(criterion.name)")
    }
    #expect(output.contains("Solved. Read next: \(exercise.next.path)"))
  }

  @Test("JSON: exercises with number, slug, title, chapter, solved, status and their criteria")
  func json() throws {
    let result = workshop(["--format", "json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect(Array(object.keys) == ["exercises"])
    let exercises = try #require(object["exercises"] as? [[String: Any]])
    #expect(exercises.count == Exercise.all.count)
    for (entry, exercise) in zip(exercises, Exercise.all) {
      #expect(
        Set(entry.keys) == ["number", "slug", "title", "chapter", "solved", "status", "criteria"])
      #expect(entry["status"] as? String == "graded")
      #expect(entry["number"] as? Int == exercise.number)
      #expect(entry["slug"] as? String == exercise.slug)
      #expect(entry["chapter"] as? Int == exercise.chapter.number.chapter)
      #expect(entry["solved"] as? Bool == true)
      let scenarios = try #require(entry["criteria"] as? [[String: Any]])
      #expect(scenarios.count == exercise.criteria.count)
      for scenario in scenarios {
        #expect(Set(scenario.keys) == ["name", "verdict", "aimed", "detail", "ran"])
      }
      #expect(
        scenarios.filter { $0["aimed"] as? Bool == true }.map { $0["name"] as? String }
          == exercise.criteria.filter(\.aimed).map(\.criterion.name))
    }
    let one = workshop(["3", "--format=json"]).output
    #expect(one.contains("\"number\" : 3"))
  }

  @Test("--help describes every mode and lists the exercises")
  func help() {
    let result = workshop(["--help"])
    #expect(result.status == .success)
    for text in ["workshop hint [<number>] [--reset]", "--watch", "--strict", "--format"] {
      #expect(result.output.contains(text))
    }
    for exercise in Exercise.all {
      #expect(result.output.contains(exercise.title))
    }
  }

  @Test(
    "bad input: one line on stderr naming the problem and the valid choices, exit 64",
    arguments: [
      ["0"], ["99"], ["one"], ["hint"], ["hint", "x"], ["--format", "yaml"], ["--format"],
      ["--nope"], ["1", "2"], ["hint", "1", "--strict"], ["--watch", "--format", "json"],
      ["--strict=yes"], ["--watch=3"], [""], ["="], ["=3"], ["-"], ["--"], ["hint", ""],
      ["hint", "="], ["hint", "0"], ["hint", "-1"], ["hint", "99", "--reset"], ["--reset"],
      ["1", "--reset"], ["hint", "1", "--reset", "--strict"], ["--reset=1"], ["--watch", "0"],
      ["--watch", "-3"], ["hint", "1", "2"], ["--format="], ["tips", "1"],
    ])
  func badInput(arguments: [String]) {
    let result = workshop(arguments)
    #expect(result.status == .usage)
    #expect(result.output.isEmpty)
    #expect(result.error.hasPrefix("workshop: "))
    #expect(result.error.hasSuffix("; see 'workshop --help'\n"))
    #expect(result.error.split(separator: "\n").count == 1)
    #expect(
      result.error.contains("valid") || result.error.contains("no option")
        || result.error.contains("takes no value"))
  }

  @Test("parsing keeps numbers as numbers and modes as modes")
  func parsing() throws {
    #expect(try WorkshopCommand.parse([]).request == .list)
    #expect(try WorkshopCommand.parse(["4"]).request == .grade(4))
    #expect(try WorkshopCommand.parse(["hint", "4"]).request == .hint(4))
    #expect(try WorkshopCommand.parse(["--watch"]).request == .watch(nil))
    #expect(try WorkshopCommand.parse(["--watch", "3"]).request == .watch(3))
    #expect(try WorkshopCommand.parse(["--strict", "3"]).strict)
    #expect(try WorkshopCommand.parse(["hint", "4", "--reset"]).request == .resetHints(4))
    #expect(try WorkshopCommand.parse(["hint", "--reset"]).request == .resetHints(nil))
    #expect(try WorkshopCommand.parse(["--reset", "hint", "2"]).request == .resetHints(2))
  }

  @Test("each hint run goes one step further, and the last one says where the answer is")
  func hints() throws {
    let store = HintStore(
      url: FileManager.default.temporaryDirectory.appendingPathComponent(
        "hints-\(UUID().uuidString)/hints.json"))
    defer { try? FileManager.default.removeItem(at: store.url.deletingLastPathComponent()) }
    let exercise = try #require(Exercise.numbered(4))
    let first = workshop(["hint", "4"], hints: store)
    #expect(first.status == .success)
    #expect(first.output.contains("Hint 1 of \(exercise.hints.count)"))
    #expect(!first.output.contains("Hint 2 of"))
    let second = workshop(["hint", "4"], hints: store)
    #expect(second.output.contains("Hint 2 of \(exercise.hints.count)"))
    for _ in exercise.hints {
      _ = workshop(["hint", "4"], hints: store)
    }
    let last = workshop(["hint", "4"], hints: store)
    #expect(last.output.contains("Hint \(exercise.hints.count) of \(exercise.hints.count)"))
    #expect(last.output.contains(exercise.solutionFolder))
    #expect(store.shown(for: 5) == 0, "hints are counted per exercise")
  }
}

@Suite("Workshop: hints kept between runs")
struct HintStoreTests {
  private func store() -> HintStore {
    HintStore(
      url: FileManager.default.temporaryDirectory.appendingPathComponent(
        "hints-\(UUID().uuidString)/hints.json"))
  }

  @Test("hint N --reset starts that exercise's hints again, and only that one's")
  func resetOne() throws {
    let store = store()
    defer { try? FileManager.default.removeItem(at: store.url.deletingLastPathComponent()) }
    for _ in 1...2 {
      _ = workshop(["hint", "4"], hints: store)
      _ = workshop(["hint", "5"], hints: store)
    }
    let reset = workshop(["hint", "4", "--reset"], hints: store)
    #expect(reset.status == .success)
    #expect(reset.error.isEmpty)
    #expect(reset.output.contains("Hints of exercise 4 reset"))
    #expect(store.shown(for: 4) == 0)
    #expect(store.shown(for: 5) == 2)
    let again = workshop(["hint", "4"], hints: store)
    #expect(again.output.contains("Hint 1 of"))
    #expect(!again.output.contains("Hint 2 of"))
  }

  @Test("hint --reset starts every exercise's hints again")
  func resetAll() throws {
    let store = store()
    defer { try? FileManager.default.removeItem(at: store.url.deletingLastPathComponent()) }
    _ = workshop(["hint", "4"], hints: store)
    _ = workshop(["hint", "7"], hints: store)
    let reset = workshop(["hint", "--reset"], hints: store)
    #expect(reset.status == .success)
    #expect(reset.output.contains("Hints of every exercise reset"))
    #expect(store.shown(for: 4) == 0)
    #expect(store.shown(for: 7) == 0)
    #expect(workshop(["hint", "--reset"], hints: self.store()).status == .success, "no file yet")
  }

  @Test("a hints file with a huge or a negative count does not trap")
  func oddCounts() throws {
    let store = store()
    defer { try? FileManager.default.removeItem(at: store.url.deletingLastPathComponent()) }
    try FileManager.default.createDirectory(
      at: store.url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(#"{"hintsShown": {"4": \#(Int.max), "5": -3}}"#.utf8).write(to: store.url)
    let four = try #require(Exercise.numbered(4))
    let huge = workshop(["hint", "4"], hints: store)
    #expect(huge.status == .success)
    #expect(huge.output.contains("Hint \(four.hints.count) of \(four.hints.count)"))
    let negative = workshop(["hint", "5"], hints: store)
    #expect(negative.status == .success)
    #expect(negative.output.contains("Hint 1 of"))
    #expect(!negative.output.contains("Hint 2 of"))
  }
}

@Suite("Workshop: watching")
struct WatcherTests {
  @Test("a save is seen, and regrading happens once at the start and once per change")
  func regradesOnChange() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("01-x"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("01-x/Observable.swift")
    try Data("let a = 1\n".utf8).write(to: file)
    let captured = CapturedIO()
    var regrades = 0
    var pauses = 0
    Watcher.watch(
      folder, io: captured.io, rounds: 4,
      regrade: { _ in
        regrades += 1
        return false
      },
      pause: {
        pauses += 1
        if pauses == 2 { try? Data("let a = 22\n".utf8).write(to: file) }
      })
    #expect(regrades == 2)
    #expect(captured.output.contains("Changed: Exercises/01-x/Observable.swift"))
  }

  @Test("what SwiftPM writes in Exercises/.build while it grades is no change; a save still is")
  func buildFolderIsNoChange() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("watch-\(UUID().uuidString)")
    let built = folder.appendingPathComponent(".build/debug")
    try FileManager.default.createDirectory(at: built, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Observable.swift")
    try Data("let a = 1\n".utf8).write(to: file)
    let before = Watcher.snapshot(of: folder)
    try Data("a grading child".utf8).write(to: built.appendingPathComponent("Grade01"))
    try Data("{}".utf8).write(to: folder.appendingPathComponent(".swiftpm-state"))
    #expect(Watcher.snapshot(of: folder) == before)
    try Data("let a = 22\n".utf8).write(to: file)
    #expect(Watcher.snapshot(of: folder) != before)
  }

  @Test("a save made while a grade is under way abandons it, and the next grade starts at once")
  func abandonsAGradeOnChange() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Observable.swift")
    try Data("let a = 1\n".utf8).write(to: file)
    let captured = CapturedIO()
    var finished: [Bool] = []
    Watcher.watch(
      folder, io: captured.io, rounds: 2,
      regrade: { changed in
        // The first grade sees a save in the middle of its work; the second one runs to its end.
        if finished.isEmpty {
          #expect(!changed())
          try? Data("let a = 22\n".utf8).write(to: file)
          #expect(changed())
          finished.append(false)
          return true
        }
        #expect(!changed())
        finished.append(true)
        return false
      },
      pause: {})
    #expect(finished == [false, true])
    #expect(captured.output.contains("A file changed while grading: that grade is abandoned."))
    #expect(captured.output.contains("Changed: Exercises/Observable.swift"))
  }

  @Test("compiler errors name the exercises they are in")
  func compilerErrorsNameExercises() {
    let output = """
      /work/p/Exercises/03-keys-per-owner/Observable.swift:12:5: error: cannot find 'x' in scope
      /work/p/Exercises/03-keys-per-owner/Observable.swift:14:5: error: cannot find 'y' in scope
      /work/p/Exercises/Solutions/03-keys-per-owner/Observable.swift:1:1: warning: unused
      /work/p/Exercises/07-queue-nested-sets/Observable.swift:3:1: error: expected '}'
      """
    #expect(
      Watcher.exercisesNamed(in: output)
        == ["Exercises/03-keys-per-owner", "Exercises/07-queue-nested-sets"])
  }
}
