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
    let environment = ["XDG_CONFIG_HOME": folder.path]
    let saveFile = ScoreStore.inConfigFolder(environment: environment).url

    func run(_ arguments: [String], typing answers: [String]) {
      print((["$ swift run keeping-score"] + arguments).joined(separator: " "))
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
      _ = KeepingScoreCommand.run(arguments, io: io)
      print("")
    }

    run([], typing: ["7", "c", "x", "a", "b", "b"])
    run(["7"], typing: ["c", "a", "b", "a"])
    try? Data("{ this is not a score".utf8).write(to: saveFile)
    print("$ echo '{ this is not a score' > \(shownPath)")
    run(["7"], typing: ["a"])
  }
}
