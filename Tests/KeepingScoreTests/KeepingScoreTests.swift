import CommandSupport
import Foundation
import KeepingScoreKit
import Stage4Options
import Support
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where one test keeps its save file: a folder inside a temporary one, made only by
/// ``create()`` or by the store's first save, as on a first run.
struct SaveFolder {
  let url: URL

  /// A store whose clock always says ``setAsideTime``.
  var store: ScoreStore {
    ScoreStore(url: url.appendingPathComponent("score.json"), now: { setAsideTime })
  }

  /// Creates the folder.
  func create() throws {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
}

/// Runs `body` with a ``SaveFolder`` of its own, removed with everything in it when `body`
/// returns.
func withSaveFolder<Result>(_ body: (SaveFolder) throws -> Result) throws -> Result {
  try withTemporaryFolder("keeping-score-tests") { temporary in
    try body(SaveFolder(url: temporary.appendingPathComponent("config", isDirectory: true)))
  }
}

/// The time the tests' stores name a file set aside with: 2027-01-15 08:00:00 UTC.
let setAsideTime = Date(timeIntervalSince1970: 1_800_000_000)
/// What a file set aside at ``setAsideTime`` is called after: its name, then this.
let setAsideSuffix = ".unreadable-20270115T080000Z"

/// The seed of every game these tests play: the same seed, the same order of choices.
let testSeed: UInt64 = 7

/// The letters of a group's right answers, in a game whose choices `seed` orders.
func rightAnswers(_ group: QuestionGroup, seed: UInt64 = testSeed) -> [String] {
  ChoiceShuffler(seed: seed).shuffle(group).map { ["a", "b", "c", "d", "e", "f"][$0.answer] }
}

/// Plays one game of `group` with `answers`, returning what it printed and warned.
private func play(_ group: QuestionGroup, _ answers: [String], store: ScoreStore) -> (
  score: Score?, output: [String], warnings: [String]
) {
  var remaining = answers[...]
  var output: [String] = []
  var warnings: [String] = []
  let score = Game(
    store: store, shuffler: ChoiceShuffler(seed: testSeed), readLine: { remaining.popFirst() },
    print: { output.append($0) }, warn: { warnings.append($0) }
  ).play(group)
  return (score, output, warnings)
}

private let chapter3 = QuestionGroup.numbered(3)!
private let chapter5 = QuestionGroup.numbered(5)!

/// The chapters that end with a self-check, in reading order: every chapter from 1 on.
private let checkedChapters = TutorialChapter.all.filter { $0.number.chapter >= 1 }

/// The whole numbers of those chapters.
private let wholeNumbers = checkedChapters.map(\.number).filter(\.part.isEmpty).map(\.chapter)

/// Their numbers as the commands say them, from the chapters: "1 to 9 or 5c".
private let groupNumbers =
  "\(wholeNumbers.min() ?? 0) to \(wholeNumbers.max() ?? 0)"
  + checkedChapters.map(\.number).filter { !$0.part.isEmpty }.map { " or \($0)" }.joined()

/// A group number past the last chapter's: no group has it.
private let pastTheLast = "\((wholeNumbers.max() ?? 0) + 1)"

@Suite("Keeping score: the question groups")
struct QuestionGroupTests {
  @Test("one group per chapter from 1 on, in order, each with at least four questions")
  func onePerChapter() {
    let groups = QuestionGroup.all.map(\.number)
    let quiz = "the quiz in Sources/Lab/KeepingScoreKit/QuestionGroup.swift"
    for chapter in checkedChapters where !groups.contains(chapter.number) {
      let number = chapter.number
      Issue.record(
        "chapter \(number) has no question group: add '# \(number)' and its questions to \(quiz)")
    }
    #expect(groups == checkedChapters.map(\.number), "one group per chapter, in reading order")
    for group in QuestionGroup.all {
      #expect(group.questions.count >= 4, "chapter \(group.number)")
    }
  }

