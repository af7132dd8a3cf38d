import Foundation
import ObserverScenarios
import WorkshopKit

// MARK: - Exercise 9, with values of any type

/// One callback of exercise 9's observable of any value.
struct ThreadedCallback<Value: Sendable>: Sendable {
  let id: Int
  weak var observer: (AnyObject & Sendable)?
  let options: WrongOptions
  let closure: @Sendable (Value, WrongOptions) -> Void
}

/// Where a ``LockedButOnce`` answer slips: a value out of its lock, or a lock held or split
/// where it must not be.
enum Slip {
  /// The getter reads the stored value with no lock.
  case readWithNoLock
  /// A set reads the old value under one lock and stores the new one under another.
  case oldReadUnderAnotherLock
  /// Each callback is handed the value read at its turn, under the lock, not the one set.
  case readAgainPerCallback
  /// Adding an observer also drops the dead callbacks, and frees them with the lock held.
  case dropsDeadOnAdd
  /// Adding an observer again removes its callbacks under one lock and appends under another.
  case replacesUnderTwoLocks
  /// Adding an observer always replaces its callbacks, whatever `removeIfExists` says.
  case alwaysReplaces
}

/// Exercise 9's solution, generic over its value as the exercise's is, with an `NSLock`, and
/// one slip (`slip`) of the value out of the lock, or none (`nil`: a right answer). Integers
/// hide a slip from every check that sets them; wide values set from two threads show it.
class LockedButOnce<Value: Sendable>: @unchecked Sendable {
  class var slip: Slip? { .readWithNoLock }
  typealias Options = WrongOptions
  // The lock guards every stored property below it, but for the slip.
  let lock = NSLock()
  var callbacks: [ThreadedCallback<Value>] = []
  var lastID = 0
  var storedValue: Value
  required init(_ value: Value) { storedValue = value }
  var observerCount: Int { lock.withLock { callbacks.count } }
  var value: Value {
    get { Self.slip == .readWithNoLock ? storedValue : lock.withLock { storedValue } }
    set {
      var oldValue: Value?
      if Self.slip == .oldReadUnderAnotherLock { oldValue = lock.withLock { storedValue } }
      let (replaced, snapshot) = lock.withLock {
        let replaced = storedValue
        storedValue = newValue
        let snapshot = callbacks
        callbacks.removeAll { $0.observer == nil }
        return (replaced, snapshot)
      }
      for option in [WrongOptions.old, .new] {
        for callback in snapshot where callback.options.contains(option) {
          let stored = lock.withLock { callbacks.contains { $0.id == callback.id } }
          guard stored else { continue }
          if option == .old {
            callback.closure(oldValue ?? replaced, .old)
          } else {
            callback.closure(Self.slip == .readAgainPerCallback ? value : newValue, .new)
          }
        }
      }
    }
  }
  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping @Sendable (Value, WrongOptions) -> Void
  ) {
    let replacing = removeIfExists || Self.slip == .alwaysReplaces
    if replacing, Self.slip == .replacesUnderTwoLocks { removeObserver(observer) }
    let (current, replaced) = lock.withLock {
      if Self.slip == .dropsDeadOnAdd { callbacks.removeAll { $0.observer == nil } }
      let replacingHere = replacing && Self.slip != .replacesUnderTwoLocks
      let replaced = replacingHere ? callbacks.filter { $0.observer === observer } : []
      if replacingHere { callbacks.removeAll { $0.observer === observer } }
      lastID += 1
      callbacks.append(
        ThreadedCallback(id: lastID, observer: observer, options: options, closure: closure))
      return (storedValue, replaced)
    }
    withExtendedLifetime(replaced) {}
    if options.contains(.initial) {
      closure(current, .initial)
    }
  }
  func removeObserver(_ observer: AnyObject & Sendable) {
    let removed = lock.withLock {
      let removed = callbacks.filter { $0.observer === observer }
      callbacks.removeAll { $0.observer === observer }
      return removed
    }
    withExtendedLifetime(removed) {}
  }
}

/// Keeps the value outside the lock: written under it, read by the getter with none.
final class ValueReadWithNoLock<Value: Sendable>: LockedButOnce<Value>, @unchecked Sendable {
  override class var slip: Slip? { .readWithNoLock }
}

/// Reads the old value under one lock and stores the new one under another.
final class OldReadUnderAnotherLock<Value: Sendable>: LockedButOnce<Value>, @unchecked Sendable {
  override class var slip: Slip? { .oldReadUnderAnotherLock }
}

/// Hands each callback the value read at its turn, under the lock, not the value set.
final class ValueReadAgainPerCallback<Value: Sendable>: LockedButOnce<Value>, @unchecked Sendable {
  override class var slip: Slip? { .readAgainPerCallback }
}

