import Foundation
import Observation
import WorkshopKit

// MARK: - Exercise 11: a label kept up to date with Observation

/// The player, as the exercise has it: every wrong and right answer below shares it.
@Observable
final class WrongPlayer: ObservedPlayer {
  var name: String
  var score: Int
  init(name: String, score: Int) {
    self.name = name
    self.score = score
  }
}

/// Tracks again in onChange, at once, and shows the score it reads there: the old one.
@MainActor
final class LabelReadingInOnChange: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    display.show(player.score)
    track()
  }
  func track() {
    withObservationTracking {
      _ = player.score
    } onChange: { [weak self] in
      MainActor.assumeIsolated {
        guard let self, self.isOpen else { return }
        self.display.show(self.player.score)
        self.track()
      }
    }
  }
  func close() { isOpen = false }
}

/// Shows the new score on the main actor's next turn, but tracks it once, in its init.
@MainActor
final class LabelTrackingOnce: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    display.show(player.score)
    withObservationTracking {
      _ = player.score
    } onChange: { [weak self] in
      Task { @MainActor in self?.showScore() }
    }
  }
  func showScore() {
    if isOpen { display.show(player.score) }
  }
  func close() { isOpen = false }
}

/// Tracks again on the main actor's next turn, but shows the score it kept when it armed the
/// tracking before: the one the change replaced.
@MainActor
final class LabelShowingAStaleCapture: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  var seen = 0
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    display.show(player.score)
    track()
  }
  func track() {
    seen = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      Task { @MainActor in self?.changed() }
    }
  }
  func changed() {
    guard isOpen else { return }
    display.show(seen)
    track()
  }
  func close() { isOpen = false }
}

/// Tracks the player's name instead of the score: a change of score never fires.
@MainActor
final class LabelTrackingTheName: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    guard isOpen else { return }
    withObservationTracking {
      _ = player.name
    } onChange: { [weak self] in
      Task { @MainActor in self?.update() }
    }
    display.show(player.score)
  }
  func close() { isOpen = false }
}

/// The answer's label, but onChange's task captures the label strongly: the player keeps it
/// until its next change.
@MainActor
final class LabelCapturedStrongly: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    guard isOpen else { return }
    let score = withObservationTracking {
      player.score
    } onChange: {
      Task { @MainActor in self.update() }
    }
    display.show(score)
  }
  func close() { isOpen = false }
}

/// Shows the score, then tracks it again: a score set while the label shows is tracked by
/// nobody, and the label stays on the one before it.
@MainActor
final class LabelShowingThenTracking: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    guard isOpen else { return }
    display.show(player.score)
    withObservationTracking {
      _ = player.score
    } onChange: { [weak self] in
      Task { @MainActor in self?.update() }
    }
  }
  func close() { isOpen = false }
}

/// The answer's label, but close() does nothing: the tracking armed still fires, and the
/// label tracks on.
@MainActor
final class LabelNotStoppingOnClose: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    let score = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      Task { @MainActor in self?.update() }
    }
    display.show(score)
  }
  func close() {}
}

/// Shows the score read in onChange at once, then the new one on the next turn: it ends right,
/// but shows the old score first.
@MainActor
final class LabelShowingOldThenNew: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    guard isOpen else { return }
    let score = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      MainActor.assumeIsolated {
        guard let self, self.isOpen else { return }
        self.display.show(self.player.score)
      }
      Task { @MainActor in self?.update() }
    }
    display.show(score)
  }
  func close() { isOpen = false }
}

/// Checks that the label is open in onChange, when the change comes, and not when the update
/// runs: a label closed in the turn a score is set, after the set, still shows it.
@MainActor
final class LabelCheckingOpenInOnChange: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    let score = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      MainActor.assumeIsolated {
        guard let self, self.isOpen else { return }
        Task { @MainActor [weak self] in self?.update() }
      }
    }
    display.show(score)
  }
  func close() { isOpen = false }
}

