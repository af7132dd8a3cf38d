import Foundation

/// Compiles one exercise's code, on its own, into a grading child: the learner's exercises are
/// not targets of the package, so an exercise that does not compile stops only its own
/// grading, never the package's build, `swift test`, `workshop hint` or another exercise.
///
/// It runs `swiftc` on the exercise's files and a generated `main` (the conformances the
/// adapter needs, and the grading child's entry point), against the modules and objects that
/// `swift build` made for `WorkshopKit` and what it depends on, into a folder of the build
/// folder. A build whose inputs have not changed is reused.
package struct ExerciseBuilder: Sendable {
  /// The package's root, which holds `Exercises/`.
  package var root: URL
  /// The build folder `swift build` made: `.build/<triple>/debug`, with `Modules/` and each
  /// target's objects.
  package var buildFolder: URL
  /// The package's name as the compiler knows it, for `package` access to `WorkshopKit`.
  package var packageName: String

  /// The longest a compile may take, in seconds. One exercise compiles in about 1.5 s on a
  /// loaded two-core Linux machine.
  package static let compileLimit = 30.0

  /// The targets whose objects a grading child links, `WorkshopKit` and what it depends on,
  /// each by its folder under `Sources`: the lab's in `Lab`, the stages' beside it.
  package static let linkedTargets = [
    "Lab/WorkshopKit", "Lab/ObserverScenarios", "Lab/CommandSupport", "Lab/Support",
    "Lab/LifetimeTracking", "Stage4Options", "Stage5Concurrency",
  ]

  /// A builder for the package whose build folder holds `executable`: the workshop's own.
  package static func locate(executable: String) -> ExerciseBuilder? {
    let buildFolder = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    var folder = buildFolder
    while folder.path != "/" {
      folder = folder.deletingLastPathComponent()
      let manifest = folder.appendingPathComponent("Package.swift").path
      let exercises = folder.appendingPathComponent("Exercises").path
      if FileManager.default.fileExists(atPath: manifest),
        FileManager.default.fileExists(atPath: exercises)
      {
        return ExerciseBuilder(
          root: folder, buildFolder: buildFolder,
          packageName: packageName(root: folder, buildFolder: buildFolder))
      }
    }
    return nil
  }

  /// The name `swift build` gave the package's compiler invocations (`-package-name`), read
  /// from its manifest of commands; else the package folder's name as SwiftPM spells it.
  private static func packageName(root: URL, buildFolder: URL) -> String {
    let commands = root.appendingPathComponent(".build")
      .appendingPathComponent(buildFolder.lastPathComponent + ".yaml")
    if let text = try? String(contentsOf: commands, encoding: .utf8),
      let range = text.range(of: #""-package-name",""#)
    {
      let name = text[range.upperBound...].prefix { $0 != "\"" }
      if !name.isEmpty { return String(name) }
    }
    let identity = root.lastPathComponent.lowercased()
    let name = String(identity.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    return name.first?.isNumber == true ? "_" + name : name
  }

  /// The module name an exercise's code is compiled as: `Exercise03`.
  package static func moduleName(of exercise: Exercise) -> String {
    "Exercise" + (exercise.number < 10 ? "0" : "") + String(exercise.number)
  }

  /// The objects of a target's build folder that its current sources made, sorted: an object
  /// left by a source file since removed would be linked too, and may name what no longer
  /// exists. Objects not made from a Swift file (the module's own) are all taken.
  package static func objects(in folder: URL, of sources: URL) -> [URL] {
    let current = Set(
      FileManager.default.enumerator(atPath: sources.path)?
        .compactMap { ($0 as? String).map { URL(fileURLWithPath: $0).lastPathComponent + ".o" } }
        ?? [])
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { $0.hasSuffix(".o") && (!$0.hasSuffix(".swift.o") || current.contains($0)) }
      .sorted().map { folder.appendingPathComponent($0) }
  }

  /// The generated entry point of exercise's grading child, compiled with its files: the
  /// conformances its adapter needs, and its code handed to the workshop's command.
  package static func entryPoint(of exercise: Exercise) -> String {
    let module = moduleName(of: exercise)
    let api = exercise.api
    let conformances: String
    let code: String
    if api == .observedLabel {
      // An app's code: an @Observable player and a label.
      conformances = """
        extension \(module).Player: ObservedPlayer {}
        extension \(module).ScoreLabel: ScoreLabelModel {}
        """
      code = "ExerciseCode.observedLabel(\(module).ScoreLabel.self)"
    } else if api == .mainActorScores {
      // An app's code: a model, a screen and a saver.
      conformances = """
        extension \(module).LatestScores: LatestScoresModel {}
        extension \(module).ScoresScreen: ScoresScreenModel {}
        extension \(module).ScoreSaver: ScoreSaverModel {}
        """
      code =
        "ExerciseCode.mainActorScores("
        + "\(module).ScoresScreen.self, \(module).ScoreSaver.self)"
    } else if api == .sendableOptions {
      // Exercise 9: its checks set wide values too, through the observable of any value.
      conformances = """
        extension \(module).Observable: AdaptableObservable, \(api.protocolName)
        where Value == Int {}
        extension \(module).Observable: ThreadedObservable {
          package typealias Options = \(module).ObservableOptions
        }
        extension \(module).ObservableOptions: DeliveryOptions {}
        """
      code =
        "ExerciseCode.exercise(\(exercise.number), "
        + "\(api.adapterName)<\(module).Observable<Int>>.self, "
        + "threaded: \(module).Observable<Stamp>.self)"
    } else {
      let options = """
         {
          package typealias Options = \(module).ObservableOptions
        }
        extension \(module).ObservableOptions: DeliveryOptions {}
        """
      conformances = """
        extension \(module).Observable: AdaptableObservable, \(api.protocolName)
        where Value == Int\(api.hasOptions ? options : " {}")
        """
      code =
        "ExerciseCode.exercise(\(exercise.number), "
        + "\(api.adapterName)<\(module).Observable<Int>>.self)"
    }
    return """
      // Generated by the workshop: the grading child of exercise \(exercise.number).
      import CommandSupport
      import Foundation
      import ObserverScenarios
      import WorkshopKit

      \(conformances)

      @main
      struct WorkshopGradingChild {
        static func main() {
          let code = \(code)
          let status = WorkshopCommand.run(
            Array(CommandLine.arguments.dropFirst()), io: .standard, code: [\(exercise.number): code])
          exit(status.rawValue)
        }
      }

      """
  }

  /// What a build gave: the grading child's path, or the compiler's errors.
  package enum Product: Sendable, Equatable {
    case child(String)
    /// The compiler's errors, paths relative to the package's root.
    case errors(String)
  }

  /// Compiles `exercise`'s files, from its folder or from `folder`, into its grading child, in
  /// a folder of the build folder or in `output`.
  package func build(_ exercise: Exercise, from folder: URL? = nil, into output: URL? = nil)
    -> Product
  {
    let sources = folder ?? root.appendingPathComponent(exercise.folder)
    let files =
      ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [])
      .filter { $0.hasSuffix(".swift") }.sorted().map { sources.appendingPathComponent($0) }
    guard !files.isEmpty else { return .errors("no Swift file in \(relative(sources.path))") }
    let output =
      output
      ?? buildFolder.appendingPathComponent("workshop-exercises")
      .appendingPathComponent(exercise.slug)
    let child = output.appendingPathComponent("grading-child")
    let entry = output.appendingPathComponent("WorkshopGradingChild.swift")
    let objects = Self.linkedTargets.flatMap { folder in
      let sources = root.appendingPathComponent("Sources/\(folder)")
      return Self.objects(
        in: buildFolder.appendingPathComponent("\(sources.lastPathComponent).build"),
        of: sources
      ).map(\.path)
    }
    // What the child is made of: the sources' text and the objects' dates.
    var stamp = Self.entryPoint(of: exercise) + packageName
    for file in files { stamp += (try? String(contentsOf: file, encoding: .utf8)) ?? "?" }
    for object in objects {
      let date = try? FileManager.default.attributesOfItem(atPath: object)[.modificationDate]
      stamp += "\(object) \(String(describing: date))"
    }
    let stampFile = output.appendingPathComponent("inputs")
    if (try? String(contentsOf: stampFile, encoding: .utf8)) == stamp,
      FileManager.default.isExecutableFile(atPath: child.path)
    {
      return .child(child.path)
    }
    do {
      try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
      try Self.entryPoint(of: exercise).write(to: entry, atomically: true, encoding: .utf8)
      try? FileManager.default.removeItem(at: stampFile)
    } catch {
      return .errors("could not write to \(output.path): \(error)")
    }
    let arguments =
      [
        "/usr/bin/env", "swiftc", "-parse-as-library", "-Onone", "-g",
        "-module-name", Self.moduleName(of: exercise), "-package-name", packageName,
        "-swift-version", "6", "-I", buildFolder.appendingPathComponent("Modules").path,
        "-o", child.path, entry.path,
      ] + files.map(\.path) + objects
    let compiler: ChildProcess
    do {
      compiler = try ChildProcess(
        arguments, environment: ProcessInfo.processInfo.environment, outputs: [[1, 2]])
    } catch {
      return .errors("could not run swiftc: \(error)")
    }
    defer { compiler.killGroup() }
    let deadline = Date().addingTimeInterval(Self.compileLimit)
    guard let text = compiler.output(stopIf: { Date() > deadline }) else {
      return .errors(
        "swiftc did not finish within \(IsolatedGrading.seconds(Self.compileLimit)): an "
          + "expression too complex to type-check in reasonable time?")
    }
    guard compiler.ending == .exited(0) else {
      return .errors(Self.errors(in: relative(text.text)))
    }
    try? stamp.write(to: stampFile, atomically: true, encoding: .utf8)
    return .child(child.path)
  }

  /// The compiler's error lines in `output`, each once, at most ten: those that start with
  /// the place they are about (`Exercises/03-keys-per-owner/Observable.swift:82:19: error: …`);
  /// all of it when there are none.
  package static func errors(in output: String) -> String {
    var lines: [String] = []
    for line in output.split(separator: "\n") {
      guard let first = line.first, !first.isWhitespace, first != "|",
        line.contains(": error: "), !lines.contains(String(line))
      else { continue }
      lines.append(String(line))
    }
    return lines.isEmpty ? output : lines.prefix(10).joined(separator: "\n")
  }

  /// `text` with the package's root taken off the paths in it.
  private func relative(_ text: String) -> String {
    text.replacing(root.path + "/", with: "")
  }
}
