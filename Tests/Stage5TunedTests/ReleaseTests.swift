import Synchronization
import Testing

#if TUNED
  import Stage5Tuned
#else
  import Stage5Concurrency
#endif

/// What a `deinit` does to the observable that was holding the object it ends.
enum DeinitTouch: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case reads, sets, observes, cancels

  var testDescription: String { rawValue }
}

/// What happened in one `deinit`.
struct DeinitReport: Equatable, Sendable {
  /// Whether the observable's lock was held at that moment (by this thread, the only one).
  var lockWasHeld: Bool
  /// Whether the touch ran; skipped when the lock was held, where it would trap.
  var touched: Bool
}

/// An object of the user's whose `deinit` touches the observable that held it or its handler:
/// the session of the issue that found the crash.
final class Session: Sendable {
  let observable: Observable<Session?>
  let touch: DeinitTouch
  let reports: SharedLog<DeinitReport>
  /// A subscription a `.cancels` touch ends.
  let victim = Locked<ObservationToken?>(nil)

  init(_ observable: Observable<Session?>, touch: DeinitTouch, reports: SharedLog<DeinitReport>) {
    self.observable = observable
    self.touch = touch
    self.reports = reports
  }

  deinit {
    guard !observable._isLocked else {
      reports.append(DeinitReport(lockWasHeld: true, touched: false))
      return
    }
    switch touch {
    case .reads: _ = observable.value
    case .sets: observable.value = nil
    case .observes: observable.observeOnAnyThread(options: .initial) { _ in }.cancel()
    case .cancels: victim.withLock { $0 }?.cancel()
    }
    reports.append(DeinitReport(lockWasHeld: false, touched: true))
  }
}

/// Each place where an observable could drop the last reference to something of the user's:
/// every one must do it with the lock released, so that a `deinit` may use the observable.
@Suite("Stage 5: nothing of the user's is released while the lock is held")
struct ReleaseTests {
  private static let clean = [DeinitReport(lockWasHeld: false, touched: true)]

  /// A `Session?` observable, which holds sessions strongly, and a fresh log.
  private func fixture() -> (Observable<Session?>, SharedLog<DeinitReport>) {
    (Observable<Session?>(nil), SharedLog<DeinitReport>())
  }

  @Test("the value replaced by a set (the issue's crash)", arguments: DeinitTouch.allCases)
  func replacedValue(touch: DeinitTouch) {
    let (observable, reports) = fixture()
    let token = observable.observeOnAnyThread { _ in }
    observable.value = Session(observable, touch: touch, reports: reports)
    observable.value = nil
    #expect(reports.entries == Self.clean)
    withExtendedLifetime(token) {}
  }

  @Test("the value replaced by a set, with no observer at all", arguments: DeinitTouch.allCases)
  func replacedValueWithoutObservers(touch: DeinitTouch) {
    let (observable, reports) = fixture()
    observable.value = Session(observable, touch: touch, reports: reports)
    observable.value = nil
    #expect(reports.entries == Self.clean)
  }

  @Test("old and new values of queued changes", arguments: DeinitTouch.allCases)
  func queuedChanges(touch: DeinitTouch) {
    let (observable, reports) = fixture()
    let queuedOnce = Locked(false)
    let token = observable.observeOnAnyThread { change in
      guard change.newValue != nil, !queuedOnce.withLock({ $0 }) else { return }
      queuedOnce.withLock { $0 = true }
      // Both sets are queued behind this delivery: the session rides in them, old and new.
      observable.value = Session(observable, touch: touch, reports: reports)
      observable.value = nil
    }
    observable.value = Session(observable, touch: .reads, reports: SharedLog())
    observable.value = nil
    #expect(reports.entries == Self.clean)
    withExtendedLifetime(token) {}
  }

  @Test("what a handler captured, when its token is cancelled", arguments: DeinitTouch.allCases)
  func cancelledTokenCaptures(touch: DeinitTouch) {
    let (observable, reports) = fixture()
    var captured: Session? = Session(observable, touch: touch, reports: reports)
    let other = observable.observeOnAnyThread { _ in }
    captured!.victim.withLock { $0 = other }
    var token: ObservationToken? = observable.observeOnAnyThread { [captured] _ in _ = captured }
    captured = nil
    token!.cancel()
    token = nil
    #expect(reports.entries == Self.clean)
  }

  @Test("what a handler captured, when its owner observes again", arguments: DeinitTouch.allCases)
  func replacedOwnerSubscription(touch: DeinitTouch) {
    let (observable, reports) = fixture()
    let owner = Owner("screen", deinits: SharedLog())
    var captured: Session? = Session(observable, touch: touch, reports: reports)
    observable.observeOnAnyThread(owner) { [captured] _, _ in _ = captured }
    captured = nil
    observable.observeOnAnyThread(owner) { _, _ in }
    #expect(reports.entries == Self.clean)
  }

  @Test("what a handler captured, when removeObserver ends it", arguments: DeinitTouch.allCases)
  func removedOwnerSubscription(touch: DeinitTouch) {
    let (observable, reports) = fixture()
    let owner = Owner("screen", deinits: SharedLog())
    var captured: Session? = Session(observable, touch: touch, reports: reports)
    observable.observeOnAnyThread(owner) { [captured] _, _ in _ = captured }
    captured = nil
    observable.removeObserver(owner)
    #expect(reports.entries == Self.clean)
  }

  @Test("what a handler captured, once its owner is gone", arguments: DeinitTouch.allCases)
  func goneOwnerSubscription(touch: DeinitTouch) {
    let (observable, reports) = fixture()
    var owner: Owner? = Owner("screen", deinits: SharedLog())
    var captured: Session? = Session(observable, touch: touch, reports: reports)
    observable.observeOnAnyThread(owner!) { [captured] _, _ in _ = captured }
    captured = nil
    owner = nil
    _ = observable.observerCount
    observable.value = nil
    #expect(reports.entries == Self.clean)
  }

  @Test("what handlers captured, when removal compacts the list", arguments: DeinitTouch.allCases)
  func compactedSubscriptions(touch: DeinitTouch) {
    let (observable, reports) = fixture()
    let owners = (0..<40).map { Owner("owner \($0)", deinits: SharedLog()) }
    for (index, owner) in owners.enumerated() {
      let captured = index == 0 ? Session(observable, touch: touch, reports: reports) : nil
      observable.observeOnAnyThread(owner) { [captured] _, _ in _ = captured }
    }
    for owner in owners.prefix(30) {
      observable.removeObserver(owner)
    }
    #if TUNED  // The lesson removes at once; the tuned module leaves slots to compact.
      #expect(observable._slotCount < 40, "the list was compacted")
    #endif
    #expect(reports.entries == Self.clean)
  }

  @Test(
    "a queued initial value's subscription, whose token is dropped before its turn",
    arguments: DeinitTouch.allCases)
  func queuedInitialSubscription(touch: DeinitTouch) {
    let (observable, reports) = fixture()
    let once = Locked(false)
    let token = observable.observeOnAnyThread { _ in
      guard !once.withLock({ $0 }) else { return }
      once.withLock { $0 = true }
      let captured = Session(observable, touch: touch, reports: reports)
      // Queued behind this delivery, then dropped: the queue holds the last reference.
      _ = observable.observeOnAnyThread(options: .initial) { [captured] _ in _ = captured }
    }
    observable.value = nil
    #expect(reports.entries == Self.clean)
    withExtendedLifetime(token) {}
  }
}
