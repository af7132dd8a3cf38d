/// The `keeping-score` command, as a function from arguments and input to output and an exit
/// status, so tests can run it.
public enum KeepingScoreCommand {
  /// The group numbers, as the help and the errors list them.
  private static let groupRange =
    "\(QuestionGroup.all.first!.number) to \(QuestionGroup.all.last!.number)"

  /// The text of `--help`.
  public static let help = """
    OVERVIEW: A self-check per chapter of the tutorial, whose scores are observed: one observer
    shows each group's latest score on the question groups screen, another saves them, so the
    next run shows them again.

    USAGE: keeping-score [<chapter>]
           keeping-score --reset

    ARGUMENTS:
      <chapter>   play the questions of that chapter, \(groupRange); without it, the question
                  groups screen asks which

    Answers are read from standard input, one letter a line. The scores are saved to
    $XDG_CONFIG_HOME/observer-evolution/keeping-score.json, or to
    ~/.config/observer-evolution/keeping-score.json when XDG_CONFIG_HOME is not set.

    OPTIONS:
      --reset     delete the saved scores, then exit
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
  /// - Returns: The exit status: 0, 1 if the saved scores could not be deleted, 64 on bad
  ///   usage.
  public static func run(
    _ arguments: [String], environment: [String: String],
    readLine: @escaping () -> String?, print: @escaping (String) -> Void,
    warn: @escaping (String) -> Void
  ) -> Int32 {
    let store = ScoreStore.inConfigFolder(environment: environment)
    let game = Game(store: store, readLine: readLine, print: print) {
      warn("keeping-score: \($0)")
    }
    switch arguments {
    case []:
      game.chooseAndPlay()
      return 0
    case ["--help"], ["-h"]:
      print(String(help.dropLast()))
      return 0
    case ["--reset"]:
      do {
        let deleted = try store.reset()
        print(
          deleted
            ? "Deleted the saved scores at \(store.url.path)." : "No saved scores to delete.")
        return 0
      } catch {
        warn("keeping-score: cannot delete the saved scores at \(store.url.path)")
        return 1
      }
    case _ where arguments.count == 1 && !arguments[0].hasPrefix("-"):
      let chapter = arguments[0]
      guard let number = Int(chapter), let group = QuestionGroup.numbered(number) else {
        warn(
          "keeping-score: no question group '\(chapter)' (valid: \(groupRange), --reset, "
            + "--help); see 'keeping-score --help'")
        return 64
      }
      game.play(group)
      return 0
    default:
      let unknown = arguments.first {
        $0.hasPrefix("-") && !["--reset", "--help", "-h"].contains($0)
      }
      let problem = unknown.map { "unknown argument '\($0)'" } ?? "give one argument at most"
      warn(
        "keeping-score: \(problem) (valid: a chapter \(groupRange), --reset, --help); "
          + "see 'keeping-score --help'")
      return 64
    }
  }
}
