import Foundation
import KeepingScore
import Stage4Options
import Testing

/// A fresh folder for one test's save file, removed when the test ends.
private final class TemporaryFolder {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("keeping-score-tests-\(UUID().uuidString)", isDirectory: true)

  deinit { try? FileManager.default.removeItem(at: url) }

  var store: ScoreStore { ScoreStore(url: url.appendingPathComponent("score.json")) }
}

/// Plays one game with `answers`, returning what it printed and warned.
private func play(_ answers: [String], store: ScoreStore) -> (
  score: Score?, output: [String], warnings: [String]
) {
  var remaining = answers[...]
  var output: [String] = []
  var warnings: [String] = []
  let score = Game(
    store: store, readLine: { remaining.popFirst() }, print: { output.append($0) },
    warn: { warnings.append($0) }
  ).play()
  return (score, output, warnings)
}

@Suite("Keeping score: the app of chapter 7")
struct KeepingScoreTests {
  @Test("a game scores the right answers, saves the score, and the next run shows it")
  func scoreSurvivesRuns() {
    let folder = TemporaryFolder()
    let first = play(["b", "c", "b"], store: folder.store)
    #expect(first.score == Score(correct: 2, total: 3))
    #expect(first.output.contains("  The observer pattern: no score yet"))
    #expect(first.output.last == "  The observer pattern: latest score 2 of 3")
    #expect(folder.store.load() == .score(Score(correct: 2, total: 3)))

    let second = play([], store: folder.store)
    #expect(second.output[1] == "  The observer pattern: latest score 2 of 3")
    #expect(second.score == nil)
    #expect(folder.store.load() == .score(Score(correct: 2, total: 3)), "half a game saves nothing")
  }

  @Test("an answer that is not a letter of a choice is asked again")
  func invalidAnswerAskedAgain() {
    let folder = TemporaryFolder()
    let result = play(["", "d", " B ", "c", "a"], store: folder.store)
    #expect(result.score == Score(correct: 3, total: 3))
    #expect(result.output.filter { $0.hasPrefix("Please answer") }.count == 2)
  }

  @Test(
    "a damaged save file gets a clear message and a fresh start",
    arguments: ["{ not json", #"{"correct": 5, "total": 3}"#, #"{"correct": -1, "total": 3}"#, ""])
  func damagedFile(contents: String) throws {
    let folder = TemporaryFolder()
    let store = folder.store
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: store.url)
    let result = play(["b", "c", "a"], store: store)
    #expect(result.warnings == ["the saved score at \(store.url.path) is damaged; starting fresh"])
    #expect(result.output.contains("  The observer pattern: no score yet"))
    #expect(store.load() == .score(Score(correct: 3, total: 3)), "the next save repairs the file")
  }

  @Test("an unreadable save file gets a clear message and a fresh start")
  func unreadableFile() throws {
    let folder = TemporaryFolder()
    let store = folder.store
    // A folder where the file should be: it exists, and cannot be read as a file.
    try FileManager.default.createDirectory(at: store.url, withIntermediateDirectories: true)
    let result = play(["b", "c", "a"], store: store)
    #expect(
      result.warnings.first == "cannot read the saved score at \(store.url.path); starting fresh")
    #expect(
      result.warnings.last
        == "cannot save the score to \(store.url.path); it will be lost when the app ends")
    #expect(result.score == Score(correct: 3, total: 3))
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
    "the screen shows the saved score at once, and each new one; both observers go with their owners"
  )
  func observers() {
    let folder = TemporaryFolder()
    let latest = Observable<Score?>(Score(correct: 1, total: 3))
    var screen: QuestionGroupsScreen? = QuestionGroupsScreen(title: "Quiz", observing: latest)
    weak let weakScreen = screen
    #expect(screen?.scoreLabel == "latest score 1 of 3")
    var saver: ScoreSaver? = ScoreSaver(store: folder.store, observing: latest) { _ in }
    weak let weakSaver = saver
    latest.value = Score(correct: 3, total: 3)
    #expect(screen?.scoreLabel == "latest score 3 of 3")
    #expect(folder.store.load() == .score(Score(correct: 3, total: 3)))
    screen = nil
    saver = nil
    #expect(weakScreen == nil && weakSaver == nil)
    latest.value = nil
    #expect(latest.observerCount == 0)
  }
}

@Suite("Keeping score: the command")
struct KeepingScoreCommandTests {
  private func run(_ arguments: [String], home: URL) -> (
    status: Int32, output: [String], errors: [String]
  ) {
    var output: [String] = []
    var errors: [String] = []
    let status = KeepingScoreCommand.run(
      arguments, environment: ["XDG_CONFIG_HOME": home.path], readLine: { nil },
      print: { output.append($0) }, warn: { errors.append($0) })
    return (status, output, errors)
  }

  @Test("--reset deletes the saved score, and says when there is none")
  func reset() throws {
    let folder = TemporaryFolder()
    let store = ScoreStore.inConfigFolder(environment: ["XDG_CONFIG_HOME": folder.url.path])
    try store.save(Score(correct: 1, total: 3))
    let first = run(["--reset"], home: folder.url)
    #expect(first.status == 0)
    #expect(first.output == ["Deleted the saved score at \(store.url.path)."])
    #expect(store.load() == .nothing)
    #expect(run(["--reset"], home: folder.url).output == ["No saved score to delete."])
  }

  @Test(
    "bad input: one line on stderr naming the problem and the choices, exit status 64",
    arguments: [
      (
        ["--rest"],
        "keeping-score: unknown argument '--rest' (valid: --reset, --help); see 'keeping-score --help'"
      ),
      (
        ["--reset", "--reset"],
        "keeping-score: give one option at most (valid: --reset, --help); see 'keeping-score --help'"
      ),
    ])
  func badInput(arguments: [String], message: String) {
    let folder = TemporaryFolder()
    let result = run(arguments, home: folder.url)
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(result.errors == [message])
    #expect(!FileManager.default.fileExists(atPath: folder.url.path), "nothing half-done")
  }

  @Test("--help describes the save file and --reset")
  func help() {
    let result = run(["--help"], home: FileManager.default.temporaryDirectory)
    #expect(result.status == 0)
    let text = result.output.joined(separator: "\n")
    #expect(text.contains("--reset"))
    #expect(text.contains("$XDG_CONFIG_HOME/observer-evolution/keeping-score.json"))
  }
}
