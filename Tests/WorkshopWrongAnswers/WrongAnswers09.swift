import Foundation
import ObserverScenarios
import Synchronization
import WorkshopKit

// MARK: - Exercise 9: Sendable

/// One callback of a `Sendable` observable.
struct SendableCallback: Sendable {
  let id: Int
  weak var observer: (AnyObject & Sendable)?
  let options: WrongOptions
  let closure: @Sendable (Int, WrongOptions) -> Void
}

/// Exercise 6's answer marked `@unchecked Sendable`, with no lock at all.
final class UncheckedNoLock: @unchecked Sendable, SendableOptionsObservable {
  typealias Options = WrongOptions
  var callbacks: [SendableCallback] = []
  var lastID = 0
  var storedValue: Int
  init(_ value: Int) { storedValue = value }
  var observerCount: Int { callbacks.count }
  var value: Int {
    get { storedValue }
    set {
      let oldValue = storedValue
      storedValue = newValue
      callbacks.removeAll { $0.observer == nil }
      let snapshot = callbacks
      for (value, option) in [(oldValue, WrongOptions.old), (newValue, .new)] {
        for callback in snapshot where callback.options.contains(option) {
          if callbacks.contains(where: { $0.id == callback.id }) { callback.closure(value, option) }
        }
      }
    }
  }
  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping @Sendable (Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    lastID += 1
    callbacks.append(
      SendableCallback(id: lastID, observer: observer, options: options, closure: closure))
    if options.contains(.initial) { closure(storedValue, .initial) }
  }
  func removeObserver(_ observer: AnyObject & Sendable) {
    callbacks.removeAll { $0.observer === observer }
  }
}

/// The state behind a `Mutex`, for the answers that lock.
struct LockedState: Sendable {
  var value: Int
  var callbacks: [SendableCallback] = []
  var lastID = 0
}

/// Locks, but holds the lock while the closures run.
final class LockHeldDuringCallbacks: Sendable, SendableOptionsObservable {
  typealias Options = WrongOptions
  let state: Mutex<LockedState>
  init(_ value: Int) { state = Mutex(LockedState(value: value)) }
  var observerCount: Int { state.withLock { $0.callbacks.count } }
  var value: Int {
    get { state.withLock { $0.value } }
    set {
      state.withLock { state in
        let oldValue = state.value
        state.value = newValue
        state.callbacks.removeAll { $0.observer == nil }
        for callback in state.callbacks {
          if callback.options.contains(.old) { callback.closure(oldValue, .old) }
        }
        for callback in state.callbacks where callback.options.contains(.new) {
          callback.closure(newValue, .new)
        }
      }
    }
  }
  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping @Sendable (Int, WrongOptions) -> Void
  ) {
    let value = state.withLock { state in
      if removeIfExists { state.callbacks.removeAll { $0.observer === observer } }
      state.lastID += 1
      state.callbacks.append(
        SendableCallback(id: state.lastID, observer: observer, options: options, closure: closure))
      return state.value
    }
    if options.contains(.initial) { closure(value, .initial) }
  }
  func removeObserver(_ observer: AnyObject & Sendable) {
    state.withLock { $0.callbacks.removeAll { $0.observer === observer } }
  }
}

/// Locks with a recursive lock, held while the closures run: a closure may use the observable
/// on its own thread, but another thread must wait for every closure to return.
final class RecursiveLockHeldDuringCallbacks: @unchecked Sendable, SendableOptionsObservable {
  typealias Options = WrongOptions
  // The lock guards every stored property.
  let lock = NSRecursiveLock()
  var callbacks: [SendableCallback] = []
  var lastID = 0
  var storedValue: Int
  init(_ value: Int) { storedValue = value }
  var observerCount: Int { lock.withLock { callbacks.count } }
  var value: Int {
    get { lock.withLock { storedValue } }
    set {
      lock.withLock {
        let oldValue = storedValue
        storedValue = newValue
        callbacks.removeAll { $0.observer == nil }
        let snapshot = callbacks
        for (value, option) in [(oldValue, WrongOptions.old), (newValue, .new)] {
          for callback in snapshot where callback.options.contains(option) {
            if callbacks.contains(where: { $0.id == callback.id }) {
              callback.closure(value, option)
            }
          }
        }
      }
    }
  }
  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping @Sendable (Int, WrongOptions) -> Void
  ) {
    let value = lock.withLock {
      if removeIfExists { callbacks.removeAll { $0.observer === observer } }
      lastID += 1
      callbacks.append(
        SendableCallback(id: lastID, observer: observer, options: options, closure: closure))
      return storedValue
    }
    if options.contains(.initial) { closure(value, .initial) }
  }
  func removeObserver(_ observer: AnyObject & Sendable) {
    lock.withLock { callbacks.removeAll { $0.observer === observer } }
  }
}

