import CommandSupport
import Support

/// The `tutorial` command, as a function from arguments to output, so tests can run it:
/// `tutorial N` runs the demo of chapter N.
package enum TutorialCommand {
  /// The text of `--help`, which no argument prints too.
  package static let usage = """
    USAGE: tutorial <chapter>
           tutorial 5 --picture

    Runs the demo of a chapter of the tutorial in Tutorial/:
    \(Demo.chapters.map { "  \($0.number)  \($0.title)" }.joined(separator: "\n"))

    `tutorial 5 --picture` runs chapter 5's step 4 live and prints it as a Mermaid diagram.

    Chapter \(TutorialChapter.comparing.number), \(TutorialChapter.comparing.title.lowercased()), \
    is `swift run compare-stages`.

    """

  /// Runs the command: the demo of the chapter given, chapter 5's picture, or the usage.
  ///
  /// On the main actor, where an app's screens live: chapter 5's demo and picture show one.
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments, without the program name: one chapter number,
  ///     `5 --picture`, or `--help`, `-h` or nothing for the usage.
  ///   - io: Where the demo prints.
  /// - Returns: ``ExitCode/success``, or ``ExitCode/usage`` on bad input, named in one line on
  ///   standard error with the valid choices.
  @MainActor
  package static func run(_ arguments: [String], io: CommandIO) async -> ExitCode {
    if arguments == ["--help"] || arguments == ["-h"] || arguments.isEmpty {
      io.write(usage)
      return .success
    }
    if arguments.count == 2, arguments[1] == "--picture" {
      guard arguments[0] == "5" else {
        return io.usageError("tutorial", "no picture for chapter '\(arguments[0])' (valid: 5)")
      }
      io.write(await Demo.turnPicture())
      return .success
    }
    guard arguments.count == 1, let number = Int(arguments[0]),
      Demo.chapters.contains(where: { $0.number == number })
    else {
      let problem =
        arguments.count == 1 ? "no demo for chapter '\(arguments[0])'" : "give one chapter number"
      let valid = Demo.chapters.map { String($0.number) }.joined(separator: ", ")
      return io.usageError("tutorial", "\(problem) (valid: \(valid))")
    }
    Demo(transcript: Transcript(echo: io.write)).run(chapter: number)
    return .success
  }
}
