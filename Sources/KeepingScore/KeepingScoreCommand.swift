/// The `keeping-score` command, as a function from arguments and input to output and an exit
/// status, so tests can run it.
public enum KeepingScoreCommand {
  /// The text of `--help`.
  public static let help = """
    OVERVIEW: A short quiz whose score is observed: one observer shows the latest score on the
    question groups screen, another saves it, so the next run shows it again.

    USAGE: keeping-score [--reset]

    Answers are read from standard input, one letter a line. The score is saved to
    $XDG_CONFIG_HOME/observer-evolution/keeping-score.json, or to
    ~/.config/observer-evolution/keeping-score.json when XDG_CONFIG_HOME is not set.

    OPTIONS:
      --reset     delete the saved score, then exit
      -h, --help  print this help

    """

  /// Runs the command.
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments, without the program name.
  ///   - environment: The process environment, for the config folder.
  ///   - readLine: Returns the next line of standard input, or `nil` at its end.
  ///   - print: Writes a line to standard output.
  ///   - warn: Writes a line to standard error.
  /// - Returns: The exit status: 0, 1 if the saved score could not be deleted, 64 on bad usage.
  public static func run(
    _ arguments: [String], environment: [String: String],
    readLine: @escaping () -> String?, print: @escaping (String) -> Void,
    warn: @escaping (String) -> Void
  ) -> Int32 {
    let store = ScoreStore.inConfigFolder(environment: environment)
    switch arguments {
    case []:
      Game(store: store, readLine: readLine, print: print) { warn("keeping-score: \($0)") }.play()
      return 0
    case ["--help"], ["-h"]:
      print(String(help.dropLast()))
      return 0
    case ["--reset"]:
      do {
        let deleted = try store.reset()
        print(
          deleted ? "Deleted the saved score at \(store.url.path)." : "No saved score to delete.")
        return 0
      } catch {
        warn("keeping-score: cannot delete the saved score at \(store.url.path)")
        return 1
      }
    default:
      let unknown = arguments.first { !["--reset", "--help", "-h"].contains($0) }
      let problem = unknown.map { "unknown argument '\($0)'" } ?? "give one option at most"
      warn("keeping-score: \(problem) (valid: --reset, --help); see 'keeping-score --help'")
      return 64
    }
  }
}
