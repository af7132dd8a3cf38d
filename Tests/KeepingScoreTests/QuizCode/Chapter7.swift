import KeepingScoreKit
import Stage4Options

extension QuizCode {
  static func chapter7(_ print: @escaping @Sendable (Any) -> Void) {
    let scores = Observable(Scores([7: Score(correct: 3, total: 4)]))
    let screen = QuestionGroupsScreen(
      groups: [QuestionGroup.numbered(7)!], observing: scores)
    print(screen.scoreLabels[7]!)
    scores.value = Scores([7: Score(correct: 4, total: 4)])
    print(screen.scoreLabels[7]!)
  }
}
