import CommandSupport
import Foundation
import KeepingScoreKit
import Support

extension Demo {
  /// Why the demo of chapter 7 cannot run as the chapter shows, or `nil`: it needs a folder of
  /// its own in the temporary folder, with a file in it, which this makes and removes.
  static func keepingScoreProblem() -> String? {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("keeping-score-demo-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data().write(to: folder.appendingPathComponent("probe"))
      return nil
    } catch {
      return "chapter 7's demo cannot write its save file in the temporary folder "
        + "\(FileManager.default.temporaryDirectory.path): \(reason(of: error))"
    }
  }

  /// Chapter 7: one run of the keeping-score app with typed answers, against a save file in a
  /// temporary folder that an earlier game wrote, shown before and after: the screen opens on
  /// the saved score, and both observers see the new one. The game's questions and answers are
  /// left out of the transcript, which says so: they are the reader's own self-check.
  func keepingScore() {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("keeping-score-demo-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Messages name the save file; show it where a reader's own would be.
    let shownPath = "~/.config/observer-evolution/keeping-score.json"
    // The same order of choices on every run, so that the typed letters mean the same answers.
    let seed = "\(KeepingScoreCommand.seedVariable)=12"
    let environment = ["XDG_CONFIG_HOME": folder.path, KeepingScoreCommand.seedVariable: "12"]
    let saveFile = ScoreStore.inConfigFolder(environment: environment).url
    // The time that names a damaged file set aside, fixed so the transcript stays the same.
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func run(_ arguments: [String], typing answers: [String]) {
      print((["$ \(seed) swift run keeping-score"] + arguments).joined(separator: " "))
      let answers = TypedLines(answers)
      // The game runs on this thread, start to end: it writes and reads here alone.
      let transcript = SingleThreadedBox("")
      let io = CommandIO(
        write: { transcript.value += $0 },
        writeError: { write($0.replacingOccurrences(of: saveFile.path, with: shownPath)) },
        readLine: {
          let answer = answers.next()
          if let answer { transcript.value += "> \(answer)\n" }
          return answer
        },
        environment: environment)
      _ = KeepingScoreCommand.run(arguments, io: io, now: { now })
      write(withoutTheQuestions(transcript.value))
      print("")
    }

    /// The transcript with the game's questions, the answers typed and what the game said of
    /// them replaced by one line: what a game asks is left for the reader to play.
    func withoutTheQuestions(_ transcript: String) -> String {
      var lines = transcript.split(separator: "\n", omittingEmptySubsequences: false)
      guard let first = lines.firstIndex(where: { $0.hasPrefix("Question 1 of ") }),
        let end = lines[first...].firstIndex(where: { $0.hasPrefix("Game over: ") })
      else { return transcript }
      let count = lines[first].dropFirst("Question 1 of ".count).prefix { $0.isNumber }
      lines[first..<end] = [
        "(\(count) questions and the answers typed, left out: play them yourself)", "",
      ]
      return lines.joined(separator: "\n")
    }

    func showSaveFile() {
      print("$ cat \(shownPath)")
      print((try? String(contentsOf: saveFile, encoding: .utf8)) ?? "(no file)")
      print("")
    }

    // An earlier game of chapter 7 scored 3, and its saver wrote it.
    let total = QuestionGroup.numbered(7)!.questions.count
    _ = try? ScoreStore(url: saveFile).save(Scores([7: Score(correct: 3, total: total)]))
    showSaveFile()
    // The typed letters: the first answer wrong, then the right ones, in the order this seed
    // shows the choices.
    let letters = ["a", "b", "c", "d", "e", "f"]
    let right = ChoiceShuffler(seed: 12).shuffle(QuestionGroup.numbered(7)!).map {
      letters[$0.answer]
    }
    let wrong = letters.first { $0 != right[0] }!
    run(["7"], typing: [wrong] + right.dropFirst())
    showSaveFile()
  }
}
