import Stage5Concurrency

/// The label of the tutorial's running example, as a Swift 6 app writes it: on the main actor.
@MainActor final class MainActorScoreLabel {
  var text = ""
}

/// A screen on the main actor that shows a score: stage 5 calls its handler on the main actor.
@MainActor final class MainActorScreen {
  let label = MainActorScoreLabel()
  let score = Observable(0)

  func start() {
    score.observe(label, options: .initial) { label, change in
      label.text = "\(change.newValue)"
    }
  }
}
