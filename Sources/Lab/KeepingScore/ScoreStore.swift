import CommandSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file where the latest score of each question group is saved between runs.
///
/// The file is JSON: `{"scores": {"3": {"correct": 4, "total": 5}}}`, one entry per group
/// played. Several games may end at once, in several processes: each save takes a lock, reads
/// the file as it is then, changes only the groups its game played, and replaces the file in
/// one step, so no game's score is lost. A file that cannot be used is never overwritten: it is
/// first moved aside, under a name that says so. A symbolic link at ``url`` is followed: the
/// file it points to is read and replaced, and the link stays.
package struct ScoreStore: Sendable {
  /// What loading found.
  package enum Loaded: Equatable, Sendable {
    /// No score was saved yet.
    case nothing
    /// The scores saved by earlier runs. `damaged` names the file and the groups whose entries
    /// could not be used, and were left out; it is `nil` when every entry was fine.
    case scores(Scores, damaged: String?)
    /// The file could not be used at all, and was moved to `setAside`, where it is kept as it
    /// was; the message says why, and names the file.
    case setAside(String, to: URL)
    /// The file could not be used, nor moved aside: it is left as it is, and no score will be
    /// saved over it. The message says why, and names the file.
    case unusable(String)
  }

  /// Why the store left what has the save file's name as it is, or could not reach it: its
  /// folder or its lock file cannot be made.
  package struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is there, and what was not done to it.
    package var description: String
  }

  /// The save file, as the user names it: it may be a symbolic link.
  package let url: URL
  private let now: @Sendable () -> Date

  /// A store that saves to `url`, whose folder is created when a score is first saved. `now`
  /// names a file set aside: `keeping-score.json.unreadable-` and the time in UTC, as
  /// `20261123T195833Z`.
  package init(url: URL, now: @escaping @Sendable () -> Date = { Date() }) {
    self.url = url
    self.now = now
  }

  /// The store of `keeping-score.json` in the user's config folder:
  /// `$XDG_CONFIG_HOME/observer-evolution/` when that is set to an absolute path, else
  /// `~/.config/observer-evolution/`, where `~` is `$HOME` if absolute, else `systemHome`.
  package static func inConfigFolder(
    environment: [String: String], systemHome: String = NSHomeDirectory(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) -> ScoreStore {
    ScoreStore(
      url: configFolder(environment: environment, systemHome: systemHome)
        .appendingPathComponent("keeping-score.json"),
      now: now)
  }

  /// The lock file, beside ``url``: every process that saves holds it while it reads and
  /// replaces the save file. It is never deleted, so that two processes never lock two files.
  package var lockURL: URL { url.appendingPathExtension("lock") }

  // MARK: - Loading

  /// Reads the saved scores.
  ///
  /// Never throws. A file that cannot be read or decoded at all is moved aside under the lock
  /// (unless another process did so first) before anything is written, and reported as
  /// ``Loaded/setAside(_:to:)``; damaged entries in a readable file are left out and named, so
  /// the app can go on with the rest.
  package func load() -> Loaded {
    let contents = read()
    guard case .unreadable(let problem) = contents else { return loaded(contents) }
    do {
      return try withLock {
        // Looked at again under the lock: another game may have set it aside meanwhile.
        let contents = read()
        guard case .unreadable(let problem) = contents else { return loaded(contents) }
        return .setAside(problem, to: try setAside())
      }
    } catch {
      let reason = Self.reason(of: error)
      return .unusable(
        "\(problem), and cannot be moved aside (\(reason)): it is left as it is, and no score "
          + "is saved over it")
    }
  }

  private func loaded(_ contents: Contents) -> Loaded {
    switch contents {
    case .missing:
      return .nothing
    case .notAFile:
      return .unusable(
        "\(url.path) is not a file: it is left as it is, and no score is saved there")
    case .unreadable(let problem):
      return .unusable(problem)
    case .scores(let scores, let damaged):
      let message =
        damaged.isEmpty
        ? nil
        : "the saved scores at \(url.path) have damaged entries for "
          + "\(damaged.sorted().map { "'\($0)'" }.joined(separator: ", "))"
      return .scores(scores, damaged: message)
    }
  }

  // MARK: - Saving

  /// Saves the scores of the groups in `changes`, keeping every other group's saved score.
  ///
  /// Under the lock, it reads the file as it is now, which other games may have changed since
  /// this one loaded it, replaces the entries of the groups in `changes`, and writes the file
  /// to a new name beside it, then renames that over the old one. A file that cannot be used,
  /// or has damaged entries, is first moved aside, and the returned message says where (else
  /// it returns `nil`).
  ///
  /// - Throws: ``Refusal`` if something other than a file, such as a folder, has the file's
  ///   name, or the folder or the lock file cannot be made; the file system's error if the file
  ///   cannot be written.
  ///
  /// When `damageReported`, the damaged entries were already named when the file was loaded,
  /// with what happens to the file: setting it aside returns no second message.
  @discardableResult
  package func save(_ changes: Scores, damageReported: Bool = false) throws -> String? {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      // Said with the folder's name: "File exists" alone would not say which file.
      throw Refusal(
        description: "cannot create the folder \(folder.path): \(CommandSupport.reason(of: error))")
    }
    return try withLock {
      var scores = Scores()
      var notice: String?
      switch read() {
      case .missing:
        break
      case .notAFile:
        throw Refusal(description: "\(url.path) is not a file, and no score is saved there")
      case .unreadable(let problem):
        notice = "\(problem); it is kept as \(try setAside().path)"
      case .scores(let saved, let damaged):
        scores = saved
        if !damaged.isEmpty {
          let aside = try setAside()
          notice =
            damageReported
            ? nil
            : "the saved scores at \(url.path) had damaged entries; the file as it was is kept "
              + "as \(aside.path)"
        }
      }
      scores.byGroup.merge(changes.byGroup) { $1 }
      let file = File(
        scores: Dictionary(uniqueKeysWithValues: scores.byGroup.map { (String($0.key), $0.value) }))
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      try encoder.encode(file).write(to: try target(), options: .atomic)
      return notice
    }
  }

  // MARK: - Resetting

  /// Deletes the saved scores, if the file is one this app wrote.
  ///
  /// Only a regular file that holds saved scores is deleted, never a folder, a device or a file
  /// of other contents that has its name. Through a symbolic link, the file it points to is
  /// deleted, and the link stays, so the next save writes through it again.
  ///
  /// - Returns: The file deleted, or `nil` if there was none.
  /// - Throws: ``Refusal`` when something other than saved scores has the file's name;
  ///   the file system's error when the file cannot be deleted.
  package func reset() throws -> URL? {
    guard read() != .missing else { return nil }
    return try withLock {
      switch read() {
      case .missing:
        return nil
      case .notAFile:
        throw Refusal(
          description: "not deleting \(url.path): it is not a regular file (a folder?), so "
            + "this app did not write it")
      case .unreadable(let problem):
        throw Refusal(
          description: "not deleting \(url.path): \(problem), so it may not be a file this app "
            + "wrote; move it away yourself if you want it gone")
      case .scores:
        let target = try target()
        // unlink(2) removes one name, never a folder and what it holds.
        guard unlink(target.path) == 0 else {
          throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: target.path])
        }
        return target
      }
    }
  }

  // MARK: - The file

  /// The file's shape: written with scores, read with each group's ``Entry`` decoded on its
  /// own, so that one damaged entry loses nothing else.
  private struct File<Entry: Codable>: Codable {
    var scores: [String: Entry]
  }

  /// One group's entry, as read: its score, or `nil` for something that is not one.
  private struct Entry: Codable {
    var score: Score?

    init(from decoder: any Decoder) throws {
      score = (try? Score(from: decoder)).flatMap { $0.isPlausible ? $0 : nil }
    }
  }

  /// What is at the file's place.
  private enum Contents: Equatable {
    /// Nothing: no file, or a link to no file.
    case missing
    /// Something other than a regular file, such as a folder.
    case notAFile
    /// A file that cannot be read or decoded; the message says which, and names it.
    case unreadable(String)
    /// Scores, and the keys of the entries that could not be used.
    case scores(Scores, damaged: [String])
  }

  private func read() -> Contents {
    guard let target = try? target(),
      let attributes = try? FileManager.default.attributesOfItem(atPath: target.path)
    else { return .missing }
    // Never opened unless it is a regular file: a named pipe would block the read.
    guard attributes[.type] as? FileAttributeType == .typeRegular else { return .notAFile }
    guard let data = try? Data(contentsOf: target) else {
      return .unreadable("cannot read the saved scores at \(url.path)")
    }
    guard let file = try? JSONDecoder().decode(File<Entry>.self, from: data) else {
      return .unreadable("the saved scores at \(url.path) are damaged")
    }
    var scores = Scores()
    var damaged: [String] = []
    for (key, entry) in file.scores {
      // A key other than a number as this app writes it ("01", "-0", "+1") is damaged too:
      // read as a number, it could silently replace another group's entry.
      if let number = Int(key), String(number) == key, let score = entry.score {
        scores[group: number] = score
      } else {
        damaged.append(key)
      }
    }
    return .scores(scores, damaged: damaged)
  }

  /// The file that ``url`` names once symbolic links are followed: the one to read and
  /// replace. It may not exist.
  private func target() throws -> URL {
    var current = url
    for _ in 0..<32 {
      guard
        let destination = try? FileManager.default.destinationOfSymbolicLink(
          atPath: current.path)
      else { return current }
      current =
        destination.hasPrefix("/")
        ? URL(fileURLWithPath: destination)
        : current.deletingLastPathComponent().appendingPathComponent(destination)
    }
    throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path])
  }

  /// Moves the file aside, to a name no file has: `keeping-score.json.unreadable-`, the time,
  /// and a number if that name is taken.
  private func setAside() throws -> URL {
    let target = try target()
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
    let time = formatter.string(from: now())
    let base = "\(target.lastPathComponent).unreadable-\(time)"
    var attempt = 1
    var aside = target.deletingLastPathComponent().appendingPathComponent(base)
    // Checked under the lock, and FileManager never moves onto an existing name.
    while (try? FileManager.default.attributesOfItem(atPath: aside.path)) != nil {
      attempt += 1
      aside = target.deletingLastPathComponent().appendingPathComponent("\(base)-\(attempt)")
    }
    try FileManager.default.moveItem(at: target, to: aside)
    return aside
  }

  /// Runs `body` holding the lock file's exclusive lock, which other processes wait for.
  private func withLock<Result>(_ body: () throws -> Result) throws -> Result {
    let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw Refusal(description: "cannot open the lock file \(lockURL.path): \(errnoText)")
    }
    // Closing the descriptor lets the lock go.
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        throw Refusal(description: "cannot lock \(lockURL.path): \(errnoText)")
      }
    }
    return try body()
  }

  /// The system's words for the last error: "Permission denied".
  private var errnoText: String { String(cString: strerror(errno)) }

  /// Why an operation of the store failed, in words, for a message: a ``Refusal``'s own
  /// description, else the system's words for it, never an `NSError` dump.
  package static func reason(of error: any Error) -> String {
    (error as? Refusal)?.description ?? CommandSupport.reason(of: error)
  }
}
