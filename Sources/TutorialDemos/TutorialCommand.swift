import CommandSupport
import Support

/// The `tutorial` command, as a function from arguments to output, so tests can run it:
/// `tutorial N` runs the demo of chapter N.
package enum TutorialCommand {
  /// The text of `--help`, which no argument prints too.
  package static let usage = """
    USAGE: tutorial <chapter>

    Runs the demo of a chapter of the tutorial in Tutorial/:
    \(Demo.chapters.map { "  \($0.number)  \($0.title)" }.joined(separator: "\n"))

    Chapter \(TutorialChapter.comparing.number), \(TutorialChapter.comparing.title.lowercased()), \
    is `swift run compare-stages`.

    """

  /// Runs the command: the demo of the chapter given, or the usage.
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments, without the program name: one chapter number,
  ///     or `--help`, `-h` or nothing for the usage.
  ///   - io: Where the demo prints.
  /// - Returns: ``ExitCode/success``, or ``ExitCode/usage`` on bad input, named in one line on
  ///   standard error with the chapters that have a demo.
  package static func run(_ arguments: [String], io: CommandIO) -> ExitCode {
    if arguments == ["--help"] || arguments == ["-h"] || arguments.isEmpty {
      io.write(usage)
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
