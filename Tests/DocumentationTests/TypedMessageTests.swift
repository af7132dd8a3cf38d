import Foundation
import Testing

// Chapters 8 and 9 say that Foundation's typed notification messages run on Linux as well as on
// Apple's 26 releases. These tests are the proof: they compile and run wherever `swift test`
// does, with the Foundation that platform ships.

/// The subject a message is about: a scoreboard, as in chapter 7's app.
private final class Scoreboard: Sendable {}

/// A typed message observed on the main actor: the score is a stored property, not a
/// `userInfo` entry.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
private struct ScoreDidChange: NotificationCenter.MainActorMessage {
  typealias Subject = Scoreboard
  /// The new score.
  let score: Int
}

/// A typed message observed asynchronously.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
private struct ScoreDidSave: NotificationCenter.AsyncMessage {
  typealias Subject = Scoreboard
  /// The score saved.
  let score: Int
}

/// Whether a line or sentence of the docs says the typed messages are Apple's alone.
private func callsTheMessagesAppleOnly(_ text: String) -> Bool {
  let lowered = text.lowercased()
  let aboutTheMessages =
    lowered.contains("mainactormessage") || lowered.contains("typed message")
    || lowered.contains("typed notification")
  let appleOnly =
    lowered.contains("apple only") || lowered.contains("apple-only")
    || lowered.contains("do not ship on linux")
  return aboutTheMessages && appleOnly
}

/// The units the docs' claims are made in: a table row whole, prose split into sentences and
/// the clauses a semicolon separates.
private func claims(in text: String) -> [String] {
  text.components(separatedBy: "\n\n").flatMap { paragraph -> [String] in
    let lines = paragraph.split(separator: "\n").map(String.init)
    if lines.first?.hasPrefix("|") == true { return lines }
    let joined = lines.joined(separator: " ")
    return joined.split(separator: #/\. |; /#).map(String.init)
  }
}

@Suite("Documentation: Foundation's typed notification messages")
struct TypedMessageTests {
  @Test("a MainActorMessage is declared, observed, posted, received, and its observer removed")
  @MainActor
  func mainActorMessage() throws {
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
    let center = NotificationCenter()
    let board = Scoreboard()
    var received: [Int] = []
    let token = center.addObserver(of: board, for: ScoreDidChange.self) { message in
      received.append(message.score)
    }
    center.post(ScoreDidChange(score: 1), subject: board)
    #expect(received == [1])
    center.removeObserver(token)
    center.post(ScoreDidChange(score: 2), subject: board)
    #expect(received == [1], "the observer was removed before 2 was posted")
  }

  @Test("an AsyncMessage is declared, observed, posted and received")
  func asyncMessage() async throws {
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
    let center = NotificationCenter()
    let board = Scoreboard()
    let (scores, continuation) = AsyncStream.makeStream(of: Int.self)
    let token = center.addObserver(of: board, for: ScoreDidSave.self) { message in
      continuation.yield(message.score)
    }
    center.post(ScoreDidSave(score: 7), subject: board)
    var iterator = scores.makeAsyncIterator()
    #expect(await iterator.next() == 7)
    center.removeObserver(token)
  }

  @Test("no chapter and not the README calls the typed messages Apple only")
  func docsDoNotCallThemAppleOnly() throws {
    for document in try MarkdownDocument.all() {
      for claim in claims(in: document.text) where callsTheMessagesAppleOnly(claim) {
        Issue.record("\(document.path): '\(claim)' says the typed messages are Apple only")
      }
    }
  }
}
