import Stage4Options
import WorkshopKit

// Chapter 7's scores, on stage 4: the latest scores, and two observers of them, a screen and a
// saver, that never know of each other. ScoreDisplay (the screen's labels, to be set on the
// main thread only, like UIKit's) and ScoreFile come from the workshop, which reads them to
// grade you.

/// The latest score of each question group, by chapter: what a game sets when it ends.
package final class LatestScores {
  /// The scores, observed by the screen and the saver.
  // TODO: a game may end on any thread. Make this stage 5's Observable.
  package let observable: Observable<[Int: Int]>

  /// Creates the model holding `scores`, as loaded from the save file.
  package init(_ scores: [Int: Int]) {
    observable = Observable(scores)
  }

  /// Sets the latest scores, as a game that ends does: its observers are told.
  package func set(_ scores: [Int: Int]) {
    observable.value = scores
  }
}

/// The question groups screen: shows the latest scores, from the moment it opens until it
/// closes.
package final class ScoresScreen {
  // TODO: its labels must be set on the main thread, wherever the scores were set: make the
  // screen @MainActor, and observe with stage 5's observe(options:isolation:_:).
  private let scores: LatestScores
  private let display: ScoreDisplay

  /// Opens the screen: shows the scores at once, then every change.
  package init(showing scores: LatestScores, on display: ScoreDisplay) {
    self.scores = scores
    self.display = display
    scores.observable.addObserver(self, options: [.initial, .new]) { [weak self] latest, _ in
      self?.display.show(latest)
    }
  }

  /// Closes the screen: it shows nothing more.
  package func close() {
    scores.observable.removeObserver(self)
  }
}

/// Saves every change of the latest scores to a file.
package final class ScoreSaver {
  // TODO: a file may be written from any thread: stage 5's observeOnAnyThread(options:_:).
  private let file: ScoreFile

  /// Starts saving every change of `scores` to `file`.
  package init(saving scores: LatestScores, to file: ScoreFile) {
    self.file = file
    scores.observable.addObserver(self) { [weak self] latest, _ in
      self?.file.save(latest)
    }
  }
}