/// Locks the value only; the callbacks are plain stored properties.
final class LocksTheValueOnly: @unchecked Sendable, SendableOptionsObservable {
  typealias Options = WrongOptions
  let locked: Mutex<Int>
  var callbacks: [SendableCallback] = []
  var lastID = 0
  init(_ value: Int) { locked = Mutex(value) }
  var observerCount: Int { callbacks.count }
  var value: Int {
    get { locked.withLock { $0 } }
    set {
      let oldValue = locked.withLock { value in
        defer { value = newValue }
        return value
      }
      callbacks.removeAll { $0.observer == nil }
      let snapshot = callbacks
      for (value, option) in [(oldValue, WrongOptions.old), (newValue, .new)] {
        for callback in snapshot where callback.options.contains(option) {
          if callbacks.contains(where: { $0.id == callback.id }) { callback.closure(value, option) }
        }
      }
    }
  }
  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping @Sendable (Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    lastID += 1
    callbacks.append(
      SendableCallback(id: lastID, observer: observer, options: options, closure: closure))
    if options.contains(.initial) { closure(value, .initial) }
  }
  func removeObserver(_ observer: AnyObject & Sendable) {
    callbacks.removeAll { $0.observer === observer }
  }
}

/// Locks properly, but calls every callback of the snapshot: removal is no longer immediate.
final class SnapshotWithoutRemovalCheck: Sendable, SendableOptionsObservable {
  typealias Options = WrongOptions
  let state: Mutex<LockedState>
  init(_ value: Int) { state = Mutex(LockedState(value: value)) }
  var observerCount: Int { state.withLock { $0.callbacks.count } }
  var value: Int {
    get { state.withLock { $0.value } }
    set {
      let (oldValue, snapshot) = state.withLock { state in
        let oldValue = state.value
        state.value = newValue
        state.callbacks.removeAll { $0.observer == nil }
        return (oldValue, state.callbacks)
      }
      for (value, option) in [(oldValue, WrongOptions.old), (newValue, .new)] {
        for callback in snapshot where callback.options.contains(option) {
          callback.closure(value, option)
        }
      }
    }
  }
  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping @Sendable (Int, WrongOptions) -> Void
  ) {
    let value = state.withLock { state in
      if removeIfExists { state.callbacks.removeAll { $0.observer === observer } }
      state.lastID += 1
      state.callbacks.append(
        SendableCallback(id: state.lastID, observer: observer, options: options, closure: closure))
      return state.value
    }
    if options.contains(.initial) { closure(value, .initial) }
  }
  func removeObserver(_ observer: AnyObject & Sendable) {
    state.withLock { $0.callbacks.removeAll { $0.observer === observer } }
  }
}

/// Locks properly and lets the lock go before every call, but calls or frees one thing with the
/// lock held, as its subclass's `mistake` says.
class LetsGoButOne: @unchecked Sendable {
  // The only stored property is the `Mutex`.
  enum Mistake {
    /// The `.initial` call runs under the lock.
    case initialCall
    /// The callbacks `removeObserver` removes are freed under the lock.
    case removed
    /// The callbacks that adding an observer again replaces are freed under the lock.
    case replaced
    /// The callbacks of released observers are freed under the lock, by a set.
    case dead
  }
  class var mistake: Mistake { .initialCall }

  typealias Options = WrongOptions
  let state: Mutex<LockedState>
  required init(_ value: Int) { state = Mutex(LockedState(value: value)) }
  var observerCount: Int { state.withLock { $0.callbacks.count } }

  /// `callbacks` when the mistake is not `mistake`: kept to be freed after the lock is let go.
  /// Otherwise nothing, so that they are freed with the lock held.
  func keep(_ callbacks: [SendableCallback], unless mistake: Mistake) -> [SendableCallback] {
    Self.mistake == mistake ? [] : callbacks
  }

  var value: Int {
    get { state.withLock { $0.value } }
    set {
      let (oldValue, snapshot, dead) = state.withLock { state in
        let oldValue = state.value
        state.value = newValue
        let dead = state.callbacks.filter { $0.observer == nil }
        state.callbacks.removeAll { $0.observer == nil }
        return (oldValue, state.callbacks, keep(dead, unless: .dead))
      }
      withExtendedLifetime(dead) {}
      for (value, option) in [(oldValue, WrongOptions.old), (newValue, .new)] {
        for callback in snapshot where callback.options.contains(option) {
          if state.withLock({ $0.callbacks.contains { $0.id == callback.id } }) {
            callback.closure(value, option)
          }
        }
      }
    }
  }

  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping @Sendable (Int, WrongOptions) -> Void
  ) {
    let initialUnderLock = Self.mistake == .initialCall && options.contains(.initial)
    let (value, replaced) = state.withLock { state in
      var replaced: [SendableCallback] = []
      if removeIfExists {
        replaced = state.callbacks.filter { $0.observer === observer }
        state.callbacks.removeAll { $0.observer === observer }
      }
      state.lastID += 1
      state.callbacks.append(
        SendableCallback(id: state.lastID, observer: observer, options: options, closure: closure))
      if initialUnderLock { closure(state.value, .initial) }
      return (state.value, keep(replaced, unless: .replaced))
    }
    withExtendedLifetime(replaced) {}
    if options.contains(.initial), !initialUnderLock { closure(value, .initial) }
  }

  func removeObserver(_ observer: AnyObject & Sendable) {
    let removed = state.withLock { state in
      let removed = state.callbacks.filter { $0.observer === observer }
      state.callbacks.removeAll { $0.observer === observer }
      return keep(removed, unless: .removed)
    }
    withExtendedLifetime(removed) {}
  }
}

