import CommandSupport
import Foundation

/// The file where the latest score of each question group is saved between runs.
///
/// The file is JSON: `{"scores": {"3": {"correct": 4, "total": 5}}}`, one entry per group
/// played.
package struct ScoreStore: Sendable {
  /// What loading found.
  package enum Loaded: Equatable, Sendable {
    /// No score was saved yet.
    case nothing
    /// The scores saved by earlier runs. `damaged` names the file and the groups whose entries
    /// could not be used, and were left out; it is `nil` when every entry was fine.
    case scores(Scores, damaged: String?)
    /// The file exists but could not be used at all; the message says why, and names the file.
    case unusable(String)
  }

  /// The save file.
  package let url: URL

  /// Creates a store that saves to `url`.
  ///
  /// - Parameter url: The save file; its folder is created when a score is first saved.
  package init(url: URL) {
    self.url = url
  }

  /// The store in the user's config folder: `$XDG_CONFIG_HOME/observer-evolution/` when that
  /// is set to an absolute path, else `~/.config/observer-evolution/`.
  ///
  /// - Parameter environment: The process environment.
  /// - Returns: A store whose file is `keeping-score.json` in that folder.
  package static func inConfigFolder(environment: [String: String]) -> ScoreStore {
    ScoreStore(
      url: configFolder(environment: environment).appendingPathComponent("keeping-score.json"))
  }

  /// The file's shape: each group's entry decoded on its own, so that one damaged entry loses
  /// nothing else.
  private struct File: Codable {
    var scores: [String: Entry]
  }

  /// One group's entry, as found in the file: a score, or something that is not one.
  private enum Entry: Codable {
    case score(Score)
    case damaged

    init(from decoder: any Decoder) throws {
      if let score = try? Score(from: decoder), score.isPlausible {
        self = .score(score)
      } else {
        self = .damaged
      }
    }

    func encode(to encoder: any Encoder) throws {
      if case .score(let score) = self { try score.encode(to: encoder) }
    }
  }

  /// Reads the saved scores. Never throws: a damaged or unreadable file is reported as
  /// ``Loaded/unusable(_:)``, and damaged entries in a readable file are left out and named, so
  /// the app can go on with the rest.
  ///
  /// - Returns: What the file holds.
  package func load() -> Loaded {
    guard FileManager.default.fileExists(atPath: url.path) else { return .nothing }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      return .unusable("cannot read the saved scores at \(url.path)")
    }
    guard let file = try? JSONDecoder().decode(File.self, from: data) else {
      return .unusable("the saved scores at \(url.path) are damaged")
    }
    var scores = Scores()
    var damaged: [String] = []
    for (key, entry) in file.scores {
      if let number = Int(key), case .score(let score) = entry {
        scores[group: number] = score
      } else {
        damaged.append(key)
      }
    }
    let message =
      damaged.isEmpty
      ? nil
      : "the saved scores at \(url.path) have damaged entries for "
        + "\(damaged.sorted().map { "'\($0)'" }.joined(separator: ", "))"
    return .scores(scores, damaged: message)
  }

  /// Writes `scores`, creating the folder if needed.
  ///
  /// - Parameter scores: The scores to save.
  /// - Throws: The file system's error if the folder or file cannot be written.
  package func save(_ scores: Scores) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let file = File(
      scores: Dictionary(
        uniqueKeysWithValues: scores.byGroup.map { (String($0.key), Entry.score($0.value)) }))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try encoder.encode(file).write(to: url, options: .atomic)
  }

  /// Deletes the saved scores.
  ///
  /// - Returns: Whether there were any to delete.
  /// - Throws: The file system's error if the file exists but cannot be removed.
  package func reset() throws -> Bool {
    guard FileManager.default.fileExists(atPath: url.path) else { return false }
    try FileManager.default.removeItem(at: url)
    return true
  }
}
