import Foundation
import Synchronization

/// Builds one exercise's grading child with SwiftPM: the exercises are a package of their own,
/// `Exercises/Package.swift`, one target per exercise, each with a grading child,
/// `Exercises/Grading/GradeNN/main.swift`, that links it to the workshop's checks. It runs
/// `swift build --product GradeNN` there, SwiftPM's documented command, which builds only that
/// exercise and what it depends on, so that an exercise that does not compile stops only its own
/// grading, never another's, the package's build, `swift test` or `workshop hint`. SwiftPM
/// builds the workshop's own modules too, the first time, in the exercises' build folder, and
/// reuses what has not changed after.
package struct ExerciseBuilder: Sendable {
  /// The package's root, which holds `Package.swift` and `Exercises/`.
  package var root: URL
  /// The exercises' package: `Exercises/` in the root.
  package var exercises: URL

  /// The longest one build may take, in seconds. It only stops a hang: the first grade builds
  /// the workshop's modules too, 12 to 15 s on a quiet two-core Linux machine and more beside
  /// a `swift test`; a later one builds one exercise and links its child, under a second.
  package static let buildLimit = 900.0

  /// A builder for the package at `root`, whose exercises are in `exercises` (`Exercises/` in
  /// it by default).
  package init(root: URL, exercises: URL? = nil) {
    self.root = root
    self.exercises = exercises ?? root.appendingPathComponent("Exercises")
  }

  /// A builder for the package that holds `executable` (the workshop's own, which `swift build`
  /// puts in the package), else the package at or above `currentDirectory` (where `swift run
  /// workshop` is typed; an Xcode build puts its products outside the package); `nil` when
  /// neither is in a package whose `Exercises` folder is a package too.
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
        let exercises = folder.appendingPathComponent("Exercises/Package.swift").path
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

  /// The module name of an exercise's code, its target in `Exercises/Package.swift`:
  /// `Exercise03`.
  package static func moduleName(of exercise: Exercise) -> String {
    "Exercise" + twoDigits(exercise.number)
  }

  /// The product of an exercise's grading child in `Exercises/Package.swift`, and its folder in
  /// `Exercises/Grading/`: `Grade03`.
  package static func childName(of exercise: Exercise) -> String {
    "Grade" + twoDigits(exercise.number)
  }

  private static func twoDigits(_ number: Int) -> String {
    (number < 10 ? "0" : "") + String(number)
  }

  /// What a build gave: the grading child's path, or the errors.
  package enum Product: Sendable, Equatable {
    case child(String)
    /// The compiler's errors, paths relative to the package's root; or, in one line, why
    /// SwiftPM could not build.
    case errors(String)
  }

  /// Whether SwiftPM has built in the exercises' package before: if not, the next build also
  /// builds the workshop's own code, which takes longer.
  package var hasBuilt: Bool {
    FileManager.default.fileExists(atPath: exercises.appendingPathComponent(".build").path)
  }

  /// Builds `exercise`'s grading child with `swift build`, and says where it is.
  package func build(_ exercise: Exercise) -> Product {
    do throws(BuildFailure) {
      return .child(try buildChild(of: exercise))
    } catch {
      return .errors(error.description)
    }
  }

  /// The SwiftPM arguments every build of the exercises' package takes.
  private var packageArguments: [String] {
    ["/usr/bin/env", "swift", "build", "--package-path", exercises.path]
  }

  /// Builds as ``build(_:)`` does, and returns the child's path.
  private func buildChild(of exercise: Exercise) throws(BuildFailure) -> String {
    let name = Self.childName(of: exercise)
    // One build of a package at a time in this process: SwiftPM would make the others wait
    // for its lock.
    let result = try Self.lock(for: exercises).mutex.withLock { _ throws(BuildFailure) in
      try Self.run(
        packageArguments + ["--product", name], tool: "swift build", limit: Self.buildLimit)
    }
    guard let result else {
      throw BuildFailure(
        "swift build did not finish within \(IsolatedGrading.seconds(Self.buildLimit))")
    }
    guard result.ending == .exited(0) else {
      throw BuildFailure(Self.errors(in: relative(result.output + result.errors)))
    }
    let child = try binaryFolder().appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: child) else {
      throw BuildFailure("swift build made no \(relative(child))")
    }
    return child
  }

  /// Serializes the builds of one package in this process.
  private final class PackageLock: Sendable {
    let mutex = Mutex(())
  }

  /// The lock of each package built in this process, by its folder.
  private static let locks = Mutex<[String: PackageLock]>([:])

  /// The lock of the package in `folder`.
  private static func lock(for folder: URL) -> PackageLock {
    locks.withLock { locks in
      if let lock = locks[folder.path] { return lock }
      let lock = PackageLock()
      locks[folder.path] = lock
      return lock
    }
  }

  /// Where SwiftPM puts the exercises' products, as `swift build --show-bin-path` says, asked
  /// once a process.
  private func binaryFolder() throws(BuildFailure) -> URL {
    if let known = Self.binaryFolders.withLock({ $0[exercises.path] }) { return known }
    let arguments = packageArguments + ["--show-bin-path"]
    guard let result = try Self.run(arguments, tool: "swift build", limit: Self.buildLimit),
      result.ending == .exited(0),
      let line = result.output.split(separator: "\n").last.map(String.init), line.hasPrefix("/")
    else {
      throw BuildFailure("swift build --show-bin-path did not say where the products are")
    }
    let folder = URL(fileURLWithPath: line)
    Self.binaryFolders.withLock { $0[exercises.path] = folder }
    return folder
  }

  /// What ``binaryFolder()`` learned, by exercises' package.
  private static let binaryFolders = Mutex<[String: URL]>([:])

  /// Why a build failed: the compiler's errors, or, in one line, why SwiftPM could not build.
  package struct BuildFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
  }

  // MARK: - Running SwiftPM

  /// Runs `arguments`, the command `tool`, in a process group of its own, at most `limit`
  /// seconds; an interrupt of the workshop kills it.
  ///
  /// - Returns: How it ended, all it printed on its standard output and the end of its standard
  ///   error; `nil` when it ran out of time, and was killed with everything it started.
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
  /// the place they are about (`Exercises/03-keys-per-owner/Observable.swift:82:19: error: …`),
  /// and SwiftPM's own (`error: …`); all of it when there are none.
  package static func errors(in output: String) -> String {
    var lines: [String] = []
    for line in output.split(separator: "\n") {
      guard let first = line.first, !first.isWhitespace, first != "|",
        line.contains(": error: ") || line.hasPrefix("error: "), !lines.contains(String(line)),
        // What SwiftPM adds after the compiler's errors, which says nothing of the code.
        !line.contains("command failed with exit code")
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
