import Foundation

/// The folder where this package's commands keep what they remember between runs:
/// `$XDG_CONFIG_HOME/observer-evolution/` when that is set to an absolute path, else
/// `~/.config/observer-evolution/`.
///
/// - Parameter environment: The process environment.
/// - Returns: The folder; it may not exist yet.
package func configFolder(environment: [String: String]) -> URL {
  let base: URL
  if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
    base = URL(fileURLWithPath: xdg, isDirectory: true)
  } else {
    let home =
      environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? FileManager.default.homeDirectoryForCurrentUser
    base = home.appendingPathComponent(".config", isDirectory: true)
  }
  return base.appendingPathComponent("observer-evolution", isDirectory: true)
}
