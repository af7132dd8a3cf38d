import Observation
import WorkshopKit

// A player's score and a label that shows it: the player is an @Observable class, and the label
// keeps up with it through withObservationTracking, as chapter 8 measured it. LabelDisplay (the
// label's text, to be set on the main actor only, like a UILabel's) comes from the workshop,
// which reads it to grade you.

/// A player, whose score a game sets on the main actor.
@Observable
package final class Player {
  /// The player's name, which the label does not show.
  package var name: String
  /// The score the label shows.
  package var score: Int

  /// A player called `name`, with `score`.
  package init(name: String, score: Int) {
    self.name = name
    self.score = score
  }
}

/// The score label: shows the player's latest score, from the moment it opens until it closes.
@MainActor
package final class ScoreLabel {
  private let player: Player
  private let display: LabelDisplay
  private var isOpen = true

  /// Opens the label: shows the score at once, then the latest score after every change.
  package init(showing player: Player, on display: LabelDisplay) {
    self.player = player
    self.display = display
    display.show(player.score)
    // TODO: the label shows the score before each change, and hears only the first change:
    // onChange runs before the new score is stored, and a tracking fires once. A score set
    // while the label shows one (the display may set it) must be shown too.
    withObservationTracking {
      _ = player.score
    } onChange: { [weak self] in
      // onChange runs on the thread that sets the score: the main actor, here.
      MainActor.assumeIsolated { self?.showScore() }
    }
  }

  /// Shows the player's score, while the label is open.
  private func showScore() {
    guard isOpen else { return }
    display.show(player.score)
  }

  /// Closes the label: it shows nothing more.
  package func close() {
    isOpen = false
  }
}
