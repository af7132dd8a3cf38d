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

/// A copy of `real`'s package in `scratch` (what `swift package describe` reads, and the
/// sources), with a copy of its kit, built first if it is not yet.
private func packageCopy(of real: ExerciseBuilder, in scratch: URL) throws -> ExerciseBuilder {
  let exercise = try #require(Exercise.numbered(1))
  let product = real.build(
    exercise, from: real.root.appendingPathComponent(exercise.solutionFolder),
    into: scratch.appendingPathComponent("real"))
  guard case .child = product else { throw KitNotBuilt(product: product) }
  let copy = scratch.appendingPathComponent("package")
  try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
  for item in ["Package.swift", "Sources", "Exercises", "Tests"] {
    try FileManager.default.copyItem(
      at: real.root.appendingPathComponent(item), to: copy.appendingPathComponent(item))
  }
  let builder = ExerciseBuilder(root: copy)
  try FileManager.default.createDirectory(at: builder.folder, withIntermediateDirectories: true)
  try FileManager.default.copyItem(
    at: real.folder.appendingPathComponent("kit"),
    to: builder.folder.appendingPathComponent("kit"))
  return builder
}

/// The package's own kit did not build.
private struct KitNotBuilt: Error {
  var product: ExerciseBuilder.Product
}

/// Appends `text` to `file`.
private func append(_ text: String, to file: URL) throws {
  #expect(FileManager.default.fileExists(atPath: file.path))
  let handle = try FileHandle(forWritingTo: file)
  try handle.seekToEnd()
  try handle.write(contentsOf: Data(text.utf8))
  try handle.close()
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

  @Test("the kit is WorkshopKit and what it depends on, as SwiftPM describes the package")
  func kitFromDescription() throws {
    let root = try builder().root
    let describe = Process()
    describe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // The workshop's own scratch folder: `swift test` holds the package's `.build` while it
    // runs.
    describe.arguments = [
      "swift", "package", "--package-path", root.path, "--scratch-path",
      try builder().folder.appendingPathComponent("swiftpm").path, "describe", "--type", "json",
    ]
    let pipe = Pipe()
    describe.standardOutput = pipe
    try describe.run()
    let json = pipe.fileHandleForReading.readDataToEndOfFile()
    describe.waitUntilExit()
    let kit = try ExerciseBuilder.kit(describedBy: json, root: root)
    let names = kit.modules.map(\.name)
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(manifest.contains("name: \"\(kit.packageName)\""))
    #expect(names.last == "WorkshopKit")
    // What a grading child imports, and what exercise 10's answer uses, are in it.
    for needed in ["CommandSupport", "ObserverScenarios", "Stage5Concurrency", "Stage4Options"] {
      #expect(names.contains(needed), "\(needed) is not in the kit: \(names)")
    }
    // Each module after what it depends on, each once, every source a real file.
    for (index, module) in kit.modules.enumerated() {
      #expect(names.firstIndex(of: module.name) == index)
      for dependency in module.dependencies {
        #expect(names.prefix(index).contains(dependency), "\(module.name) before \(dependency)")
      }
      #expect(!module.sources.isEmpty)
      for source in module.sources {
        #expect(FileManager.default.fileExists(atPath: source.path), "\(source.path)")
      }
    }
    // Nothing the kit does not need: no command, no test target, no solution.
    #expect(!names.contains { $0.hasPrefix("Solution") || $0.hasSuffix("Tests") })
    #expect(!names.contains("DesignCatalog"))
  }

  @Test("a target of the kit that is not a Swift target, or is missing, stops it in one line")
  func kitNeedsSwiftTargets() throws {
    func describing(_ targets: String) -> Data {
      Data(#"{"name": "P", "targets": [\#(targets)]}"#.utf8)
    }
    let swift = #"""
      {"name": "WorkshopKit", "c99name": "WorkshopKit", "path": "Sources/W", "sources": ["A.swift"],
       "target_dependencies": ["Counter"], "module_type": "SwiftTarget"}
      """#
    let clang = #"""
      {"name": "Counter", "c99name": "Counter", "path": "Sources/C", "sources": ["c.c"],
       "module_type": "ClangTarget"}
      """#
    let root = URL(fileURLWithPath: "/package")
    #expect {
      _ = try ExerciseBuilder.kit(describedBy: describing(swift + "," + clang), root: root)
    } throws: { error in
      let text = String(describing: error)
      return text.contains("Counter is not a Swift target (ClangTarget)") && !text.contains("\n")
    }
    #expect {
      _ = try ExerciseBuilder.kit(describedBy: describing(swift), root: root)
    } throws: { error in
      String(describing: error).contains("no target named Counter")
    }
  }

  @Test("nothing of SwiftPM's build folder is read: no .yaml, no Modules folder, no objects")
  func readsNothingPrivate() throws {
    let root = try builder().root
    let folder = root.appendingPathComponent("Sources/Lab/WorkshopKit")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(files.contains("ExerciseBuild.swift"))
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let code = line.split(separator: "//", maxSplits: 1).first ?? ""
        for name in [".yaml", "\"Modules\"", "/Modules", ".swift.o", "debug.yaml", "/debug/"] {
          #expect(!code.contains(name), "\(file):\(number + 1): \(line)")
        }
        // `.build` only as the folder the workshop owns, `.build/workshop`.
        if code.contains("\".build\"") || code.contains(".build/") {
          #expect(
            code.contains(#"appendingPathComponent(".build").appendingPathComponent("workshop")"#),
            "\(file):\(number + 1): \(line)")
        }
      }
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

  @Test("a kit that does not compile says so in one line: the package's fault, not the exercise's")
  func brokenKit() throws {
    let scratch = try temporaryFolder("kit-broken")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let builder = try packageCopy(of: try builder(), in: scratch)
    try append(
      "\nlet broken: Int = \"x\"\n",
      to: builder.root.appendingPathComponent("Sources/Lab/Support/Text.swift"))
    let exercise = try #require(Exercise.numbered(1))
    let product = builder.build(
      exercise, from: builder.root.appendingPathComponent(exercise.solutionFolder),
      into: scratch.appendingPathComponent("child"))
    guard case .errors(let errors) = product else {
      Issue.record("a broken kit built: \(product)")
      return
    }
    #expect(!errors.contains("\n"), "more than one line: \(errors)")
    #expect(
      errors.hasPrefix("the workshop's own code did not compile (Support, not your exercise): "))
    #expect(errors.contains("Sources/Lab/Support/Text.swift:"))
    #expect(errors.contains("error: cannot convert value of type 'String' to specified type 'Int'"))
    // Nothing of it kept as built: the next grade tries again.
    let kit = builder.folder.appendingPathComponent("kit")
    let kept = try FileManager.default.contentsOfDirectory(atPath: kit.path)
    #expect(kept.filter { $0.hasPrefix("Support-") }.count == 1, "\(kept)")
  }

  @Test("a kit source changed rebuilds what uses it, no more; a build killed midway is not kept")
  func kitRebuiltWhenItsSourcesChange() throws {
    let exercise = try #require(Exercise.numbered(1))
    let scratch = try temporaryFolder("kit-change")
    defer { try? FileManager.default.removeItem(at: scratch) }
    // A copy of the package, with a copy of its kit, and a source of Support changed.
    let builder = try packageCopy(of: try builder(), in: scratch)
    let copy = builder.root
    let kit = builder.folder.appendingPathComponent("kit")
    func modules() throws -> [String: String] {
      let names = try FileManager.default.contentsOfDirectory(atPath: kit.path)
        .filter { !$0.hasPrefix(".") }
      return Dictionary(
        uniqueKeysWithValues: names.map { (String($0.split(separator: "-")[0]), $0) })
    }
    let before = try modules()
    let unchanged = try #require(before["LifetimeTracking"])
    try Data().write(to: kit.appendingPathComponent(unchanged).appendingPathComponent("marker"))
    let changed = copy.appendingPathComponent("Sources/Lab/Support/Text.swift")
    try append("\n// Changed by a test.\n", to: changed)

    // The workshop, run from the copy's root (it finds it from there), interrupted as soon as
    // it is compiling a module of the kit.
    let executable = scratch.appendingPathComponent("workshop")
    try copyExecutable(testProductsFolder.appendingPathComponent("workshop"), to: executable)
    let workshop = try ChildProcess(
      ["/bin/sh", "-c", "cd \"$0\" && exec \"$1\" 1", copy.path, executable.path],
      environment: ProcessInfo.processInfo.environment, outputs: [[1, 2]])
    let deadline = Date().addingTimeInterval(ExerciseBuilder.kitModuleLimit)
    func building() -> Bool {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: kit.path)) ?? []
      return entries.contains { $0.hasPrefix(".building-") }
    }
    while !building(), workshop.checkEnding() == nil, Date() < deadline { usleep(20_000) }
    #expect(building(), "the workshop never started building the changed kit")
    // Interrupted as Ctrl-C does: it stops its compiler and exits.
    kill(workshop.pid, SIGINT)
    while workshop.checkEnding() == nil, Date() < deadline { usleep(20_000) }
    #expect(workshop.ending == .exited(128 + SIGINT))
    workshop.killGroup()
    #expect(building(), "what the interrupted build made was removed: nothing to check")
    for (name, folder) in try modules() {
      let made = kit.appendingPathComponent(folder)
      for file in ["inputs", "lib\(name).a", "\(name).swiftmodule"] {
        #expect(
          FileManager.default.fileExists(atPath: made.appendingPathComponent(file).path),
          "\(folder) is taken as built without its \(file)")
      }
    }

    // The next grade builds what changed, and grades as before.
    let product = builder.build(
      exercise, from: copy.appendingPathComponent(exercise.solutionFolder),
      into: scratch.appendingPathComponent("second"))
    guard case .child(let child) = product else {
      Issue.record("did not compile: \(product)")
      return
    }
    #expect(IsolatedGrading.grade(exercise, command: [child]).isSolved)
    let after = try modules()
    #expect(Set(after.keys) == Set(before.keys), "one build of each module: \(after)")
    for module in ["Support", "CommandSupport", "ObserverScenarios", "WorkshopKit"] {
      #expect(after[module] != before[module], "\(module) was not rebuilt")
    }
    for module in ["LifetimeTracking", "Stage4Options", "Stage5Concurrency"] {
      #expect(after[module] == before[module], "\(module) was rebuilt")
    }
    #expect(
      FileManager.default.fileExists(
        atPath: kit.appendingPathComponent(unchanged).appendingPathComponent("marker").path))
    // SwiftPM built nothing in the copy: the kit and the child come from its sources alone.
    let swiftPMFolder = copy.appendingPathComponent(".build")
    let made = (try? FileManager.default.contentsOfDirectory(atPath: swiftPMFolder.path)) ?? []
    #expect(!made.contains("debug"), "swift build ran in the copy: \(made)")
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
