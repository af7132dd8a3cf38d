import CommandSupport
import Foundation
import KeepingScore

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
  /// the saved score, and both observers see the new one.
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
      let io = CommandIO(
        write: write,
        writeError: { write($0.replacingOccurrences(of: saveFile.path, with: shownPath)) },
        readLine: {
          let answer = answers.next()
          if let answer { print("> \(answer)") }
          return answer
        },
        environment: environment)
      _ = KeepingScoreCommand.run(arguments, io: io, now: { now })
      print("")
    }

    func showSaveFile() {
      print("$ cat \(shownPath)")
      print((try? String(contentsOf: saveFile, encoding: .utf8)) ?? "(no file)")
      print("")
    }

    // An earlier game of chapter 7 scored 3 of 5, and its saver wrote it.
    _ = try? ScoreStore(url: saveFile).save(Scores([7: Score(correct: 3, total: 5)]))
    showSaveFile()
    run(["7"], typing: ["a", "x", "a", "b", "a", "b"])
    showSaveFile()
  }
}
