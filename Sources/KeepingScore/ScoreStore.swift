import Foundation

/// The file where the latest score is saved between runs.
public struct ScoreStore: Sendable {
  /// What loading found.
  public enum Loaded: Equatable, Sendable {
    /// No score was saved yet.
    case nothing
    /// The score saved by an earlier run.
    case score(Score)
    /// The file exists but could not be used; the message says why, and names the file.
    case unusable(String)
  }

  /// The save file.
  public let url: URL

  /// Creates a store that saves to `url`.
  ///
  /// - Parameter url: The save file; its folder is created when a score is first saved.
  public init(url: URL) {
    self.url = url
  }

  /// The store in the user's config folder: `$XDG_CONFIG_HOME/observer-evolution/` when that
  /// is set to an absolute path, else `~/.config/observer-evolution/`.
  ///
  /// - Parameter environment: The process environment.
  /// - Returns: A store whose file is `keeping-score.json` in that folder.
  public static func inConfigFolder(environment: [String: String]) -> ScoreStore {
    let configFolder: URL
    if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
      configFolder = URL(fileURLWithPath: xdg, isDirectory: true)
    } else {
      let home =
        environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? FileManager.default.homeDirectoryForCurrentUser
      configFolder = home.appendingPathComponent(".config", isDirectory: true)
    }
    return ScoreStore(
      url: configFolder.appendingPathComponent("observer-evolution/keeping-score.json"))
  }

  /// Reads the saved score. Never throws: a damaged or unreadable file is reported as
  /// ``Loaded/unusable(_:)``, so the app can start fresh.
  ///
  /// - Returns: What the file holds.
  public func load() -> Loaded {
    guard FileManager.default.fileExists(atPath: url.path) else { return .nothing }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      return .unusable("cannot read the saved score at \(url.path)")
    }
    guard let score = try? JSONDecoder().decode(Score.self, from: data), score.isPlausible else {
      return .unusable("the saved score at \(url.path) is damaged")
    }
    return .score(score)
  }

  /// Writes `score`, creating the folder if needed.
  ///
  /// - Parameter score: The score to save.
  /// - Throws: The file system's error if the folder or file cannot be written.
  public func save(_ score: Score) throws {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try encoder.encode(score).write(to: url, options: .atomic)
  }

  /// Deletes the saved score.
  ///
  /// - Returns: Whether there was one to delete.
  /// - Throws: The file system's error if the file exists but cannot be removed.
  public func reset() throws -> Bool {
    guard FileManager.default.fileExists(atPath: url.path) else { return false }
    try FileManager.default.removeItem(at: url)
    return true
  }
}
