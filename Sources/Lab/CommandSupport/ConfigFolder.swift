import Foundation

/// The folder where this package's commands keep what they remember between runs:
/// `$XDG_CONFIG_HOME/observer-evolution/` when that is set to an absolute path, else
/// `~/.config/observer-evolution/`.
///
/// The home folder is `$HOME`, else `NSHomeDirectory()`, which every platform has (Apple's
/// documentation lists `FileManager.homeDirectoryForCurrentUser` for macOS only). It lives here,
/// with the commands, not in `Support`: the libraries people depend on need no home folder.
/// The folder may not exist yet.
package func configFolder(environment: [String: String]) -> URL {
  let base: URL
  if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
    base = URL(fileURLWithPath: xdg, isDirectory: true)
  } else {
    let home =
      environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
    base = home.appendingPathComponent(".config", isDirectory: true)
  }
  return base.appendingPathComponent("observer-evolution", isDirectory: true)
}
