import Foundation
import Testing

#if os(macOS) || os(Linux)
  @Suite("keeping-score: games played at once")
  struct ConcurrentGamesTests {
    /// One running game: its process, where it reads answers, and what it printed.
    private struct RunningGame {
      let chapter: Int
      let process = Process()
      let input = Pipe()
      let output = Pipe()
      var printed = Data()

      /// Reads what it prints until `text` shows up, or its output ends.
      mutating func read(until text: String) {
        while !String(decoding: printed, as: UTF8.self).contains(text) {
          let more = output.fileHandleForReading.availableData
          if more.isEmpty { return }
          printed += more
        }
      }
    }

    @Test("eight games played at once, one per chapter, keep eight scores")
    func eightGamesKeepEightScores() throws {
      let config = FileManager.default.temporaryDirectory
        .appendingPathComponent("keeping-score-concurrent-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: config) }
      let executable = try productURL("keeping-score")
      var games = (1...8).map { RunningGame(chapter: $0) }
      for game in games {
        game.process.executableURL = executable
        game.process.arguments = [String(game.chapter)]
        game.process.environment = ProcessInfo.processInfo.environment.merging([
          "XDG_CONFIG_HOME": config.path, "KEEPING_SCORE_SEED": "1",
        ]) { $1 }
        game.process.standardInput = game.input
        game.process.standardOutput = game.output
        game.process.standardError = game.output
        try game.process.run()
      }
      // Every game has loaded the scores, none yet saved, before any is answered: each one's
      // save comes after all eight loads, which a save of all the scores it loaded would undo.
      for index in games.indices { games[index].read(until: "Your answer (") }
      for game in games {
        // "a" for every question: a score anywhere from none to all right.
        game.input.fileHandleForWriting.write(Data(String(repeating: "a\n", count: 10).utf8))
        try game.input.fileHandleForWriting.close()
      }
      var reported: [String: [String: Int]] = [:]
      for index in games.indices {
        games[index].printed += games[index].output.fileHandleForReading.readDataToEndOfFile()
        games[index].process.waitUntilExit()
        let game = games[index]
        let text = String(decoding: game.printed, as: UTF8.self)
        #expect(game.process.terminationStatus == 0, "chapter \(game.chapter): \(text)")
        #expect(!text.contains("keeping-score:"), "no warning: \(text)")
        let over = try #require(
          text.split(separator: "\n").first { $0.hasPrefix("Game over: ") },
          "chapter \(game.chapter) ended its game")
        let numbers = over.dropFirst("Game over: ".count).dropLast().split(separator: " ")
        reported[String(game.chapter)] = [
          "correct": try #require(Int(numbers[0])), "total": try #require(Int(numbers[2])),
        ]
      }
      let saveFile = config.appendingPathComponent("observer-evolution/keeping-score.json")
      let saved = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: saveFile)) as? [String: Any])
      let scores = try #require(saved["scores"] as? [String: [String: Int]])
      #expect(scores == reported)
      #expect(scores.count == 8)
    }
  }
#endif
