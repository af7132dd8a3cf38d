import Stage5Concurrency
import Synchronization
import Testing

// Tests of the kind chapter 9 teaches, which links here: real objects, a `weak` reference and a
// `deinit` counter for leaks, the calls recorded in order; no sleeps, no timing. The chapter's
// own app, and its tests, are built outside this package by Chapter9AppTests.

/// How many times the objects given it were deinitialized.
final class DeinitCounter: Sendable {
  private let count = Mutex(0)

  var value: Int { count.withLock { $0 } }

  func increment() { count.withLock { $0 += 1 } }
}

/// A screen of an app on the main actor, which records what it was shown.
@MainActor final class RecordingScreen {
  var shown: [Int] = []
  let deinits: DeinitCounter

  init(deinits: DeinitCounter) {
    self.deinits = deinits
  }

  deinit { deinits.increment() }
}

@Suite("In your app: testing observers")
@MainActor
struct InYourAppTests {
  @Test("a released screen is freed, and its subscription ends with it")
  func releasedScreenIsFreed() {
    let score = Observable(0)
    let deinits = DeinitCounter()
    var screen: RecordingScreen? = RecordingScreen(deinits: deinits)
    weak let released = screen
    score.observe(screen!) { screen, change in screen.shown.append(change.newValue) }
    score.value = 1
    #expect(screen?.shown == [1])

    screen = nil
    #expect(released == nil)
    #expect(deinits.value == 1)
    #expect(score.observerCount == 0)
  }

  @Test("a handler that captures its screen keeps it alive until the token is cancelled")
  func capturedScreenLivesUntilCancel() {
    let score = Observable(0)
    let deinits = DeinitCounter()
    var screen: RecordingScreen? = RecordingScreen(deinits: deinits)
    weak let released = screen
    let token = score.observe { [screen] change in screen?.shown.append(change.newValue) }

    screen = nil
    #expect(released != nil, "the handler holds the screen")
    token.cancel()
    #expect(released == nil, "cancel() released the handler, and the screen with it")
    #expect(deinits.value == 1)
  }

  @Test("observers are called in subscription order, and a cancelled one is called no more")
  func callOrderAndCancel() {
    let score = Observable(0)
    var calls: [String] = []
    let header = score.observe { calls.append("header \($0.newValue)") }
    let label = score.observe { calls.append("label \($0.newValue)") }
    let log = score.observe { calls.append("log \($0.newValue)") }

    score.value = 1
    label.cancel()
    score.value = 2

    #expect(calls == ["header 1", "label 1", "log 1", "header 2", "log 2"])
    header.cancel()
    log.cancel()
  }
}