  @Test("every question has three distinct choices, one right answer, and an explanation")
  func wellFormed() {
    for group in QuestionGroup.all {
      for question in group.questions {
        #expect(question.choices.count == 3, "\(question.prompt)")
        #expect(Set(question.choices).count == question.choices.count, "\(question.prompt)")
        #expect(!question.explanation.isEmpty, "\(question.prompt)")
      }
    }
  }
}

@Suite("Keeping score: the app of chapter 7")
struct KeepingScoreTests {
  @Test("a game scores the right answers, saves the score, and the next run shows it")
  func scoreSurvivesRuns() throws {
    try withSaveFolder { folder in
      var answers = rightAnswers(chapter3)
      answers[0] = answers[0] == "a" ? "b" : "a"
      let first = play(chapter3, answers, store: folder.store)
      let expected = Score(correct: chapter3.questions.count - 1, total: chapter3.questions.count)
      #expect(first.score == expected)
      #expect(first.output.contains("  3. \(chapter3.title): no score yet"))
      let last = QuestionGroup.all.last!
      #expect(first.output.last == "  \(last.number). \(last.title): no score yet")
      #expect(first.output.contains("  3. \(chapter3.title): latest score \(expected)"))
      #expect(folder.store.load() == .scores(Scores([3: expected])))

      let second = play(chapter5, [], store: folder.store)
      #expect(second.output[3] == "  3. \(chapter3.title): latest score \(expected)")
      #expect(second.score == nil)
      #expect(
        folder.store.load() == .scores(Scores([3: expected])),
        "half a game saves nothing")
    }
  }

  @Test("each answer is followed by its explanation")
  func explanations() throws {
    try withSaveFolder { folder in
      let result = play(chapter5, rightAnswers(chapter5), store: folder.store)
      for question in chapter5.questions {
        #expect(result.output.contains("Right! \(question.explanation)"))
      }
    }
  }

