// Exercise 10's grading child: what the workshop's checks need of your code, then the checks.
// The workshop builds and runs it; you never need to open it.
import Exercise10
import WorkshopKit

// Your app's model, screen and saver.
extension Exercise10.LatestScores: LatestScoresModel {}
extension Exercise10.ScoresScreen: ScoresScreenModel {}
extension Exercise10.ScoreSaver: ScoreSaverModel {}

GradingChild.run(exercise: 10, screen: ScoresScreen.self, saver: ScoreSaver.self)
