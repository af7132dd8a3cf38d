// Exercise 11's grading child: what the workshop's checks need of your code, then the checks.
// The workshop builds and runs it; you never need to open it.
import Exercise11
import WorkshopKit

// Your app's player and score label.
extension Exercise11.Player: ObservedPlayer {}
extension Exercise11.ScoreLabel: ScoreLabelModel {}

GradingChild.run(exercise: 11, label: ScoreLabel.self)