  @Test("the scores of several groups are kept side by side")
  func severalGroups() throws {
    try withSaveFolder { folder in
      _ = play(chapter3, rightAnswers(chapter3), store: folder.store)
      _ = play(chapter5, rightAnswers(chapter5), store: folder.store)
      #expect(
        folder.store.load()
          == .scores(
            Scores([
              3: Score(correct: chapter3.questions.count, total: chapter3.questions.count),
              5: Score(correct: chapter5.questions.count, total: chapter5.questions.count),
            ])))
    }
  }

  @Test("an answer that is not a letter of a choice is asked again")
  func invalidAnswerAskedAgain() throws {
    try withSaveFolder { folder in
      let right = rightAnswers(chapter3)
      let answers = ["", "d", " \(right[0].uppercased()) "] + right.dropFirst()
      let result = play(chapter3, answers, store: folder.store)
      #expect(result.score?.correct == chapter3.questions.count)
      #expect(result.output.filter { $0.hasPrefix("Please answer") }.count == 2)
    }
  }

  @Test(
    "a damaged save file is set aside, said so, and the game starts fresh",
    arguments: ["{ not json", #"{"correct": 5, "total": 3}"#, "[]", ""] + damagedEntries)
  func damagedFile(contents: String) throws {
    try withSaveFolder { folder in
      let store = folder.store
      try folder.create()
      try Data(contents.utf8).write(to: store.url)
      let aside = URL(fileURLWithPath: store.url.path + setAsideSuffix)
      let result = play(chapter3, rightAnswers(chapter3), store: store)
      #expect(
        result.warnings == [
          "the saved scores at \(store.url.path) are damaged; it is kept as \(aside.path), and the "
            + "game starts fresh"
        ])
      #expect(try Data(contentsOf: aside) == Data(contents.utf8), "kept byte for byte")
      #expect(result.output.contains("  3. \(chapter3.title): no score yet"))
      #expect(
        store.load()
          == .scores(
            Scores([3: Score(correct: chapter3.questions.count, total: chapter3.questions.count)])),
        "the next save repairs the file")
    }
  }

  @Test("the damaged file is set aside, and said so, before the game writes anything")
  func setAsideBeforeWriting() throws {
    try withSaveFolder { folder in
      let store = folder.store
      try folder.create()
      try Data("{ not json".utf8).write(to: store.url)
      let aside = URL(fileURLWithPath: store.url.path + setAsideSuffix)
      var remaining = rightAnswers(chapter3)[...]
      var whenWarned: (original: Bool, aside: Data?)?
      let game = Game(
        store: store, shuffler: ChoiceShuffler(seed: testSeed), readLine: { remaining.popFirst() },
        print: { _ in },
        warn: { _ in
          whenWarned = (
            FileManager.default.fileExists(atPath: store.url.path), try? Data(contentsOf: aside)
          )
        })
      #expect(game.play(chapter3) != nil)
      #expect(whenWarned?.original == false, "nothing at the file's place yet")
      #expect(whenWarned?.aside == Data("{ not json".utf8), "the damaged file already kept")
    }
  }

  @Test("a save that fails says why: the config folder's name taken by a file")
  func saveFailureSaysWhy() throws {
    try withSaveFolder { folder in
      try folder.create()
      let blocker = folder.url.appendingPathComponent("observer-evolution")
      try Data("not a folder".utf8).write(to: blocker)
      let store = ScoreStore(url: blocker.appendingPathComponent("keeping-score.json"))
      let result = play(chapter3, rightAnswers(chapter3), store: store)
      #expect(result.warnings.count == 1)
      let warning = try #require(result.warnings.first)
      let prefix = "cannot save the scores to \(store.url.path): "
      let suffix = "; they will be lost when the app ends"
      #expect(warning.hasPrefix(prefix))
      #expect(warning.hasSuffix(suffix))
      #expect(
        warning
          == prefix
          + "cannot create the folder \(blocker.path): \(String(cString: strerror(EEXIST)))"
          + suffix)
      #expect(!warning.contains("Error Domain"))
    }
  }

  @Test(
    "a save into a read-only folder says why (root ignores modes, so not as root)",
    .enabled(if: geteuid() != 0, "root can write into a folder of mode 555"))
  func readOnlyFolder() throws {
    try withSaveFolder { folder in
      try folder.create()
      chmod(folder.url.path, 0o555)
      defer { chmod(folder.url.path, 0o755) }
      let store = folder.store
      let result = play(chapter3, rightAnswers(chapter3), store: store)
      #expect(
        result.warnings == [
          "cannot save the scores to \(store.url.path): Permission denied; they will be lost "
            + "when the app ends"
        ])
    }
  }

  @Test("a folder with the save file's name is left as it is: a fresh start, nothing saved")
  func folderInThePlace() throws {
    try withSaveFolder { folder in
      let store = folder.store
      try FileManager.default.createDirectory(at: store.url, withIntermediateDirectories: true)
      let inside = store.url.appendingPathComponent("mine.txt")
      try Data("mine".utf8).write(to: inside)
      let result = play(chapter3, rightAnswers(chapter3), store: store)
      // One problem, one line: the refusal to save is what the first line already said.
      #expect(
        result.warnings == [
          "\(store.url.path) is not a file: it is left as it is, and no score is saved there; "
            + "starting fresh"
        ])
      #expect(result.score?.correct == chapter3.questions.count)
      #expect(try Data(contentsOf: inside) == Data("mine".utf8))
    }
  }

  @Test("an empty or relative HOME is not used: the system's home folder is")
  func relativeHome() {
    for home in ["", "relative", "./here"] {
      let store = ScoreStore.inConfigFolder(environment: ["HOME": home], systemHome: "/home/bo")
      #expect(store.url.path == "/home/bo/.config/observer-evolution/keeping-score.json", "\(home)")
    }
  }

  @Test(
    "with no absolute home folder at all, the command refuses in one line: exit 64, nothing written"
  )
  func noHomeFolder() throws {
    try withSaveFolder { folder in
      try folder.create()
      let here = FileManager.default.currentDirectoryPath
      let before = try FileManager.default.contentsOfDirectory(atPath: here)
      let run = CommandRun(environment: ["HOME": "relative"]) {
        KeepingScoreCommand.run(["1"], io: $0, systemHome: "also-relative")
      }
      #expect(run.status == .usage)
      #expect(run.output.isEmpty)
      #expect(
        run.error
          == "keeping-score: no home folder to keep its files in: HOME is 'relative' and the "
          + "system's home folder is 'also-relative', neither an absolute path (valid: HOME or "
          + "XDG_CONFIG_HOME set to an absolute path); see 'keeping-score --help'\n")
      #expect(try FileManager.default.contentsOfDirectory(atPath: here) == before)
    }
  }

  @Test("the save file is in $XDG_CONFIG_HOME, else in ~/.config")
  func configFolder() {
    let xdg = ScoreStore.inConfigFolder(environment: [
      "XDG_CONFIG_HOME": "/tmp/xdg", "HOME": "/home/ann",
    ])
    #expect(xdg.url.path == "/tmp/xdg/observer-evolution/keeping-score.json")
    let home = ScoreStore.inConfigFolder(environment: ["HOME": "/home/ann"])
    #expect(home.url.path == "/home/ann/.config/observer-evolution/keeping-score.json")
    let relative = ScoreStore.inConfigFolder(environment: [
      "XDG_CONFIG_HOME": "xdg", "HOME": "/home/ann",
    ])
    #expect(relative.url.path == "/home/ann/.config/observer-evolution/keeping-score.json")
  }

  @Test(
    "the screen shows the saved scores at once, and each new one; both observers go with their owners"
  )
  func observers() throws {
    try withSaveFolder { folder in
      let latest = Observable(Scores([3: Score(correct: 1, total: 4)]))
      var screen: QuestionGroupsScreen? = QuestionGroupsScreen(
        groups: QuestionGroup.all, observing: latest)
      weak let weakScreen = screen
      #expect(screen?.scoreLabels[3] == "latest score 1 of 4")
      #expect(screen?.scoreLabels[5] == "no score yet")
      var saver: ScoreSaver? = ScoreSaver(store: folder.store, observing: latest) { _ in }
      weak let weakSaver = saver
      latest.value = Scores([3: Score(correct: 4, total: 4)])
      #expect(screen?.scoreLabels[3] == "latest score 4 of 4")
      #expect(folder.store.load() == .scores(Scores([3: Score(correct: 4, total: 4)])))
      screen = nil
      saver = nil
      #expect(weakScreen == nil && weakSaver == nil)
      latest.value = Scores()
      #expect(latest.observerCount == 0)
    }
  }
}

