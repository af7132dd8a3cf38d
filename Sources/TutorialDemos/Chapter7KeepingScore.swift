import CommandSupport
import Foundation
import KeepingScore
import Synchronization

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
      let answers = TypedAnswers(answers)
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

/// The answers a demo types, handed out one a line as the app asks for them.
private final class TypedAnswers: Sendable {
  private let remaining: Mutex<[String]>

  init(_ answers: [String]) { remaining = Mutex(answers) }

  /// The next answer, or `nil` when there are no more.
  func next() -> String? { remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
}