/// Captures the label weakly in onChange, but the task it starts holds it strongly until it
/// runs: a label let go in the turn a score is set is kept until the next turn, and shows it.
@MainActor
final class LabelHeldByItsTask: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    guard isOpen else { return }
    let score = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      MainActor.assumeIsolated {
        guard let self else { return }
        Task { @MainActor in self.update() }
      }
    }
    display.show(score)
  }
  func close() { isOpen = false }
}

extension WrongAnswer {
  /// Exercise 11's answers above: mistakes only a label closed or let go in the turn a score is
  /// set shows.
  static let exercise11SameTurn = [
    WrongAnswer(
      name: "11-checks-open-in-on-change", exercise: 11,
      mistake: "the label checks it is open in onChange, not when the update it queues runs",
      caughtBy: .check(.generatedLabels),
      evidence: "in the same turn",
      code: .observedLabel(LabelCheckingOpenInOnChange.self),
      counterexample: "in one turn →"),
    WrongAnswer(
      name: "11-held-by-its-task", exercise: 11,
      mistake: "onChange captures the label weakly, but the task it starts holds it strongly",
      caughtBy: .check(.generatedLabels),
      evidence: "in the turn a score was set, and not freed",
      code: .observedLabel(LabelHeldByItsTask.self),
      counterexample: "go in one turn →"),
  ]
}

extension WrongAnswer {
  static let exercise11 = [
    WrongAnswer(
      name: "11-reads-in-on-change", exercise: 11,
      mistake: "onChange tracks again at once and shows the score it reads there",
      caughtBy: .check(.generatedLabels),
      evidence: "onChange runs before the write",
      code: .observedLabel(LabelReadingInOnChange.self), counterexample: "the score before"),
    WrongAnswer(
      name: "11-tracks-once", exercise: 11,
      mistake: "the score is tracked once, in the label's init",
      caughtBy: .check(.generatedLabels),
      evidence: "A tracking fires once",
      code: .observedLabel(LabelTrackingOnce.self), counterexample: "A tracking fires once"),
    WrongAnswer(
      name: "11-shows-a-stale-capture", exercise: 11,
      mistake: "the label tracks again, but shows the score it kept when it armed the tracking",
      caughtBy: .check(.generatedLabels),
      evidence: "kept from when the tracking was armed",
      code: .observedLabel(LabelShowingAStaleCapture.self), counterexample: "the score before"),
    WrongAnswer(
      name: "11-tracks-the-name", exercise: 11,
      mistake: "the tracking reads the player's name, not the score",
      caughtBy: .check(.generatedLabels),
      evidence: "its tracking never fired",
      code: .observedLabel(LabelTrackingTheName.self), counterexample: "its tracking never fired"),
    WrongAnswer(
      name: "11-captures-the-label-strongly", exercise: 11,
      mistake: "onChange's task captures the label strongly, and the player keeps onChange",
      caughtBy: .check(.generatedLabels),
      evidence: "capture it strongly|capture the label strongly",
      code: .observedLabel(LabelCapturedStrongly.self), counterexample: "not freed"),
    WrongAnswer(
      name: "11-shows-then-tracks", exercise: 11,
      mistake: "the label shows the score, then tracks it again: a score set meanwhile is missed",
      caughtBy: .check(.generatedLabels),
      evidence: "was set while a label showed",
      code: .observedLabel(LabelShowingThenTracking.self),
      counterexample: "was set while a label showed"),
    WrongAnswer(
      name: "11-close-does-not-stop", exercise: 11,
      mistake: "close() does nothing: the label tracks and shows on",
      caughtBy: .check(.generatedLabels),
      evidence: "closed, still showed",
      code: .observedLabel(LabelNotStoppingOnClose.self), counterexample: "closed, still showed"),
    WrongAnswer(
      name: "11-shows-old-then-new", exercise: 11,
      mistake: "onChange shows the score it reads at once, and the new one on the next turn",
      caughtBy: .check(.generatedLabels),
      evidence: "onChange runs before the write",
      code: .observedLabel(LabelShowingOldThenNew.self), counterexample: "the score before"),
  ]
}
