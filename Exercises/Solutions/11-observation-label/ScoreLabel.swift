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
    update()
  }

  /// Shows the score and tracks it for the next change: a tracking fires once, so every update
  /// arms the next one.
  private func update() {
    guard isOpen else { return }
    let score = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      // Runs before the write: a score read here would be the old one. Update once the write
      // is done, on the main actor's next turn. Weak: the player keeps this closure until its
      // next change, and must not keep the label.
      Task { @MainActor in self?.update() }
    }
    // What the tracking read: a score set while it is shown is tracked, and shown next.
    display.show(score)
  }

  /// Closes the label: it shows nothing more, though the tracking armed fires once more.
  package func close() {
    isOpen = false
  }
}
