import Foundation

/// The folder where this package's commands keep what they remember between runs:
/// `$XDG_CONFIG_HOME/observer-evolution/` when that is set to an absolute path, else
/// `~/.config/observer-evolution/`.
///
/// The home folder is `$HOME` when that is an absolute path, else `systemHome`,
/// `NSHomeDirectory()` by default, which every platform has (Apple's documentation lists
/// `FileManager.homeDirectoryForCurrentUser` for macOS only). An empty or relative `$HOME` is
/// never used: it would put the folder under whatever folder the command runs in. When neither
/// is absolute, the folder is under a relative path; ``configFolderProblem(environment:systemHome:)``
/// says so, for a command to refuse before it writes anything. It lives here, with the
/// commands, not in `Support`: the libraries people depend on need no home folder. The folder
/// may not exist yet.
package func configFolder(
  environment: [String: String], systemHome: String = NSHomeDirectory()
) -> URL {
  let base: URL
  if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
    base = URL(fileURLWithPath: xdg, isDirectory: true)
  } else {
    let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? systemHome
    base = URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(".config", isDirectory: true)
  }
  return base.appendingPathComponent("observer-evolution", isDirectory: true)
}

/// Why ``configFolder(environment:systemHome:)`` has no absolute folder to give, as a usage
/// problem with the valid choices; `nil` when it has one.
package func configFolderProblem(
  environment: [String: String], systemHome: String = NSHomeDirectory()
) -> String? {
  if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return nil }
  if let home = environment["HOME"], home.hasPrefix("/") { return nil }
  if systemHome.hasPrefix("/") { return nil }
  return "no home folder to keep its files in: HOME is '\(environment["HOME"] ?? "")' and the "
    + "system's home folder is '\(systemHome)', neither an absolute path (valid: HOME or "
    + "XDG_CONFIG_HOME set to an absolute path)"
}
