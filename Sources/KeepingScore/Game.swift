import Foundation
import Stage4Options

/// The "question groups" screen: it shows each group with its latest score.
///
/// It observes the latest score with `.initial`, so it shows a saved score as soon as it opens,
/// and keeps its label up to date as games end.
public final class QuestionGroupsScreen {
  /// The group shown.
  public let title: String
  /// The label beside the group, as the screen shows it now.
  public private(set) var scoreLabel = ""

  /// Creates the screen and starts observing `latestScore`.
  ///
  /// - Parameters:
  ///   - title: The group shown.
  ///   - latestScore: The score to show; `nil` before any game.
  public init(title: String, observing latestScore: Observable<Score?>) {
    self.title = title
    latestScore.addObserver(self, options: [.initial, .new]) { [weak self] score, _ in
      self?.scoreLabel = score.map { "latest score \($0)" } ?? "no score yet"
    }
  }

  /// The screen as lines of text.
  public var lines: [String] {
    ["Question groups", "  \(title): \(scoreLabel)"]
  }
}

/// Saves the latest score whenever it changes, as the book's app did with `UserDefaults`.
public final class ScoreSaver {
  private let store: ScoreStore
  private let warn: (String) -> Void
  private var hasWarned = false

  /// Creates a saver and starts observing `latestScore`.
  ///
  /// - Parameters:
  ///   - store: Where to save.
  ///   - latestScore: The score to save whenever it is set.
  ///   - warn: Called once, with a message, if saving fails; the game goes on.
  public init(
    store: ScoreStore, observing latestScore: Observable<Score?>,
    warn: @escaping (String) -> Void
  ) {
    self.store = store
    self.warn = warn
    latestScore.addObserver(self) { [weak self] score, _ in
      if let score { self?.save(score) }
    }
  }

  private func save(_ score: Score) {
    do {
      try store.save(score)
    } catch {
      if !hasWarned {
        warn("cannot save the score to \(store.url.path); it will be lost when the app ends")
        hasWarned = true
      }
    }
  }
}

/// One run of the keeping-score app: the question groups screen, a game, the screen again.
public struct Game {
  private let group: QuestionGroup
  private let store: ScoreStore
  private let readLine: () -> String?
  private let print: (String) -> Void
  private let warn: (String) -> Void

  /// Creates a run of the app.
  ///
  /// - Parameters:
  ///   - group: The questions to ask.
  ///   - store: Where the latest score is loaded from and saved to.
  ///   - readLine: Returns the player's next line of input, or `nil` at the end of input.
  ///   - print: Shows a line to the player.
  ///   - warn: Reports a problem the app recovers from.
  public init(
    group: QuestionGroup = .observerPattern, store: ScoreStore,
    readLine: @escaping () -> String?, print: @escaping (String) -> Void,
    warn: @escaping (String) -> Void
  ) {
    self.group = group
    self.store = store
    self.readLine = readLine
    self.print = print
    self.warn = warn
  }

  /// Plays one game.
  ///
  /// - Returns: The score, or `nil` if the input ended before the last answer.
  @discardableResult
  public func play() -> Score? {
    let latestScore = Observable<Score?>(loadSavedScore())
    let screen = QuestionGroupsScreen(title: group.title, observing: latestScore)
    let saver = ScoreSaver(store: store, observing: latestScore, warn: warn)
    screen.lines.forEach(print)

    var correct = 0
    for (number, question) in zip(1..., group.questions) {
      print("")
      print("Question \(number) of \(group.questions.count): \(question.prompt)")
      for (letter, choice) in zip(letters, question.choices) {
        print("  \(letter)) \(choice)")
      }
      guard let answer = readAnswer(choices: question.choices.count) else {
        print("")
        print("No more answers: the game stops here, and no score is saved.")
        return nil
      }
      if answer == question.answer {
        correct += 1
        print("Right!")
      } else {
        print("Not quite: it is \(letters[question.answer])) \(question.choices[question.answer]).")
      }
    }

    let score = Score(correct: correct, total: group.questions.count)
    latestScore.value = score
    print("")
    print("Game over: \(score).")
    print("")
    screen.lines.forEach(print)
    withExtendedLifetime(saver) {}
    return score
  }

  private var letters: [String] { ["a", "b", "c", "d", "e", "f"] }

  private func loadSavedScore() -> Score? {
    switch store.load() {
    case .nothing:
      return nil
    case .score(let score):
      return score
    case .unusable(let problem):
      warn("\(problem); starting fresh")
      return nil
    }
  }

  private func readAnswer(choices: Int) -> Int? {
    let valid = Array(letters.prefix(choices))
    while true {
      print("Your answer (\(valid.dropLast().joined(separator: ", ")) or \(valid.last!)):")
      guard let line = readLine() else { return nil }
      let answer = line.trimmingCharacters(in: .whitespaces).lowercased()
      if let index = valid.firstIndex(of: answer) { return index }
      print("Please answer with one letter: \(valid.joined(separator: ", ")).")
    }
  }
}
