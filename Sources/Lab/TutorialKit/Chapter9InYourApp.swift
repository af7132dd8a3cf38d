import Stage5Concurrency

/// A view of an app that shows the score: on the main actor, as a Swift 6 app's views are.
@MainActor final class ScoreView {
  let name: String

  init(_ name: String) {
    self.name = name
  }
}

extension Demo {
  /// Chapter 9: stage 5 in an app's main-actor code, and the three things its tests check:
  /// call order, cancel, and a released view freed with its subscription.
  func inYourApp() {
    MainActor.assumeIsolated {
      let score = Observable(0)
      var header: ScoreView? = ScoreView("header")
      weak let releasedHeader = header
      score.observe(header!, options: .initial) { view, change in
        print("\(view.name) shows \(change.newValue)")
      }
      let badge = ScoreView("badge")
      score.observe(badge) { view, change in
        print("\(view.name) shows \(change.newValue)")
      }
      let log = score.observe { change in
        print("log records \(change.newValue)")
      }

      print("-- one set: every observer, in subscription order, before the setter returns --")
      score.value = 1

      print("-- the log is cancelled: it is not called again --")
      log.cancel()
      score.value = 2

      print("-- the header is released: it is freed, and its subscription ends with it --")
      header = nil
      print("header freed: \(releasedHeader == nil), observers left: \(score.observerCount)")
      score.value = 3
    }
  }
}
