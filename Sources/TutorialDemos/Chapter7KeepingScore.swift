import Foundation
import KeepingScore

extension Demo {
  /// Chapter 7: three runs of the keeping-score app with typed answers, against a save file in
  /// a temporary folder, the last one after the file was damaged.
  func keepingScore() {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("keeping-score-demo-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = ScoreStore(url: folder.appendingPathComponent("keeping-score.json"))
    // Messages name the save file; show it where a reader's own would be.
    let shownPath = "~/.config/observer-evolution/keeping-score.json"

    func play(typing answers: [String]) {
      print("$ swift run keeping-score")
      var remaining = answers[...]
      let game = Game(
        store: store,
        readLine: {
          let answer = remaining.popFirst()
          if let answer { print("> \(answer)") }
          return answer
        },
        print: { print($0) },
        warn: {
          print("keeping-score: " + $0.replacingOccurrences(of: store.url.path, with: shownPath))
        })
      game.play()
      print("")
    }

    play(typing: ["b", "x", "c", "b"])
    play(typing: ["b", "c", "a"])
    try? Data("{ this is not a score".utf8).write(to: store.url)
    print("$ echo '{ this is not a score' > \(shownPath)")
    play(typing: ["a"])
  }
}
