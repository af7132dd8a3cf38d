import Stage5Concurrency
import WorkshopKit

// Chapter 7's scores, on stage 5: the latest scores, and two observers of them, a screen and a
// saver, that never know of each other. ScoreDisplay (the screen's labels, to be set on the
// main thread only, like UIKit's) and ScoreFile come from the workshop, which reads them to
// grade you.

/// The latest score of each question group, by chapter: what a game sets when it ends.
package final class LatestScores: Sendable {
  /// The scores, observed by the screen and the saver. Stage 5's: any thread may set it.
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
@MainActor
package final class ScoresScreen {
  /// Keeps the subscription alive while the screen is open.
  private var token: ObservationToken?

  /// Opens the screen: shows the scores at once, then every change.
  package init(showing scores: LatestScores, on display: ScoreDisplay) {
    // Called on the main actor, so the handler runs on the main actor, wherever the scores
    // were set. It captures the display, not the screen: the screen's token holds it.
    token = scores.observable.observe(options: .initial) { change in
      display.show(change.newValue)
    }
  }

  /// Closes the screen: it shows nothing more.
  package func close() {
    token?.cancel()
    token = nil
  }
}

/// Saves every change of the latest scores to a file.
package final class ScoreSaver: Sendable {
  /// Keeps the subscription alive as long as the saver.
  private let token: ObservationToken

  /// Starts saving every change of `scores` to `file`.
  package init(saving scores: LatestScores, to file: ScoreFile) {
    // A file may be written from any thread: the handler runs where the scores were set.
    token = scores.observable.observeOnAnyThread { change in
      file.save(change.newValue)
    }
  }
}
