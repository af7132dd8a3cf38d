import CommandSupport
import Foundation
import Stage4Options
import Support

/// The "question groups" screen: every group, each with its latest score.
///
/// It observes the scores with `.initial`, so it shows the saved scores as soon as it opens,
/// and keeps its labels up to date as games end.
package final class QuestionGroupsScreen {
  package let groups: [QuestionGroup]
  /// The label beside each group, by group number, as the screen shows it now.
  package private(set) var scoreLabels: [TutorialChapter.Number: String] = [:]

  /// Creates the screen and starts observing `latestScores`.
  package init(groups: [QuestionGroup], observing latestScores: Observable<Scores>) {
    self.groups = groups
    latestScores.addObserver(self, options: [.initial, .new]) { [weak self] scores, _ in
      guard let self else { return }
      for group in self.groups {
        self.scoreLabels[group.number] =
          scores[group: group.number].map { "latest score \($0)" } ?? "no score yet"
      }
    }
  }

  /// The screen as lines of text.
  package var lines: [String] {
    ["Question groups"]
      + groups.map { "  \($0.number). \($0.title): \(scoreLabels[$0.number] ?? "")" }
  }
}

/// Saves the scores whenever they change, as the book's app did with `UserDefaults`.
///
/// It saves only the groups whose scores changed since it last saved, and the store merges them
/// into the file as it is then: a game played at the same time in another process keeps its
/// score.
package final class ScoreSaver {
  private let store: ScoreStore
  private let warn: (String) -> Void
  private var hasWarned: Bool
  /// The scores as the file had them, as far as this saver knows.
  private var saved: Scores

  /// Creates a saver and starts observing `latestScores`. `warn` is called with a message when
  /// the file was moved aside before it was replaced, and once if saving fails, with why; the
  /// game goes on. What the loading already said is not said again: `failureReported` when it
  /// said that no score is saved.
  package init(
    store: ScoreStore, observing latestScores: Observable<Scores>,
    failureReported: Bool = false, warn: @escaping (String) -> Void
  ) {
    self.store = store
    self.warn = warn
    self.hasWarned = failureReported
    self.saved = latestScores.value
    latestScores.addObserver(self) { [weak self] scores, _ in
      self?.save(scores)
    }
  }

  private func save(_ scores: Scores) {
    let changes = scores.byGroup.filter { saved[group: $0.key] != $0.value }
    do {
      if let notice = try store.save(Scores(changes)) { warn(notice) }
      saved = scores
    } catch {
      if !hasWarned {
        warn(
          "cannot save the scores to \(store.url.path): \(reason(of: error)); they "
            + "will be lost when the app ends")
        hasWarned = true
      }
    }
  }
}

/// One run of the keeping-score app: the question groups screen, a game, the screen again.
package struct Game {
  private let store: ScoreStore
  private let readLine: () -> String?
  private let print: (String) -> Void
  private let warn: (String) -> Void
  private let shuffler: ChoiceShuffler

  /// A run that reads the player's lines with `readLine` (`nil` at the end of input), shows
  /// lines with `print`, and reports a problem it recovers from with `warn`.
  package init(
    store: ScoreStore, shuffler: ChoiceShuffler = ChoiceShuffler(),
    readLine: @escaping () -> String?, print: @escaping (String) -> Void,
    warn: @escaping (String) -> Void
  ) {
    self.store = store
    self.shuffler = shuffler
    self.readLine = readLine
    self.print = print
    self.warn = warn
  }

  /// Shows the question groups screen, then plays one game of `group`; without one, asks which
  /// group to play first.
  ///
  /// - Returns: The score, or `nil` if no group was chosen or the input ended before the last
  ///   answer.
  @discardableResult
  package func play(_ group: QuestionGroup? = nil) -> Score? {
    let (saved, failureReported) = loadSavedScores()
    let latestScores = Observable(saved)
    let screen = QuestionGroupsScreen(groups: QuestionGroup.all, observing: latestScores)
    screen.lines.forEach(print)
    guard let group = group ?? chooseGroup() else { return nil }
    let saver = ScoreSaver(
      store: store, observing: latestScores, failureReported: failureReported, warn: warn)
    print("")
    print("\(group.number). \(group.title)")
    var correct = 0
    let orders = shuffler.shuffle(group)
    for (number, (question, (choices, right))) in zip(1..., zip(group.questions, orders)) {
      print("")
      print("Question \(number) of \(group.questions.count): \(question.prompt)")
      if let code = question.code {
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
          print("    \(line)")
        }
      }
      for (letter, choice) in zip(letters, choices) {
        print("  \(letter)) \(choice)")
      }
      guard let answer = readAnswer(choices: choices.count) else {
        print("")
        print("No more answers: the game stops here, and no score is saved.")
        return nil
      }
      if answer == right {
        correct += 1
        print("Right! \(question.explanation)")
      } else {
        print(
          "Not quite: it is \(letters[right])) \(question.rightAnswer). \(question.explanation)")
      }
    }

    let score = Score(correct: correct, total: group.questions.count)
    latestScores.value[group: group.number] = score
    print("")
    print("Game over: \(score).")
    print("")
    screen.lines.forEach(print)
    withExtendedLifetime(saver) {}
    return score
  }

  private var letters: [String] { ["a", "b", "c", "d", "e", "f"] }

  private func chooseGroup() -> QuestionGroup? {
    print("")
    while true {
      print("Which group? (\(QuestionGroup.numberRange); an empty line quits):")
      guard let line = readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
        return nil
      }
      if let number = TutorialChapter.Number(line), let group = QuestionGroup.numbered(number) {
        return group
      }
      print("Please answer with a group number from \(QuestionGroup.numberRange).")
    }
  }

  /// The saved scores, and whether the warning about them already said that no score can be
  /// saved, so that the problem is one line.
  private func loadSavedScores() -> (Scores, failureReported: Bool) {
    switch store.load() {
    case .nothing:
      return (Scores(), false)
    case .scores(let scores):
      return (scores, false)
    case .setAside(let problem, let aside):
      warn("\(problem); it is kept as \(aside.path), and the game starts fresh")
      return (Scores(), false)
    case .unusable(let problem):
      warn("\(problem); starting fresh")
      return (Scores(), true)
    }
  }

  private func readAnswer(choices: Int) -> Int? {
    let valid = Array(letters.prefix(choices))
    while true {
      print("Your answer (\(valid.dropLast().joined(separator: ", ")) or \(valid.last ?? "")):")
      guard let line = readLine() else { return nil }
      let answer = line.trimmingCharacters(in: .whitespaces).lowercased()
      if let index = valid.firstIndex(of: answer) { return index }
      print("Please answer with one letter: \(valid.joined(separator: ", ")).")
    }
  }
}
