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
  /// save changes.
  ///
  /// - Parameter folder: The folder to look in.
  /// - Returns: The files' paths, relative to `folder`, and what identifies their contents.
  package static func snapshot(of folder: URL) -> [String: String] {
    var files: [String: String] = [:]
    let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
    guard
      let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys)
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
  ///
  /// - Parameter output: What the build printed.
  /// - Returns: Each exercise folder an error or warning line points into, once.
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

  /// Watches `Exercises/` in the current folder and regrades on every change, for ever.
  ///
  /// - Parameters:
  ///   - number: The exercise to grade, or `nil` for the list of all of them.
  ///   - io: Where to write.
  /// - Returns: ``ExitCode/usage`` when there is no `Exercises/` folder here; otherwise it
  ///   does not return.
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
  ///
  /// - Parameters:
  ///   - folder: What to watch.
  ///   - io: Where to write.
  ///   - rounds: How many polls to make, or `nil` for ever.
  ///   - regrade: Rebuilds and grades, asking the closure it is given, now and then, whether a
  ///     file has changed since; returns `true` when it abandoned the grade for that.
  ///   - pause: Waits between two polls.
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
  ///
  /// - Returns: Whether the grade was abandoned.
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
    // Enough of the end of the build's output to find the compiler's errors in.
    var kept = TailBuffer(capacity: 256 * 1024)
    var lastCheck = Date()
    while child.checkEnding() == nil {
      let chunk = child.read(waiting: 100)[0]
      kept.append(chunk)
      if !chunk.isEmpty { io.write(String(decoding: chunk, as: UTF8.self)) }
      if Date().timeIntervalSince(lastCheck) > 0.25 {
        lastCheck = Date()
        if changed() { return true }
      }
    }
    let rest = child.read(waiting: 0)[0]
    kept.append(rest)
    if !rest.isEmpty { io.write(String(decoding: rest, as: UTF8.self)) }
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
