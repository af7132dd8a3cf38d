import CommandSupport
import Testing

/// What a toy command asks for: its word and argument, and its flags.
private struct Asked: Equatable, Sendable {
  var word: String
  var argument: String?
  var loud = false
  var again = false
}

/// A toy command in the shape of `workshop` and `keeping-score`: a first word, `grade`, that
/// may be left out and takes an optional number, another word, `hint`, and flags.
private let toy = CommandSyntax<Asked, Asked>(
  command: "toy",
  options: [
    .flag("--loud", help: "say it loud") { asked in asked.loud = true },
    .flag("--again", help: "once more") { asked in asked.again = true },
    .flag("--version", help: "print the version") { _ in },
    .flag("--help", alias: "-h", help: "print this help") { _ in },
  ],
  words: [
    CommandWord(
      "grade", argument: ("number", { "1, 2, 3" }), argumentIsOptional: true,
      options: ["--loud"], help: "grade"
    ) { argument, asked throws(UsageError) in
      guard argument == nil || ["1", "2", "3"].contains(argument ?? "") else {
        throw UsageError(message: "no number '\(argument ?? "")' (valid: 1, 2, 3)")
      }
      return Asked(word: "grade", argument: argument, loud: asked.loud)
    },
    CommandWord(
      "hint", argument: ("number", { "1, 2, 3" }), argumentIsOptional: true,
      options: ["--again"], help: "hint", oldSpelling: "--hint"
    ) { argument, asked in Asked(word: "hint", argument: argument, again: asked.again) },
  ],
  initial: Asked(word: ""))

/// What `arguments` ask the toy to run; `nil` for the help or the version.
private func asked(_ arguments: [String]) throws -> Asked? {
  guard case .run(let asked) = try toy.parse(arguments) else { return nil }
  return asked
}

/// The message `arguments` are refused with.
private func refusal(_ arguments: [String]) throws -> String {
  try #require(throws: UsageError.self) { try toy.parse(arguments) }.message
}

@Suite("CommandSyntax: the one parser of every command")
struct CommandSyntaxTests {
  @Test(
    "a word-like first argument that no word is and the first word refuses is an unknown command")
  func misspelledWord() throws {
    let valid = "(valid: grade, hint; or a number for grade: 1, 2, 3)"
    #expect(try refusal(["hnt", "3"]) == "unknown command 'hnt' \(valid)")
    #expect(try refusal(["grde"]) == "unknown command 'grde' \(valid)")
    #expect(try refusal(["--loud", "hnt"]) == "unknown command 'hnt' \(valid)")
    // A number is the first word's argument, refused in its own terms.
    #expect(try refusal(["9"]) == "no number '9' (valid: 1, 2, 3)")
    #expect(try refusal(["3", "4"]) == "unexpected argument '4' (valid for grade: --loud)")
  }

  @Test("every valid spelling still works: the words, the first one left out, the old spelling")
  func validSpellings() throws {
    #expect(try asked(["3"]) == Asked(word: "grade", argument: "3"))
    #expect(try asked(["grade", "3", "--loud"]) == Asked(word: "grade", argument: "3", loud: true))
    #expect(try asked(["hint", "2"]) == Asked(word: "hint", argument: "2"))
    #expect(
      try asked(["--hint", "2", "--again"]) == Asked(word: "hint", argument: "2", again: true))
    #expect(try asked([]) == Asked(word: "grade"))
  }

  @Test("a flag given twice is refused, whichever flag it is")
  func repeatedFlag() throws {
    #expect(try refusal(["--loud", "--loud"]) == "--loud given more than once")
    #expect(try refusal(["hint", "--again", "1", "--again"]) == "--again given more than once")
    #expect(try refusal(["--hint", "1", "--hint", "2"]) == "--hint given more than once")
  }

  @Test("--help and --version with a value: they take none")
  func helpWithAValue() throws {
    #expect(try refusal(["--help="]) == "--help takes no value")
    #expect(try refusal(["--help=yes"]) == "--help takes no value")
    #expect(try refusal(["--version=1"]) == "--version takes no value")
    #expect(try refusal(["--loud=1"]) == "--loud takes no value")
    #expect(try refusal(["hint", "--loud=1"]) == "--loud takes no value")
  }

  @Test("--help's row says that the word help asks for the help too, as the parser accepts")
  func helpWordListed() throws {
    guard case .help = try toy.parse(["help"]) else {
      Issue.record("help should ask for the help")
      return
    }
    #expect(
      toy.optionsHelp.contains("  -h, --help   print this help; so does help as the first word\n"))
    #expect(toy.optionsHelp.components(separatedBy: "help as the first word").count == 2)
  }

  @Test("EXIT STATUS: 0, 1 when the command has it, 64 and 74, in one shape")
  func exitStatus() {
    #expect(
      ExitCode.help(success: "it worked", failure: "it found a difference")
        == """
        EXIT STATUS:
          0   it worked
          1   it found a difference
          64  bad usage; the problem is named on standard error
          74  standard output cannot be written (closed, a full disk, a reader gone); standard
              error says why


        """)
    let noFailure = ExitCode.help(
      success: "ran", failure: nil, ioError: "a chart cannot be written")
    #expect(!noFailure.contains("\n  1 "))
    #expect(noFailure.contains("reader gone); or a chart\n      cannot be written; standard error"))
  }
}
