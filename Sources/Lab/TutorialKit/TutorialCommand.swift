import CommandSupport
import KeepingScoreKit
import Support

/// The `tutorial` command, as a function from arguments to output, so tests can run it:
/// `tutorial N` runs the demo of chapter N.
package enum TutorialCommand {
  package enum Request: Sendable, Equatable {
    case help
    case demo(TutorialChapter.Number)
    /// Chapter 5c's picture of the turn, drawn from a live run.
    case picture
  }

  private static var chapters: String {
    Demo.chapters.map { $0.chapter.number.description }.joined(separator: ", ")
  }

  /// The command line of `tutorial`: one word, which may be left out, and its option, parsed
  /// into whether `--picture` was given; the parser and the USAGE and OPTIONS of `--help` are
  /// made from it.
  package static let syntax = CommandSyntax<Bool, Request>(
    command: "tutorial",
    options: [
      .flag(
        "--picture",
        help: "with chapter \(picturedChapter): run its picture of the turn live, and print it "
          + "as a Mermaid diagram"
      ) { picture in picture = true },
      .flag("--help", alias: "-h", help: "print this help") { _ in },
    ],
    words: [
      CommandWord(
        "demo", argument: ("chapter", { chapters }), argumentIsOptional: true,
        options: ["--picture"],
        help: "run the demo of a chapter of the tutorial in Tutorial/; the word may be left out"
      ) { chapter, picture throws(UsageError) in
        guard let chapter else {
          guard !picture else {
            throw UsageError(
              message: "--picture needs its chapter "
                + "(valid: \(picturedChapter) --picture)")
          }
          return .help
        }
        guard let number = TutorialChapter.Number(chapter),
          Demo.chapters.contains(where: { $0.chapter.number == number })
        else {
          throw UsageError(message: "no demo for chapter '\(chapter)' (valid: \(chapters))")
        }
        guard picture else { return .demo(number) }
        guard number == picturedChapter else {
          throw UsageError(
            message: "no picture for chapter '\(chapter)' (valid: \(picturedChapter))")
        }
        return .picture
      }
    ],
    initial: false)

  /// The chapter whose picture `--picture` draws: the turn moving to the main actor.
  private static var picturedChapter: TutorialChapter.Number {
    TutorialChapter.handlersOnTheMainActor.number
  }

  /// The chapters with demos, one a line, their titles lined up.
  private static var chapterList: String {
    let width = Demo.chapters.map(\.chapter.number.description.count).max() ?? 0
    return Demo.chapters.map { chapter, _ in
      "  \(chapter.number.description.padded(to: width))  \(chapter.title)"
    }.joined(separator: "\n")
  }

  /// The text of `--help`, which no argument prints too.
  package static let usage = """
    \(syntax.usage)
    Runs the demo of a chapter of the tutorial in Tutorial/:
    \(chapterList)

    OPTIONS:
    \(syntax.optionsHelp)
    Chapter \(TutorialChapter.comparing.number), \(TutorialChapter.comparing.title.lowercased()), \
    is `swift run compare-stages`.

    \(ExitCode.help(
      success: "the demo ran, or this help was printed", failure: nil,
      ioError: "chapter \(TutorialChapter.keepingScore.number)'s demo cannot write its save "
        + "file in the temporary folder ($TMPDIR)"))
    """

  /// Runs the command: the demo of the chapter given, chapter 5c's picture, or the usage.
  ///
  /// On the main actor, where an app's screens live: chapter 5c's demo and picture show one.
  ///
  /// - Returns: ``ExitCode/success``; ``ExitCode/usage`` on bad input, named in one line on
  ///   standard error with the valid choices; ``ExitCode/ioError`` when chapter 7's demo cannot
  ///   write its save file in the temporary folder.
  @MainActor
  package static func run(_ arguments: [String], io: CommandIO) async -> ExitCode {
    guard let request = syntax.request(arguments, help: .help, io: io) else { return .usage }
    switch request {
    case .help:
      io.write(usage)
    case .picture:
      io.write(await Demo.turnPicture())
    case .demo(let number):
      // Chapter 7's demo saves a score in the temporary folder: one that cannot be written is
      // said at once, rather than a transcript that differs from the chapter's.
      if number == TutorialChapter.keepingScore.number, let problem = Demo.keepingScoreProblem() {
        io.printError("tutorial: \(problem)")
        return .ioError
      }
      Demo.run(chapter: number, write: io.write)
    }
    return .success
  }
}