/// Makes the `.initial` call with the lock held.
final class InitialCallUnderLock: LetsGoButOne, @unchecked Sendable, SendableOptionsObservable {
  override class var mistake: Mistake { .initialCall }
}

/// Frees the callbacks `removeObserver` removes with the lock held.
final class RemovedFreedUnderLock: LetsGoButOne, @unchecked Sendable, SendableOptionsObservable {
  override class var mistake: Mistake { .removed }
}

/// Frees the callbacks an observer added again replaces with the lock held.
final class ReplacedFreedUnderLock: LetsGoButOne, @unchecked Sendable, SendableOptionsObservable {
  override class var mistake: Mistake { .replaced }
}

/// Frees the callbacks of released observers with the lock held, on a set.
final class DeadFreedUnderLock: LetsGoButOne, @unchecked Sendable, SendableOptionsObservable {
  override class var mistake: Mistake { .dead }
}

extension WrongAnswer {
  static let exercise9 = [
    WrongAnswer(
      name: "09-unchecked-no-lock", exercise: 9,
      mistake: "marked @unchecked Sendable, with no lock",
      caughtBy: .check(.threadsShareIt),
      evidence: "threads each|the program crashed",
      code: .exercise(
        9, SendableOptionsAdapter<UncheckedNoLock>.self,
        isSendable: ObservableDesign.isSendable(UncheckedNoLock.self))),
    WrongAnswer(
      name: "09-lock-held-during-callbacks", exercise: 9,
      mistake: "the Mutex is held while the closures run",
      caughtBy: .check(.closureUsesTheObservable),
      evidence: "did not finish within|the program crashed",
      code: .exercise(
        9, SendableOptionsAdapter<LockHeldDuringCallbacks>.self,
        isSendable: ObservableDesign.isSendable(LockHeldDuringCallbacks.self))),
    WrongAnswer(
      name: "09-recursive-lock-held-during-callbacks", exercise: 9,
      mistake: "a recursive lock is held while the closures run",
      caughtBy: .check(.otherThreadDuringClosure),
      evidence: "in vain: a lock was held while the closure ran",
      code: .exercise(
        9, SendableOptionsAdapter<RecursiveLockHeldDuringCallbacks>.self,
        isSendable: ObservableDesign.isSendable(RecursiveLockHeldDuringCallbacks.self))),
    WrongAnswer(
      name: "09-locks-the-value-only", exercise: 9,
      mistake: "only the value is locked; the callbacks are not",
      caughtBy: .check(.threadsShareIt),
      evidence: "threads each|the program crashed",
      code: .exercise(
        9, SendableOptionsAdapter<LocksTheValueOnly>.self,
        isSendable: ObservableDesign.isSendable(LocksTheValueOnly.self))),
    WrongAnswer(
      name: "09-snapshot-without-removal-check", exercise: 9,
      mistake: "every callback of the snapshot is called, removed or not",
      caughtBy: .scenario(.unsubscribeDuringNotification),
      evidence: "observers removed during a notification were still called",
      code: .exercise(
        9, SendableOptionsAdapter<SnapshotWithoutRemovalCheck>.self,
        isSendable: ObservableDesign.isSendable(SnapshotWithoutRemovalCheck.self))),
    WrongAnswer(
      name: "09-initial-call-under-lock", exercise: 9,
      mistake: "the .initial call runs with the lock held",
      caughtBy: .check(.initialCallWithNoLockHeld),
      evidence: "A's .initial call ran: another thread waited",
      code: .exercise(9, SendableOptionsAdapter<InitialCallUnderLock>.self)),
    WrongAnswer(
      name: "09-removed-freed-under-lock", exercise: 9,
      mistake: "removeObserver frees the removed closures with the lock held",
      caughtBy: .check(.capturesFreedWithNoLockHeld),
      evidence: "removeObserver(A) freed what A's closure captured: another thread waited",
      code: .exercise(9, SendableOptionsAdapter<RemovedFreedUnderLock>.self)),
    WrongAnswer(
      name: "09-replaced-freed-under-lock", exercise: 9,
      mistake: "adding an observer again frees its earlier closures with the lock held",
      caughtBy: .check(.capturesFreedWithNoLockHeld),
      evidence: "adding B again, with removeIfExists, freed what B's first closure captured: "
        + "another thread waited",
      code: .exercise(9, SendableOptionsAdapter<ReplacedFreedUnderLock>.self)),
    WrongAnswer(
      name: "09-dead-freed-under-lock", exercise: 9,
      mistake: "a set frees released observers' closures with the lock held",
      caughtBy: .check(.capturesFreedWithNoLockHeld),
      evidence: "a set after C was released freed what C's closure captured: another thread "
        + "waited",
      code: .exercise(9, SendableOptionsAdapter<DeadFreedUnderLock>.self)),
  ]
}