@Suite("Keeping score: the command")
struct KeepingScoreCommandTests {
  private func run(_ arguments: [String], home: URL, input: [String] = []) -> (
    status: ExitCode, output: [String], errors: [String]
  ) {
    let run = CommandRun(
      input: input,
      environment: [
        "XDG_CONFIG_HOME": home.path, KeepingScoreCommand.seedVariable: String(testSeed),
      ]
    ) { KeepingScoreCommand.run(arguments, io: $0) }
    return (run.status, lines(of: run.output), lines(of: run.error))
  }

  /// The lines of `text`, each ended by a newline.
  private func lines(of text: String) -> [String] {
    #expect(text.isEmpty || text.hasSuffix("\n"), "every line ends with a newline")
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  @Test("without a chapter, the screen lists every group and asks which to play")
  func chooseAGroup() throws {
    try withSaveFolder { folder in
      let result = run([], home: folder.url, input: [pastTheLast, "3"] + rightAnswers(chapter3))
      #expect(result.status == .success)
      #expect(result.output.first == "Question groups")
      for group in QuestionGroup.all {
        #expect(result.output.contains("  \(group.number). \(group.title): no score yet"))
      }
      #expect(result.output.contains("Please answer with a group number from \(groupNumbers)."))
      #expect(result.output.contains("3. \(chapter3.title)"))
      #expect(
        result.output.contains(
          "Game over: \(chapter3.questions.count) of \(chapter3.questions.count)."))
    }
  }

  @Test("an empty line on the screen quits without playing")
  func quitFromTheScreen() throws {
    try withSaveFolder { folder in
      let result = run([], home: folder.url, input: [""])
      #expect(result.status == .success)
      #expect(!result.output.contains { $0.hasPrefix("Question 1") })
    }
  }

  @Test("keeping-score N plays chapter N's group at once")
  func playAChapter() throws {
    try withSaveFolder { folder in
      let result = run(["5"], home: folder.url, input: rightAnswers(chapter5))
      #expect(result.status == .success)
      #expect(result.output.contains("5. \(chapter5.title)"))
      #expect(!result.output.contains { $0.hasPrefix("Which group?") })
    }
  }

  @Test("keeping-score 5c plays chapter 5c's group, whose score is kept apart from chapter 5's")
  func playChapterFiveC() throws {
    try withSaveFolder { folder in
      let fiveC = try #require(QuestionGroup.numbered(TutorialChapter.Number(5, part: "c")))
      _ = run(["5"], home: folder.url, input: rightAnswers(chapter5))
      let result = run(["5c"], home: folder.url, input: rightAnswers(fiveC))
      #expect(result.status == .success)
      #expect(result.output.contains("5c. \(fiveC.title)"))
      let saved = try String(
        contentsOf: folder.url.appending(path: "observer-evolution/keeping-score.json"),
        encoding: .utf8)
      #expect(saved.contains("\"5c\""), "\(saved)")
      #expect(saved.contains("\"5\""), "\(saved)")
    }
  }

  @Test("reset (once --reset) deletes the saved scores, and says when there are none")
  func reset() throws {
    try withSaveFolder { folder in
      let store = ScoreStore.inConfigFolder(environment: ["XDG_CONFIG_HOME": folder.url.path])
      try store.save(Scores([1: Score(correct: 1, total: 4)]))
      let first = run(["--reset"], home: folder.url)
      #expect(first.status == .success)
      #expect(first.output == ["Deleted the saved scores at \(store.url.path)."])
      #expect(store.load() == .nothing)
      #expect(run(["reset"], home: folder.url).output == ["No saved scores to delete."])
    }
  }

