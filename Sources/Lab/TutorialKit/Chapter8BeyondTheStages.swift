import Foundation
import Observation

/// A player whose score Swift's Observation tracks.
@Observable
final class Player {
  var score = 0
}

extension Demo {
  /// Chapter 8: the same job done by NotificationCenter and by Swift's Observation.
  func beyondTheStages() {
    notificationCenterScore()
    print("")
    observationScore()
  }

  /// NotificationCenter: a named notification, the value in `userInfo`, removal by token.
  func notificationCenterScore() {
    let center = NotificationCenter()
    let scoreDidChange = Notification.Name("ScoreDidChange")
    let token = center.addObserver(forName: scoreDidChange, object: nil, queue: nil) { note in
      let score = note.userInfo?["score"] as? Int
      print("NotificationCenter delivers score \(score.map(String.init) ?? "missing")")
    }
    center.post(name: scoreDidChange, object: nil, userInfo: ["score": 1])
    center.post(name: scoreDidChange, object: nil, userInfo: ["points": 2])
    center.removeObserver(token)
    center.post(name: scoreDidChange, object: nil, userInfo: ["score": 3])
    print("after removeObserver, nothing for score 3")
  }

  /// Observation: `withObservationTracking` fires once, before the write, with no value.
  func observationScore() {
    let player = Player()
    func track() {
      let score = withObservationTracking {
        player.score
      } onChange: {
        print("onChange: the score is about to change; the closure is not told to what")
      }
      print("tracking reads score \(score)")
    }
    track()
    player.score = 1
    player.score = 2
    print("no onChange for 2: tracking is one-shot until it is armed again")
    track()
    player.score = 3
  }
}
