import Foundation
import ObserverScenarios
import Synchronization
import WorkshopKit

// MARK: - Exercise 9: one piece of state outside the Mutex

/// Where a ``MutexButOne`` answer keeps one piece of its state outside the `Mutex`.
enum OutsideTheMutex {
  /// The id counter: two threads adding at once may hand two callbacks the same id.
  case idCounter
  /// The value, in a class box the `Mutex` writes it through, read by the getter with no lock.
  case valueBox
}

/// A box holding a value, written by a ``MutexButOne`` under its lock. Unchecked `Sendable`:
/// that is the mistake of the answer that reads it with none.
final class ValueBox<Value: Sendable>: @unchecked Sendable {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// Exercise 9's solution, generic over its value, behind a `Mutex`, but for one piece of state
/// it keeps outside it (`outside`).
class MutexButOne<Value: Sendable>: @unchecked Sendable {
  // Unchecked only for the mistake: the id counter, or the box's value, outside the Mutex.
  class var outside: OutsideTheMutex { .idCounter }
  typealias Options = WrongOptions

  struct State: Sendable {
    var callbacks: [ThreadedCallback<Value>] = []
    var lastID = 0
  }

  let state = Mutex(State())
  /// The id counter, when the answer keeps it outside the `Mutex`.
  var lastID = 0
  /// The value: written with the `Mutex` locked, read with it locked but by the getter of the
  /// answer that keeps it outside.
  let box: ValueBox<Value>

  required init(_ value: Value) { box = ValueBox(value) }

  var observerCount: Int { state.withLock { $0.callbacks.count } }

  var value: Value {
    get { Self.outside == .valueBox ? box.value : state.withLock { _ in box.value } }
    set {
      let (oldValue, snapshot) = state.withLock { state in
        let oldValue = box.value
        box.value = newValue
        let snapshot = state.callbacks
        state.callbacks.removeAll { $0.observer == nil }
        return (oldValue, snapshot)
      }
      for (value, option) in [(oldValue, WrongOptions.old), (newValue, .new)] {
        for callback in snapshot where callback.options.contains(option) {
          let stored = state.withLock { $0.callbacks.contains { $0.id == callback.id } }
          if stored { callback.closure(value, option) }
        }
      }
    }
  }

  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping @Sendable (Value, WrongOptions) -> Void
  ) {
    var id: Int?
    if Self.outside == .idCounter {
      lastID += 1
      id = lastID
    }
    let (current, replaced) = state.withLock { state in
      let replaced = removeIfExists ? state.callbacks.filter { $0.observer === observer } : []
      if removeIfExists { state.callbacks.removeAll { $0.observer === observer } }
      state.lastID += 1
      state.callbacks.append(
        ThreadedCallback(
          id: id ?? state.lastID, observer: observer, options: options, closure: closure))
      return (box.value, replaced)
    }
    withExtendedLifetime(replaced) {}
    if options.contains(.initial) { closure(current, .initial) }
  }

  func removeObserver(_ observer: AnyObject & Sendable) {
    let removed = state.withLock { state in
      let removed = state.callbacks.filter { $0.observer === observer }
      state.callbacks.removeAll { $0.observer === observer }
      return removed
    }
    withExtendedLifetime(removed) {}
  }
}

/// Counts its callbacks' ids with a counter outside the `Mutex`.
final class IDCountedOutsideTheLock<Value: Sendable>: MutexButOne<Value>, @unchecked Sendable {
  override class var outside: OutsideTheMutex { .idCounter }
}

/// Keeps the value in a class box, written under the `Mutex`, read by the getter with none.
final class BoxReadWithNoLock<Value: Sendable>: MutexButOne<Value>, @unchecked Sendable {
  override class var outside: OutsideTheMutex { .valueBox }
}

extension IDCountedOutsideTheLock: ThreadedObservable {}
extension IDCountedOutsideTheLock: AdaptableObservable, SendableOptionsObservable
where Value == Int {}
extension BoxReadWithNoLock: ThreadedObservable {}
extension BoxReadWithNoLock: AdaptableObservable, SendableOptionsObservable where Value == Int {}

extension WrongAnswer {
  /// Exercise 9's answers above: races only threads at once show.
  static let exercise9Races = [
    WrongAnswer(
      name: "09-id-counted-outside-the-lock", exercise: 9,
      mistake: "each callback's id comes from a counter incremented outside the lock",
      caughtBy: .check(.threadsShareIt),
      evidence: "told apart by nothing|the program crashed",
      code: .exercise(
        9, SendableOptionsAdapter<IDCountedOutsideTheLock<Int>>.self,
        threaded: IDCountedOutsideTheLock<Stamp>.self),
      isRace: true),
    WrongAnswer(
      name: "09-box-read-with-no-lock", exercise: 9,
      mistake: "the value sits in a class box written under the lock, read by the getter with none",
      caughtBy: .check(.valuesSetOnTwoThreads),
      evidence: "half of one|the program crashed",
      code: .exercise(
        9, SendableOptionsAdapter<BoxReadWithNoLock<Int>>.self,
        threaded: BoxReadWithNoLock<Stamp>.self),
      isRace: true),
  ]
}