/// Drops the dead callbacks when an observer is added too, freeing them with the lock held.
final class DropsDeadOnAdd<Value: Sendable>: LockedButOnce<Value>, @unchecked Sendable {
  override class var slip: Slip? { .dropsDeadOnAdd }
}

/// Replaces an observer's callbacks by removing them under one lock and appending under another.
final class ReplacesUnderTwoLocks<Value: Sendable>: LockedButOnce<Value>, @unchecked Sendable {
  override class var slip: Slip? { .replacesUnderTwoLocks }
}

/// Replaces an observer's callbacks even when asked not to, with `removeIfExists: false`.
final class AlwaysReplaces<Value: Sendable>: LockedButOnce<Value>, @unchecked Sendable {
  override class var slip: Slip? { .alwaysReplaces }
}

extension ValueReadWithNoLock: ThreadedObservable {}
extension ValueReadWithNoLock: AdaptableObservable, SendableOptionsObservable where Value == Int {}
extension OldReadUnderAnotherLock: ThreadedObservable {}
extension OldReadUnderAnotherLock: AdaptableObservable, SendableOptionsObservable
where Value == Int {}
extension ValueReadAgainPerCallback: ThreadedObservable {}
extension ValueReadAgainPerCallback: AdaptableObservable, SendableOptionsObservable
where Value == Int {}
extension DropsDeadOnAdd: ThreadedObservable {}
extension DropsDeadOnAdd: AdaptableObservable, SendableOptionsObservable where Value == Int {}
extension ReplacesUnderTwoLocks: ThreadedObservable {}
extension ReplacesUnderTwoLocks: AdaptableObservable, SendableOptionsObservable
where Value == Int {}
extension AlwaysReplaces: ThreadedObservable {}
extension AlwaysReplaces: AdaptableObservable, SendableOptionsObservable where Value == Int {}

extension WrongAnswer {
  /// Exercise 9's answers above: slips that show with wide values set on two threads, with
  /// threads adding at once, or with a dead callback dropped by an add.
  static let exercise9Values = [
    WrongAnswer(
      name: "09-value-read-with-no-lock", exercise: 9,
      mistake:
        "the value is written under the lock but read, by the getter and .initial, with none",
      caughtBy: .check(.valuesSetOnTwoThreads),
      evidence: "half of one|the program crashed",
      code: .exercise(
        9, SendableOptionsAdapter<ValueReadWithNoLock<Int>>.self,
        threaded: ValueReadWithNoLock<Stamp>.self),
      isRace: true),
    WrongAnswer(
      name: "09-old-read-under-another-lock", exercise: 9,
      mistake: "a set reads the old value under one lock and stores the new one under another",
      caughtBy: .check(.valuesSetOnTwoThreads),
      evidence: "as the old value",
      code: .exercise(
        9, SendableOptionsAdapter<OldReadUnderAnotherLock<Int>>.self,
        threaded: OldReadUnderAnotherLock<Stamp>.self),
      isRace: true),
    WrongAnswer(
      name: "09-value-read-again-per-callback", exercise: 9,
      mistake: "each callback is handed the value read under the lock at its turn, not the one set",
      caughtBy: .check(.valuesSetOnTwoThreads),
      evidence: "not the value read again|was never called with",
      code: .exercise(
        9, SendableOptionsAdapter<ValueReadAgainPerCallback<Int>>.self,
        threaded: ValueReadAgainPerCallback<Stamp>.self),
      isRace: true),
    WrongAnswer(
      name: "09-drops-dead-on-add-under-lock", exercise: 9,
      mistake: "adding an observer drops the dead callbacks too, and frees them with the lock held",
      caughtBy: .check(.capturesFreedWithNoLockHeld),
      evidence: "after D was released, adding E freed what D's closure captured: another thread",
      code: .exercise(
        9, SendableOptionsAdapter<DropsDeadOnAdd<Int>>.self, threaded: DropsDeadOnAdd<Stamp>.self)),
    WrongAnswer(
      name: "09-replaces-under-two-locks", exercise: 9,
      mistake:
        "adding an observer again removes its callbacks under one lock, appends under another",
      caughtBy: .check(.threadsShareIt), evidence: "again at once",
      code: .exercise(
        9, SendableOptionsAdapter<ReplacesUnderTwoLocks<Int>>.self,
        threaded: ReplacesUnderTwoLocks<Stamp>.self),
      isRace: true),
    WrongAnswer(
      name: "09-always-replaces", exercise: 9,
      mistake: "adding an observer replaces its callbacks even with removeIfExists: false",
      caughtBy: .check(.generatedSendableOnOneThread), evidence: "→",
      code: .exercise(
        9, SendableOptionsAdapter<AlwaysReplaces<Int>>.self, threaded: AlwaysReplaces<Stamp>.self),
      counterexample: "removeIfExists: false|beside"),
  ]
}
