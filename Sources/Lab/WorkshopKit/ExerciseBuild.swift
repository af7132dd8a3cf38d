import Foundation
import Synchronization

/// Compiles one exercise's code, on its own, into a grading child: the learner's exercises are
/// not targets of the package, so an exercise that does not compile stops only its own
/// grading, never the package's build, `swift test`, `workshop hint` or another exercise.
///
/// It runs `swiftc` on the exercise's files and a generated `main` (the conformances the
/// adapter needs, and the grading child's entry point), against the workshop's kit: `WorkshopKit`
/// and the targets it depends on, which it compiles itself from the package's sources, as
/// `swift package describe` lists them, into static libraries of its own. It reads nothing that
/// `swift build` or Xcode writes, so that neither their layout nor their absence matters. The
/// kit is built once and reused until one of its sources, or the compiler, changes; a build
/// whose inputs have not changed is reused too.
package struct ExerciseBuilder: Sendable {
  /// The package's root, which holds `Package.swift` and `Exercises/`.
  package var root: URL
  /// The workshop's own folder: the kit's libraries in `kit/`, the grading children in
  /// `exercises/`. Ours, not SwiftPM's: SwiftPM never reads it, and its layout is ours to
  /// change.
  package var folder: URL

  /// The longest one exercise's compile may take, in seconds. One exercise compiles in about
  /// 0.5 s against the kit on a loaded two-core Linux machine (`swift run workshop 3`, with it,
  /// 0.8 to 0.9 s); the kit itself has a limit of its own, ``kitModuleLimit``.
  package static let compileLimit = 30.0

  /// The longest one module of the kit may take to compile, in seconds. The slowest,
  /// `WorkshopKit`, took 5.5 to 6.4 s on a loaded two-core Linux machine, and the first grade,
  /// which builds the whole kit, 12.7 to 13.7 s; twenty times the slowest leaves room for a
  /// machine also running `swift test`.
  package static let kitModuleLimit = 120.0

  /// The longest `swift package describe` may take, in seconds: 0.2 to 0.7 s here, more when
  /// it compiles the manifest first.
  package static let describeLimit = 60.0

  /// The target whose module a grading child imports, with what it depends on.
  package static let kitTarget = "WorkshopKit"

  /// A builder for the package at `root`, working in `folder` (`.build/workshop` in the root by
  /// default, where git already ignores it).
  package init(root: URL, folder: URL? = nil) {
    self.root = root
    self.folder =
      folder ?? root.appendingPathComponent(".build").appendingPathComponent("workshop")
  }

  /// A builder for the package that holds `executable` (the workshop's own, which `swift build`
  /// puts in the package), else the package at or above `currentDirectory` (where `swift run
  /// workshop` is typed; an Xcode build puts its products outside the package); `nil` when
  /// neither is in a package with an `Exercises` folder.
  package static func locate(
    executable: String, currentDirectory: String = FileManager.default.currentDirectoryPath
  ) -> ExerciseBuilder? {
    let starts = [
      URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent(),
      URL(fileURLWithPath: currentDirectory).resolvingSymlinksInPath(),
    ]
    for start in starts {
      var folder = start
      while true {
        let manifest = folder.appendingPathComponent("Package.swift").path
        let exercises = folder.appendingPathComponent("Exercises").path
        if FileManager.default.fileExists(atPath: manifest),
          FileManager.default.fileExists(atPath: exercises)
        {
          return ExerciseBuilder(root: folder)
        }
        if folder.path == "/" { break }
        folder = folder.deletingLastPathComponent()
      }
    }
    return nil
  }

  /// The module name an exercise's code is compiled as: `Exercise03`.
  package static func moduleName(of exercise: Exercise) -> String {
    "Exercise" + (exercise.number < 10 ? "0" : "") + String(exercise.number)
  }

  /// The generated entry point of exercise's grading child, compiled with its files: the
  /// conformances its adapter needs, and its code handed to the workshop's command.
  package static func entryPoint(of exercise: Exercise) -> String {
    let module = moduleName(of: exercise)
    let api = exercise.api
    let observable = "\(module).Observable"
    let options = "package typealias Options = \(module).ObservableOptions"
    let adapter = "\(api.adapterName)<\(observable)<Int>>.self"
    // Each an extension of the exercise's code.
    var conformances: [String]
    let code: String
    switch api {
    case .observedLabel:
      // An app's code: an @Observable player and a label.
      conformances = [
        "\(module).Player: ObservedPlayer {}", "\(module).ScoreLabel: ScoreLabelModel {}",
      ]
      code = "ExerciseCode.observedLabel(\(module).ScoreLabel.self)"
    case .mainActorScores:
      // An app's code: a model, a screen and a saver.
      conformances = [
        "\(module).LatestScores: LatestScoresModel {}",
        "\(module).ScoresScreen: ScoresScreenModel {}", "\(module).ScoreSaver: ScoreSaverModel {}",
      ]
      code =
        "ExerciseCode.mainActorScores(\(module).ScoresScreen.self, \(module).ScoreSaver.self)"
    case .sendableOptions:
      // Exercise 9: its checks set wide values too, through the observable of any value.
      conformances = [
        "\(observable): AdaptableObservable, \(api.protocolName) where Value == Int {}",
        "\(observable): ThreadedObservable { \(options) }",
        "\(module).ObservableOptions: DeliveryOptions {}",
      ]
      code =
        "ExerciseCode.exercise(\(exercise.number), \(adapter), threaded: \(observable)<Stamp>.self)"
    default:
      let body = api.hasOptions ? " \(options) " : ""
      conformances = [
        "\(observable): AdaptableObservable, \(api.protocolName) where Value == Int {\(body)}"
      ]
      if api.hasOptions { conformances.append("\(module).ObservableOptions: DeliveryOptions {}") }
      code = "ExerciseCode.exercise(\(exercise.number), \(adapter))"
    }
    return """
      // Generated by the workshop: the grading child of exercise \(exercise.number).
      import CommandSupport
      import Foundation
      import ObserverScenarios
      import WorkshopKit

      \(conformances.map { "extension " + $0 }.joined(separator: "\n"))

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
    /// The compiler's errors, paths relative to the package's root; or, in one line, why the
    /// workshop's kit could not be built.
    case errors(String)
  }

  /// Compiles `exercise`'s files, from its folder or from `folder`, into its grading child, in
  /// the workshop's folder or in `output`, building the kit first if it must.
  package func build(_ exercise: Exercise, from folder: URL? = nil, into output: URL? = nil)
    -> Product
  {
    do throws(BuildFailure) {
      return .child(try compile(exercise, from: folder, into: output))
    } catch {
      return .errors(error.description)
    }
  }

  /// Compiles `exercise` as ``build(_:from:into:)`` does, and returns its grading child's path.
  private func compile(_ exercise: Exercise, from folder: URL?, into output: URL?)
    throws(BuildFailure) -> String
  {
    let sources = folder ?? root.appendingPathComponent(exercise.folder)
    let files =
      ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [])
      .filter { $0.hasSuffix(".swift") }.sorted().map { sources.appendingPathComponent($0) }
    guard !files.isEmpty else { throw BuildFailure("no Swift file in \(relative(sources.path))") }
    let built = try buildKit()
    let output =
      output
      ?? self.folder.appendingPathComponent("exercises").appendingPathComponent(exercise.slug)
    let child = output.appendingPathComponent("grading-child")
    let entry = output.appendingPathComponent("WorkshopGradingChild.swift")
    // What the child is made of: the sources' text and the kit's modules, each named by what
    // made it.
    let entryPoint = Self.entryPoint(of: exercise)
    var stamp = entryPoint + built.packageName + "\n"
    stamp += built.folders.map(\.lastPathComponent).joined(separator: "\n")
    for file in files { stamp += (try? String(contentsOf: file, encoding: .utf8)) ?? "?" }
    let stampFile = output.appendingPathComponent("inputs")
    if (try? String(contentsOf: stampFile, encoding: .utf8)) == stamp,
      FileManager.default.isExecutableFile(atPath: child.path)
    {
      return child.path
    }
    do {
      try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
      try entryPoint.write(to: entry, atomically: true, encoding: .utf8)
      try? FileManager.default.removeItem(at: stampFile)
    } catch {
      throw BuildFailure("could not write to \(output.path): \(error)")
    }
    // Each module's folder for its interface (-I) and its library (-L); the libraries from
    // the one that uses the others to the last, the order a linker reads archives in.
    let kitFlags =
      built.folders.flatMap { ["-I", $0.path, "-L", $0.path] }
      + built.modules.reversed().map { "-l" + $0.name }
    let arguments =
      [
        "/usr/bin/env", "swiftc", "-parse-as-library", "-Onone", "-g",
        "-module-name", Self.moduleName(of: exercise), "-package-name", built.packageName,
        "-swift-version", "6", "-o", child.path, entry.path,
      ] + files.map(\.path) + kitFlags
    guard let result = try Self.run(arguments, tool: "swiftc", limit: Self.compileLimit) else {
      throw BuildFailure(
        "swiftc did not finish within \(IsolatedGrading.seconds(Self.compileLimit)): an "
          + "expression too complex to type-check in reasonable time?")
    }
    guard result.ending == .exited(0) else {
      throw BuildFailure(Self.errors(in: relative(result.output + result.errors)))
    }
    try? stamp.write(to: stampFile, atomically: true, encoding: .utf8)
    return child.path
  }

  // MARK: - The kit

  /// One module of the kit: a Swift target of the package, with its sources and the modules
  /// of the kit it imports.
  package struct KitModule: Sendable, Equatable {
    /// Its module name (the target's `c99name`).
    package var name: String
    /// Its source files.
    package var sources: [URL]
    /// The module names of the targets it depends on, each earlier in the kit.
    package var dependencies: [String]
    /// Its target's folder.
    package var folder: URL
  }

  /// The package as `swift package describe --type json` describes it: its name, and the
  /// kit's modules, `WorkshopKit` and every target it depends on, directly or not, each after
  /// what it depends on.
  ///
  /// - Parameters:
  ///   - json: The command's output.
  ///   - root: The package's root, which the targets' paths are relative to.
  /// - Returns: The package's name and the kit's modules, in the order they compile in.
  /// - Throws: ``BuildFailure`` when the output cannot be read, a target is missing, or one is not
  ///   a Swift target.
  package static func kit(describedBy json: Data, root: URL) throws(BuildFailure) -> (
    packageName: String, modules: [KitModule]
  ) {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let package: DescribedPackage
    do {
      package = try decoder.decode(DescribedPackage.self, from: json)
    } catch {
      throw BuildFailure("could not read what swift package describe printed: \(error)")
    }
    let targets = Dictionary(package.targets.map { ($0.name, $0) }) { first, _ in first }
    var modules: [KitModule] = []
    var visited: Set<String> = []
    func visit(_ name: String) throws(BuildFailure) {
      guard visited.insert(name).inserted else { return }
      guard let target = targets[name] else {
        throw BuildFailure("the package has no target named \(name), which the workshop needs")
      }
      guard target.moduleType == "SwiftTarget" else {
        throw BuildFailure(
          "the workshop compiles \(kitTarget) and what it depends on with swiftc, and \(name) "
            + "is not a Swift target (\(target.moduleType))")
      }
      let dependencies = target.targetDependencies ?? []
      for dependency in dependencies { try visit(dependency) }
      let folder =
        target.path.hasPrefix("/")
        ? URL(fileURLWithPath: target.path) : root.appendingPathComponent(target.path)
      modules.append(
        KitModule(
          name: target.c99name, sources: target.sources.map { folder.appendingPathComponent($0) },
          dependencies: dependencies.compactMap { targets[$0]?.c99name }, folder: folder))
    }
    try visit(kitTarget)
    return (package.name, modules)
  }

  /// Why a build failed: the compiler's errors, or, in one line, why the kit could not be built.
  package struct BuildFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
  }

  /// The built kit: the package's name, and each module with the folder of its interface and
  /// library.
  private struct BuiltKit {
    var packageName: String
    var modules: [KitModule]
    var folders: [URL]
  }

  /// What `swift package describe --type json` prints that the kit needs.
  private struct DescribedPackage: Decodable {
    struct Target: Decodable {
      var name: String
      var c99name: String
      var path: String
      var sources: [String]
      var targetDependencies: [String]?
      var moduleType: String
    }
    var name: String
    var targets: [Target]
  }

  /// What this process learned of each package it built a kit for, by root: its name and kit
  /// modules, and the compiler's version. Its lock makes one kit build at a time, so that
  /// exercises graded at once (the tests grade every solution at once) wait for one build.
  private static let known = Mutex<[String: (package: DescribedKit, compiler: String)]>([:])

  /// The package's name, and the kit's modules in the order they compile in.
  private typealias DescribedKit = (packageName: String, modules: [KitModule])

  /// Builds the modules of the kit whose inputs changed since they were last built: the first
  /// grade builds it all, later ones reuse it.
  private func buildKit() throws(BuildFailure) -> BuiltKit {
    try Self.known.withLock { known throws(BuildFailure) in
      let described: (package: DescribedKit, compiler: String)
      if let found = known[root.path] {
        described = found
      } else {
        described = (try describe(), try compilerVersion())
        known[root.path] = described
      }
      let (packageName, modules) = described.package
      let kitFolder = folder.appendingPathComponent("kit")
      var folders: [String: URL] = [:]
      for module in modules {
        // Every module before it is searched: the compiler needs the interfaces of what its
        // dependencies import too.
        folders[module.name] = try build(
          module, packageName: packageName, compiler: described.compiler, in: kitFolder,
          dependencies: module.dependencies.compactMap { folders[$0] },
          searching: modules.prefix { $0.name != module.name }.compactMap { folders[$0.name] })
      }
      return BuiltKit(
        packageName: packageName, modules: modules,
        folders: modules.compactMap { folders[$0.name] })
    }
  }

  /// Asks SwiftPM for the package's name and targets, through its documented command, unless
  /// what it said last time still holds: what it prints is kept in the workshop's folder, with
  /// what it depends on (``descriptionInputs(of:)``), which costs less to check than the 0.2 to
  /// 0.7 s the command takes.
  private func describe() throws(BuildFailure) -> DescribedKit {
    let kept = folder.appendingPathComponent("package.json")
    let keptInputs = folder.appendingPathComponent("package.inputs")
    if let json = FileManager.default.contents(atPath: kept.path),
      let kit = try? Self.kit(describedBy: json, root: root),
      (try? String(contentsOf: keptInputs, encoding: .utf8)) == descriptionInputs(of: kit.modules)
    {
      return kit
    }
    // A scratch folder of ours: SwiftPM locks its scratch folder while it runs, and `swift test`
    // holds `.build` while the tests grade.
    let arguments = [
      "/usr/bin/env", "swift", "package", "--package-path", root.path, "--scratch-path",
      folder.appendingPathComponent("swiftpm").path, "describe", "--type", "json",
    ]
    let tool = "swift package describe"
    guard let result = try Self.run(arguments, tool: tool, limit: Self.describeLimit) else {
      throw BuildFailure(
        "\(tool) did not finish within \(IsolatedGrading.seconds(Self.describeLimit))")
    }
    guard result.ending == .exited(0) else {
      let line = result.errors.split(separator: "\n").first { $0.contains("error") } ?? ""
      throw BuildFailure("\(tool) failed (\(result.ending)): \(line)")
    }
    let kit = try Self.kit(describedBy: Data(result.output.utf8), root: root)
    // Kept for the next run; its inputs written last, so that a run interrupted between the
    // two leaves inputs that match nothing.
    try? FileManager.default.removeItem(at: keptInputs)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try? Data(result.output.utf8).write(to: kept, options: .atomic)
    try? descriptionInputs(of: kit.modules).write(to: keptInputs, atomically: true, encoding: .utf8)
    return kit
  }

  /// What SwiftPM's description of the kit depends on: the manifests' text (`Package.swift`
  /// and any `Package@swift-….swift`), and the names of the files in each module's folder, where
  /// a file added, removed or renamed changes the module's sources.
  private func descriptionInputs(of modules: [KitModule]) -> String {
    var inputs = ""
    let files = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    for manifest in files.sorted()
    where manifest.hasPrefix("Package") && manifest.hasSuffix(".swift") {
      inputs += manifest + "\n"
      inputs +=
        (try? String(contentsOf: root.appendingPathComponent(manifest), encoding: .utf8)) ?? "?"
    }
    for module in modules {
      inputs += "\n\(module.name) in \(relative(module.folder.path)):\n"
      let names = FileManager.default.enumerator(atPath: module.folder.path)?.allObjects ?? []
      inputs += names.compactMap { $0 as? String }.sorted().joined(separator: "\n")
    }
    return inputs
  }

  /// What `swiftc --version` prints: a new compiler rebuilds the kit.
  private func compilerVersion() throws(BuildFailure) -> String {
    let arguments = ["/usr/bin/env", "swiftc", "--version"]
    guard let result = try Self.run(arguments, tool: "swiftc", limit: Self.describeLimit) else {
      throw BuildFailure("swiftc --version did not finish")
    }
    guard result.ending == .exited(0) else {
      throw BuildFailure("swiftc --version failed (\(result.ending)): \(result.errors)")
    }
    return result.output + result.errors
  }

  /// Compiles `module` into a folder of `kitFolder` named by what it is made of, unless that
  /// folder exists: its interface, `NAME.swiftmodule`, and its static library, `libNAME.a`.
  ///
  /// It compiles into a temporary folder (`swiftc -g` writes what it makes beside its output)
  /// and renames it into place, which is atomic: a build interrupted, or run by two workshops at
  /// once, never leaves a folder half made under the name that is reused. Older builds of the
  /// module are removed.
  ///
  /// - Parameters:
  ///   - module: The module to build.
  ///   - packageName: The `-package-name` of every module of the kit and of the exercise.
  ///   - compiler: What `swiftc --version` printed.
  ///   - kitFolder: The folder of the kit's modules.
  ///   - dependencies: The folders of the modules it depends on: part of what it is made of.
  ///   - searchFolders: The folders of every module built before it, for their interfaces.
  /// - Returns: The module's folder.
  /// - Throws: ``BuildFailure`` when it does not compile, or cannot be written.
  private func build(
    _ module: KitModule, packageName: String, compiler: String, in kitFolder: URL,
    dependencies: [URL], searching searchFolders: [URL]
  ) throws(BuildFailure) -> URL {
    var inputs = "\(compiler)\npackage \(packageName)\nmodule \(module.name)\n"
    for dependency in dependencies { inputs += "uses \(dependency.lastPathComponent)\n" }
    for source in module.sources {
      guard let data = FileManager.default.contents(atPath: source.path) else {
        throw BuildFailure("could not read \(relative(source.path)), a source of \(module.name)")
      }
      inputs += "\(relative(source.path)) \(Self.hash(data))\n"
    }
    let name = "\(module.name)-\(Self.hash(Data(inputs.utf8)))"
    let target = kitFolder.appendingPathComponent(name)
    let inputsFile = "inputs"
    func isBuilt() -> Bool {
      let stamp = target.appendingPathComponent(inputsFile)
      return (try? String(contentsOf: stamp, encoding: .utf8)) == inputs
    }
    if isBuilt() { return target }
    // A folder of that name that is not a finished build (none is ever left so, but a person
    // may have emptied it) is put aside for this build.
    try? FileManager.default.removeItem(at: target)
    let temporary = kitFolder.appendingPathComponent(".building-\(name)-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: temporary) }
    do {
      try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    } catch {
      throw BuildFailure("could not write to \(kitFolder.path): \(error)")
    }
    let arguments =
      [
        "/usr/bin/env", "swiftc", "-parse-as-library", "-Onone", "-g",
        "-module-name", module.name, "-package-name", packageName, "-swift-version", "6",
        "-emit-module", "-emit-module-path",
        temporary.appendingPathComponent("\(module.name).swiftmodule").path,
        "-emit-library", "-static",
        "-o", temporary.appendingPathComponent("lib\(module.name).a").path,
      ] + searchFolders.flatMap { ["-I", $0.path] } + module.sources.map(\.path)
    let failed = "the workshop's own code did not compile (\(module.name), not your exercise)"
    guard let result = try Self.run(arguments, tool: "swiftc", limit: Self.kitModuleLimit) else {
      throw BuildFailure(
        "\(failed): swiftc did not finish within \(IsolatedGrading.seconds(Self.kitModuleLimit))")
    }
    guard result.ending == .exited(0) else {
      let first = Self.errors(in: relative(result.output + result.errors)).split(separator: "\n")
        .first
      throw BuildFailure("\(failed): \(first ?? "swiftc ended with \(result.ending)")")
    }
    do {
      try inputs.write(
        to: temporary.appendingPathComponent(inputsFile), atomically: true, encoding: .utf8)
      try FileManager.default.moveItem(at: temporary, to: target)
    } catch {
      // Another workshop renamed the same build into place first: take it.
      guard isBuilt() else { throw BuildFailure("could not write to \(kitFolder.path): \(error)") }
    }
    removeOlderBuilds(of: module.name, keeping: name, in: kitFolder)
    return target
  }

  /// Removes the other builds of `module` in `kitFolder`, and what interrupted builds left
  /// there an hour ago or more.
  private func removeOlderBuilds(of module: String, keeping name: String, in kitFolder: URL) {
    let hourAgo = Date().addingTimeInterval(-3600)
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: kitFolder.path)) ?? [] {
      let url = kitFolder.appendingPathComponent(entry)
      let older = entry != name && entry.hasPrefix(module + "-")
      let date = try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate]
      let abandoned =
        entry.hasPrefix(".building-") && ((date as? Date).map { $0 < hourAgo } ?? false)
      if older || abandoned { try? FileManager.default.removeItem(at: url) }
    }
  }

  /// The 64-bit FNV-1a hash of `data`, in hexadecimal: a name for what it is made of.
  private static func hash(_ data: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  // MARK: - Running the compiler

  /// Runs `arguments`, the command `tool`, in a process group of its own, at most `limit`
  /// seconds; an interrupt of the workshop kills it.
  ///
  /// - Returns: How it ended, all it printed on its standard output (`swift package describe`'s
  ///   JSON) and the end of its standard error; `nil` when it ran out of time, and was killed
  ///   with everything it started.
  /// - Throws: ``BuildFailure`` when it could not be started.
  private static func run(_ arguments: [String], tool: String, limit: Double)
    throws(BuildFailure) -> (ending: ChildProcess.Ending, output: String, errors: String)?
  {
    let process: ChildProcess
    do {
      process = try ChildProcess(
        arguments, environment: ProcessInfo.processInfo.environment, outputs: [[1], [2]])
    } catch {
      throw BuildFailure("could not run \(tool): \(error)")
    }
    // What an interrupt kills (the workshop's Ctrl-C handler), as it kills a grading child.
    IsolatedGrading.noteRunning(process.pid)
    defer {
      process.killGroup()
      IsolatedGrading.noteRunning(nil)
    }
    let deadline = Date().addingTimeInterval(limit)
    var printed = Data()
    guard
      let kept = process.outputs(each: { printed.append($0[0]) }, stopIf: { Date() > deadline }),
      let ending = process.ending
    else { return nil }
    return (ending, String(decoding: printed, as: UTF8.self), kept[1].text)
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
