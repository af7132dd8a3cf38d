import CommandSupport
import Foundation
import KeepingScore

extension Demo {
  /// Chapter 7: three runs of the keeping-score app with typed answers, against a save file in
  /// a temporary folder, the last one after the file was damaged.
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
        write: transcript.write,
        writeError: {
          transcript.write($0.replacingOccurrences(of: saveFile.path, with: shownPath))
        },
        readLine: {
          let answer = answers.next()
          if let answer { print("> \(answer)") }
          return answer
        },
        environment: environment)
      _ = KeepingScoreCommand.run(arguments, io: io, now: { now })
      print("")
    }

    run([], typing: ["7", "a", "x", "a", "b", "a", "b"])
    run(["7"], typing: ["c", "a", "b", "a", "b"])
    try? Data("{ this is not a score".utf8).write(to: saveFile)
    print("$ echo '{ this is not a score' > \(shownPath)")
    run(["7"], typing: ["a"])
  }
}