  @Test(
    "bad input: one line on stderr naming the problem and the choices, exit status 64",
    arguments: [
      (
        ["--rest"],
        "keeping-score: unknown option '--rest' (valid for play: none); "
          + "see 'keeping-score --help'"
      ),
      (
        ["--reset", "--reset"],
        "keeping-score: --reset given more than once; "
          + "see 'keeping-score --help'"
      ),
      (
        [pastTheLast],
        "keeping-score: no question group '\(pastTheLast)' (valid: \(groupNumbers), reset); "
          + "see 'keeping-score --help'"
      ),
      (
        ["x"],
        "keeping-score: unknown command 'x' (valid: play, reset; or a chapter for play: "
          + "\(groupNumbers)); see 'keeping-score --help'"
      ),
      (
        ["rest"],
        "keeping-score: unknown command 'rest' (valid: play, reset; or a chapter for play: "
          + "\(groupNumbers)); see 'keeping-score --help'"
      ),
      (
        ["--help="],
        "keeping-score: --help takes no value; see 'keeping-score --help'"
      ),
      (
        [""],
        "keeping-score: no question group '' (valid: \(groupNumbers), reset); "
          + "see 'keeping-score --help'"
      ),
      (
        ["-"],
        "keeping-score: no question group '-' (valid: \(groupNumbers), reset); "
          + "see 'keeping-score --help'"
      ),
    ])
  func badInput(arguments: [String], message: String) throws {
    try withSaveFolder { folder in
      let result = run(arguments, home: folder.url)
      #expect(result.status == .usage)
      #expect(result.output.isEmpty)
      #expect(result.errors == [message])
      #expect(!FileManager.default.fileExists(atPath: folder.url.path), "nothing half-done")
    }
  }

  @Test("--reset refuses a folder that has the save file's name: one line on stderr, exit 1")
  func resetRefusesAFolder() throws {
    try withSaveFolder { folder in
      let store = ScoreStore.inConfigFolder(environment: ["XDG_CONFIG_HOME": folder.url.path])
      try FileManager.default.createDirectory(at: store.url, withIntermediateDirectories: true)
      let result = run(["--reset"], home: folder.url)
      #expect(result.status == .failure)
      #expect(result.output.isEmpty)
      #expect(
        result.errors == [
          "keeping-score: not deleting \(store.url.path): it is not a regular file (a folder?), so "
            + "this app did not write it"
        ])
      var isFolder: ObjCBool = false
      #expect(FileManager.default.fileExists(atPath: store.url.path, isDirectory: &isFolder))
      #expect(isFolder.boolValue)
    }
  }

  @Test(
    "a seed that is not a whole number is bad input: one line on stderr, exit 64",
    arguments: ["", "-1", "seven", "18446744073709551616"])
  func badSeed(seed: String) throws {
    try withSaveFolder { folder in
      let run = CommandRun(
        environment: [
          "XDG_CONFIG_HOME": folder.url.path, KeepingScoreCommand.seedVariable: seed,
        ]
      ) { KeepingScoreCommand.run(["1"], io: $0) }
      #expect(run.status == .usage)
      #expect(run.output.isEmpty)
      #expect(
        run.error
          == "keeping-score: \(KeepingScoreCommand.seedVariable) is '\(seed)', not a whole number "
          + "(valid: 0 to \(UInt64.max), or unset); see 'keeping-score --help'\n")
    }
  }

  @Test("--help describes the chapters, the save file and --reset")
  func help() throws {
    let result = try withSaveFolder { folder in run(["--help"], home: folder.url) }
    #expect(result.status == .success)
    let text = result.output.joined(separator: "\n")
    #expect(text.contains("<chapter>"))
    #expect(text.contains("--reset"))
    #expect(text.contains("$XDG_CONFIG_HOME/observer-evolution/keeping-score.json"))
    #expect(text.contains(KeepingScoreCommand.seedVariable))
    // Its exit statuses, in the shape every command shares.
    for status in [
      "EXIT STATUS:", "  0   ", "  1   reset", "  64  bad usage", "  74  standard output",
    ] {
      #expect(result.output.contains { $0.hasPrefix(status) }, "\(status)")
    }
  }
}

/// Save files with one entry this app would not write, beside a good one: each is damaged as a
/// whole, so that the good entry is kept in the file set aside, never merged with a guess. An
/// impossible score, an entry that is no score, and keys that are not a group number as the app
/// writes them (read as numbers, "01" or "+1" could silently replace another group's entry).
private let damagedEntries =
  [
    #"{"correct": 9, "total": 4}"#, #""nonsense""#, #"{"correct": -1, "total": 4}"#,
  ].map { #"{"scores": {"1": {"correct": 2, "total": 4}, "2": \#($0)}}"# }
  + ["01", "-0", "+1", " 1", "x"].map {
    #"{"scores": {"1": {"correct": 2, "total": 4}, "\#($0)": {"correct": 1, "total": 4}}}"#
  }
