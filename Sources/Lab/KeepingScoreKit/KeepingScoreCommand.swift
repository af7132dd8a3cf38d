import CommandSupport
import Foundation
import Support

/// The `keeping-score` command, as a function from arguments and input to output and an exit
/// status, so tests can run it.
package enum KeepingScoreCommand {
  /// The group numbers, "1 to 9 or 5c" say, as the help and the errors list them.
  private static let groups = QuestionGroup.numberRange

  /// The environment variable whose number makes the choices' order repeat from run to run.
  package static let seedVariable = "KEEPING_SCORE_SEED"

  package enum Request: Sendable {
    case help
    /// A game of one group; without one, the question groups screen asks which.
    case play(QuestionGroup?)
    case reset
  }

  /// The command line of `keeping-score`: its two words, `play` (which may be left out) and
  /// `reset`, once spelled `--reset`; the parser and `--help` are made from it.
  package static let syntax = CommandSyntax<Int, Request>(
    command: "keeping-score",
    options: [.flag("--help", alias: "-h", help: "print this help") { _ in }],
    words: [
      CommandWord(
        "play", argument: ("chapter", { groups }), argumentIsOptional: true,
        help: "play the questions of that chapter, \(groups); without it, the question groups "
          + "screen asks which; the word may be left out"
      ) { chapter, _ throws(UsageError) in
        guard let chapter else { return .play(nil) }
        guard let number = TutorialChapter.Number(chapter),
          let group = QuestionGroup.numbered(number)
        else {
          throw UsageError(message: "no question group '\(chapter)' (valid: \(groups), reset)")
        }
        return .play(group)
      },
      CommandWord(
        "reset",
        help: "delete the saved scores, then exit; only a file of saved scores is deleted",
        oldSpelling: "--reset"
      ) { _, _ in .reset },
    ],
    initial: 0)

  package static let help = """
    OVERVIEW: A self-check per chapter of the tutorial, whose scores are observed: one observer
    shows each group's latest score on the question groups screen, another saves them, so the
    next run shows them again.

    \(syntax.usage)
    COMMANDS:
    \(syntax.wordsHelp)
    Answers are read from standard input, one letter a line; the choices come in a new order
    each run, or in the same order each run when \(seedVariable) is set to a whole number.
    The scores are saved to $XDG_CONFIG_HOME/observer-evolution/keeping-score.json, or to
    ~/.config/observer-evolution/keeping-score.json when XDG_CONFIG_HOME is not set. Games
    played at the same time all keep their scores; a save file that cannot be read is moved
    aside, never overwritten.

    OPTIONS:
    \(syntax.optionsHelp)
    \(syntax.oldSpellingsHelp)
    \(ExitCode.help(
      success: "played, or the scores deleted; a score that cannot be saved is named on "
        + "standard error, and the game still ends with 0",
      failure: "reset refused to delete, or could not delete, the saved scores; standard "
        + "error says why"))
    """

  /// Runs the command on `io`'s input and output, whose environment locates the config folder
  /// (`systemHome` is the home folder when `HOME` is not an absolute path) and may hold
  /// ``seedVariable``; `now` names a save file that is moved aside.
  ///
  /// - Returns: ``ExitCode/success``; ``ExitCode/failure`` if the saved scores could not be
  ///   deleted; ``ExitCode/usage`` on bad input, or with no absolute folder to save in, named
  ///   in one line on standard error.
  package static func run(
    _ arguments: [String], io: CommandIO, now: @escaping @Sendable () -> Date = { Date() },
    systemHome: String = NSHomeDirectory()
  ) -> ExitCode {
    var seed: UInt64?
    if let text = io.environment[seedVariable] {
      guard let number = UInt64(text) else {
        return io.usageError(
          "keeping-score",
          "\(seedVariable) is '\(text)', not a whole number (valid: 0 to \(UInt64.max), or unset)")
      }
      seed = number
    }
    guard let request = syntax.request(arguments, help: .help, io: io) else { return .usage }
    if case .help = request {
      io.write(help)
      return .success
    }
    // No save file under the folder the command runs in, for want of a home folder.
    if let problem = configFolderProblem(environment: io.environment, systemHome: systemHome) {
      return io.usageError("keeping-score", problem)
    }
    let store = ScoreStore.inConfigFolder(
      environment: io.environment, systemHome: systemHome, now: now)
    switch request {
    case .help:
      io.write(help)
    case .play(let group):
      let game = Game(
        store: store, shuffler: ChoiceShuffler(seed: seed), readLine: io.readLine, print: io.print
      ) {
        io.printError("keeping-score: \($0)")
      }
      game.play(group)
    case .reset:
      do {
        if let deleted = try store.reset() {
          io.print("Deleted the saved scores at \(deleted.path).")
        } else {
          io.print("No saved scores to delete.")
        }
      } catch {
        let problem =
          (error as? ScoreStore.Refusal)?.description
          ?? "cannot delete the saved scores at \(store.url.path): \(reason(of: error))"
        io.printError("keeping-score: \(problem)")
        return .failure
      }
    }
    return .success
  }
}
