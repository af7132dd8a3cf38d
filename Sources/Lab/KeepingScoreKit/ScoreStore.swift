import CommandSupport
import Foundation
import Support

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
/// played. Each save changes only the groups its game played, in the file as it is then, so a
/// game that ended since this one loaded keeps its score. A file with an entry this app would
/// not write (a key that is not a group number as it writes them, a score that cannot be) is
/// damaged, as a whole. The file is read, replaced and moved aside as ``SharedFile`` does it:
/// in one step, never overwritten when it cannot be used, and through a symbolic link.
package struct ScoreStore: Sendable {
  /// What loading found.
  package enum Loaded: Equatable, Sendable {
    /// No score was saved yet.
    case nothing
    /// The scores saved by earlier runs.
    case scores(Scores)
    /// The file could not be used at all, and was moved to `setAside`, where it is kept as it
    /// was; the message says why, and names the file.
    case setAside(String, to: URL)
    /// The file could not be used, nor moved aside: it is left as it is, and no score will be
    /// saved over it. The message says why, and names the file.
    case unusable(String)
  }

  /// Why the store left what has the save file's name as it is, or could not reach it: its
  /// folder cannot be made.
  package typealias Refusal = SharedFile.Refusal

  /// The save file, read and replaced as ``SharedFile`` does it.
  private let file: SharedFile

  /// The save file, as the user names it: it may be a symbolic link.
  package var url: URL { file.url }

  /// A store that saves to `url`, whose folder is created when a score is first saved. `now`
  /// names a file set aside: `keeping-score.json.unreadable-` and the time in UTC, as
  /// `20261123T195833Z`.
  package init(url: URL, now: @escaping @Sendable () -> Date = { Date() }) {
    file = SharedFile(url: url, holding: "the saved scores", now: now)
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

  // MARK: - Loading

  /// Reads the saved scores.
  ///
  /// Never throws. A file that cannot be read or decoded is moved aside before anything is
  /// written, and reported as ``Loaded/setAside(_:to:)``.
  package func load() -> Loaded {
    let contents = read()
    guard case .unreadable(let problem) = contents else { return loaded(contents) }
    do {
      return .setAside(problem, to: try file.setAside())
    } catch {
      // Another game may have set it aside, and saved a good one, in the meantime.
      let now = read()
      if case .unreadable = now {} else { return loaded(now) }
      let reason = CommandSupport.reason(of: error)
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
    case .value(let scores):
      return .scores(scores)
    }
  }

  // MARK: - Saving

  /// Saves the scores of the groups in `changes`, keeping every other group's saved score.
  ///
  /// It reads the file as it is now, which other games may have changed since this one loaded
  /// it, and replaces the entries of the groups in `changes`. A file that cannot be used is
  /// first moved aside, and the returned message says where (else it returns `nil`).
  ///
  /// - Throws: ``Refusal`` if something other than a file, such as a folder, has the file's
  ///   name, or the folder cannot be made; the file system's error if the file cannot be
  ///   written.
  @discardableResult
  package func save(_ changes: Scores) throws -> String? {
    try file.makeFolder()
    var scores = Scores()
    var notice: String?
    switch read() {
    case .missing:
      break
    case .notAFile:
      throw Refusal("\(url.path) is not a file, and no score is saved there")
    case .unreadable(let problem):
      notice = "\(problem); it is kept as \(try file.setAside().path)"
    case .value(let saved):
      scores = saved
    }
    scores.byGroup.merge(changes.byGroup) { $1 }
    let saved = File(
      scores: Dictionary(
        uniqueKeysWithValues: scores.byGroup.map { ($0.key.description, $0.value) }))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try file.write(try encoder.encode(saved))
    return notice
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
    switch read() {
    case .missing:
      return nil
    case .notAFile:
      throw Refusal(
        "not deleting \(url.path): it is not a regular file (a folder?), so this app did not "
          + "write it")
    case .unreadable(let problem):
      throw Refusal(
        "not deleting \(url.path): \(problem), so it may not be a file this app wrote; move it "
          + "away yourself if you want it gone")
    case .value:
      let target = try file.target()
      // unlink(2) removes one name, never a folder and what it holds.
      guard unlink(target.path) == 0 else {
        throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: target.path])
      }
      return target
    }
  }

  // MARK: - The file

  /// The file's shape.
  private struct File: Codable {
    var scores: [String: Score]
  }

  /// What is at the file's place.
  private typealias Contents = SharedFile.Contents<Scores>

  private func read() -> Contents {
    file.read { data in
      guard let saved = try? JSONDecoder().decode(File.self, from: data) else { return nil }
      var scores = Scores()
      for (key, score) in saved.scores {
        // A key other than a number as this app writes it ("01", "-0", "+1") is damage too:
        // read as a number, it could silently replace another group's entry.
        guard let number = TutorialChapter.Number(key), score.isPlausible else { return nil }
        scores[group: number] = score
      }
      return scores
    }
  }
}
