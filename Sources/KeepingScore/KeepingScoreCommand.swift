import CommandSupport
import Foundation

/// The `keeping-score` command, as a function from arguments and input to output and an exit
/// status, so tests can run it.
package enum KeepingScoreCommand {
  /// The group numbers, "1 to 9", as the help and the errors list them.
  private static let groups = QuestionGroup.numberRange

  /// The environment variable whose number makes the choices' order repeat from run to run.
  package static let seedVariable = "KEEPING_SCORE_SEED"

  /// The text of `--help`.
  package static let help = """
    OVERVIEW: A self-check per chapter of the tutorial, whose scores are observed: one observer
    shows each group's latest score on the question groups screen, another saves them, so the
    next run shows them again.

    USAGE: keeping-score [<chapter>]
           keeping-score --reset

    ARGUMENTS:
      <chapter>   play the questions of that chapter, \(groups); without it, the question
                  groups screen asks which

    Answers are read from standard input, one letter a line; the choices come in a new order
    each run, or in the same order each run when \(seedVariable) is set to a whole number.
    The scores are saved to $XDG_CONFIG_HOME/observer-evolution/keeping-score.json, or to
    ~/.config/observer-evolution/keeping-score.json when XDG_CONFIG_HOME is not set. Games
    played at the same time all keep their scores; a save file that cannot be read is moved
    aside, never overwritten.

    OPTIONS:
      --reset     delete the saved scores, then exit; only a file of saved scores is deleted
      -h, --help  print this help

    """

  /// Runs the command: plays on `io`'s input and output, and returns how it ended.
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments, without the program name.
  ///   - io: Where the player answers and reads; its environment locates the config folder,
  ///     and may hold ``seedVariable``.
  ///   - now: The time, which names a save file that is moved aside.
  /// - Returns: ``ExitCode/success``; ``ExitCode/failure`` if the saved scores could not be
  ///   deleted; ``ExitCode/usage`` on bad input, named in one line on standard error.
  package static func run(
    _ arguments: [String], io: CommandIO, now: @escaping @Sendable () -> Date = { Date() }
  ) -> ExitCode {
    let store = ScoreStore.inConfigFolder(environment: io.environment, now: now)
    var seed: UInt64?
    if let text = io.environment[seedVariable] {
      guard let number = UInt64(text) else {
        return io.usageError(
          "keeping-score",
          "\(seedVariable) is '\(text)', not a whole number (valid: 0 to \(UInt64.max), or unset)")
      }
      seed = number
    }
    let game = Game(
      store: store, shuffler: ChoiceShuffler(seed: seed), readLine: io.readLine, print: io.print
    ) {
      io.printError("keeping-score: \($0)")
    }
    switch arguments {
    case []:
      game.chooseAndPlay()
      return .success
    case ["--help"], ["-h"]:
      io.write(help)
      return .success
    case ["--reset"]:
      do {
        if let deleted = try store.reset() {
          io.print("Deleted the saved scores at \(deleted.path).")
        } else {
          io.print("No saved scores to delete.")
        }
        return .success
      } catch let refusal as ScoreStore.Refusal {
        io.printError("keeping-score: \(refusal)")
        return .failure
      } catch {
        io.printError(
          "keeping-score: cannot delete the saved scores at \(store.url.path): "
            + "\(error.localizedDescription)")
        return .failure
      }
    case _ where arguments.count == 1 && !arguments[0].hasPrefix("-"):
      let chapter = arguments[0]
      guard let number = Int(chapter), let group = QuestionGroup.numbered(number) else {
        return io.usageError(
          "keeping-score", "no question group '\(chapter)' (valid: \(groups), --reset, --help)")
      }
      game.play(group)
      return .success
    default:
      let unknown = arguments.first {
        $0.hasPrefix("-") && !["--reset", "--help", "-h"].contains($0)
      }
      let problem = unknown.map { "unknown argument '\($0)'" } ?? "give one argument at most"
      return io.usageError(
        "keeping-score", "\(problem) (valid: a chapter \(groups), --reset, --help)")
    }
  }
}
