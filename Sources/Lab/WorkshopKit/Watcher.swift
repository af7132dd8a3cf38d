import CommandSupport
import Foundation

/// `workshop --watch`: regrades whenever a file under `Exercises/` changes, until interrupted.
///
/// It polls the folder twice a second (no file-system events are needed, so it works the same
/// on Linux and macOS), and on a change runs `swift run --quiet workshop [N]`, which rebuilds
/// the learner's code and grades it; a change saved while that runs stops it, and everything
/// it started, and starts again. When the build fails, it says which exercises the compiler's
/// errors are in.
package enum Watcher {
  /// Every regular file under `folder`, by path, with its modification date and size: what a
  /// save changes. Hidden files and folders are left out: SwiftPM builds the exercises in
  /// `Exercises/.build`, and a grade must not look like a change.
  package static func snapshot(of folder: URL) -> [String: String] {
    var files: [String: String] = [:]
    let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
    guard
      let walker = FileManager.default.enumerator(
        at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    else { return files }
    for case let url as URL in walker {
      guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
      else { continue }
      let stamp = values.contentModificationDate?.timeIntervalSinceReferenceDate ?? 0
      files[String(url.path.dropFirst(folder.path.count))] = "\(stamp) \(values.fileSize ?? 0)"
    }
    return files
  }

  /// The exercise folders that compiler output names, in order: `Exercises/03-keys-per-owner`.
  package static func exercisesNamed(in output: String) -> [String] {
    var found: [String] = []
    for line in output.split(separator: "\n") where line.contains(": error:") {
      guard let range = line.range(of: "Exercises/") else { continue }
      let rest = line[range.upperBound...]
      let folder = "Exercises/" + rest.prefix { $0 != "/" }
      if !found.contains(folder) { found.append(folder) }
    }
    return found
  }

  /// Watches `Exercises/` in the current folder and regrades exercise `number` (all of them
  /// when `nil`) on every change, for ever: it returns only when there is no `Exercises/` here.
  package static func run(_ number: Int?, io: CommandIO) -> ExitCode {
    let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .appendingPathComponent("Exercises", isDirectory: true)
    guard FileManager.default.fileExists(atPath: folder.path) else {
      return io.usageError(
        "workshop",
        "no Exercises folder in \(FileManager.default.currentDirectoryPath) (valid: run it from "
          + "the package's folder, where Package.swift is)")
    }
    watch(
      folder, io: io, rounds: nil, regrade: { regrade(number, io: io, abandonIf: $0) },
      pause: { Thread.sleep(forTimeInterval: 0.5) })
    return .success
  }

  /// The loop: regrades once at the start and after every change of `folder`'s files. A change
  /// made while a grade is under way abandons that grade, and the next one starts at once.
  /// `regrade` asks the closure it is given, now and then, whether a file has changed since,
  /// and returns `true` when it abandoned the grade for that; `rounds` is `nil` for ever.
  package static func watch(
    _ folder: URL, io: CommandIO, rounds: Int?, regrade: (_ changed: () -> Bool) -> Bool,
    pause: () -> Void
  ) {
    var seen: [String: String]?
    var round = 0
    while rounds.map({ round < $0 }) ?? true {
      round += 1
      let now = snapshot(of: folder)
      if now != seen {
        if let seen {
          let changed = Set(now.keys).union(seen.keys).filter { now[$0] != seen[$0] }.sorted()
          io.print("")
          io.print("Changed: " + changed.map { "Exercises" + $0 }.joined(separator: ", "))
        }
        seen = now
        if regrade({ snapshot(of: folder) != now }) {
          io.print("")
          io.print("A file changed while grading: that grade is abandoned.")
          continue
        }
        io.print("Watching Exercises/ for changes; press Ctrl-C to stop.")
      }
      pause()
    }
  }

  /// Rebuilds and grades through `swift run`, printing what it prints as it comes; stops it,
  /// and everything it started, as soon as `changed()` says a file changed.
  private static func regrade(_ number: Int?, io: CommandIO, abandonIf changed: () -> Bool)
    -> Bool
  {
    let child: ChildProcess
    do {
      child = try ChildProcess(
        ["/usr/bin/env", "swift", "run", "--quiet", "workshop"] + (number.map { ["\($0)"] } ?? []),
        environment: ProcessInfo.processInfo.environment, outputs: [[1, 2]])
    } catch {
      io.printError("workshop: could not run swift: \(error)")
      return false
    }
    // Ctrl-C reaches the watcher's group only: the interrupt handler kills this one too.
    IsolatedGrading.noteRunning(child.pid)
    defer {
      child.killGroup()
      IsolatedGrading.noteRunning(nil)
    }
    var lastCheck = Date()
    let output = child.output(
      each: { if !$0.isEmpty { io.write(String(decoding: $0, as: UTF8.self)) } },
      stopIf: {
        guard Date().timeIntervalSince(lastCheck) > 0.25 else { return false }
        lastCheck = Date()
        return changed()
      })
    guard let kept = output else { return true }
    guard child.ending != .exited(0) else { return false }
    let broken = exercisesNamed(in: kept.text)
    if !broken.isEmpty {
      io.print("")
      io.print(
        "Does not compile: \(broken.joined(separator: ", ")). Fix the error above and save.")
    }
    return false
  }
}
