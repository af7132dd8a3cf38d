import ObserverScenarios
import WorkshopKit

/// Stage 4's option set, for the wrong answers of exercises 6 to 9.
struct WrongOptions: DeliveryOptions {
  let rawValue: Int
  static let initial = WrongOptions(rawValue: 1)
  static let old = WrongOptions(rawValue: 2)
  static let new = WrongOptions(rawValue: 4)
}

/// Stage 4 with immediate removal (exercise 6's answer); each wrong answer overrides a step.
class OptionsBase {
  struct Callback {
    let id: Int
    weak var observer: AnyObject?
    let options: WrongOptions
    let closure: (Int, WrongOptions) -> Void
  }
  var callbacks: [Callback] = []
  var lastID = 0
  var storedValue: Int
  /// Mistakes over exercises 6 to 8, each a wrong answer turns on: adding removes the
  /// observer's earlier callbacks whatever `removeIfExists` says; an `.initial` call asked for
  /// during a set is made once the set, and every set it queued, is over; the `.initial` call
  /// is made before the callback is stored; a set tells the new value before the old.
  var alwaysRemovesEarlier: Bool { false }
  var delaysInitialDuringSet: Bool { false }
  var callsInitialBeforeStoring: Bool { false }
  var tellsNewBeforeOld: Bool { false }
  private var depth = 0
  private var delayedInitialCalls: [() -> Void] = []
  var value: Int {
    get { storedValue }
    set {
      depth += 1
      set(newValue)
      depth -= 1
      guard depth == 0 else { return }
      let calls = delayedInitialCalls
      delayedInitialCalls = []
      for call in calls { call() }
    }
  }
  var observerCount: Int { callbacks.count }
  init(_ value: Int) { storedValue = value }

  func set(_ newValue: Int) {
    let oldValue = storedValue
    storedValue = newValue
    deliver(old: oldValue, new: newValue)
  }

  func deliver(old: Int, new: Int) {
    callbacks.removeAll { $0.observer == nil }
    let snapshot = callbacks
    if tellsNewBeforeOld { notify(snapshot, of: new, option: .new) }
    notify(snapshot, of: old, option: .old)
    if !tellsNewBeforeOld { notify(snapshot, of: new, option: .new) }
  }

  func notify(_ snapshot: [Callback], of value: Int, option: WrongOptions) {
    for callback in snapshot where callback.options.contains(option) && isStored(callback) {
      callback.closure(value, option)
    }
  }

  func isStored(_ callback: Callback) -> Bool { callbacks.contains { $0.id == callback.id } }

  func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping (Int, WrongOptions) -> Void
  ) {
    if removeIfExists || alwaysRemovesEarlier { removeObserver(observer) }
    if callsInitialBeforeStoring, options.contains(.initial) { closure(storedValue, .initial) }
    lastID += 1
    callbacks.append(Callback(id: lastID, observer: observer, options: options, closure: closure))
    guard options.contains(.initial), !callsInitialBeforeStoring else { return }
    if delaysInitialDuringSet, depth > 0 {
      let value = storedValue
      delayedInitialCalls.append { closure(value, .initial) }
    } else {
      closure(storedValue, .initial)
    }
  }

  func removeObserver(_ observer: AnyObject) { callbacks.removeAll { $0.observer === observer } }
}

// MARK: - Exercise 6: remove at once

/// Looks each callback up by its observer, not by the callback itself.
final class ChecksByObserverIdentity: OptionsBase, OptionsObservable {
  override func isStored(_ callback: Callback) -> Bool {
    callbacks.contains { $0.observer === callback.observer }
  }
}

/// Walks the live list by index, so a removal of an earlier callback skips a later one.
final class LiveListIndexLoop: OptionsBase, OptionsObservable {
  override func notify(_ snapshot: [Callback], of value: Int, option: WrongOptions) {
    var index = 0
    while index < callbacks.count {
      let callback = callbacks[index]
      index += 1
      if callback.options.contains(option) { callback.closure(value, option) }
    }
  }
}

/// Hands out the number of callbacks as the id, so that a callback added after a removal can
/// take the id of one removed, and the lookup by id still finds the removed one.
final class IDFromCallbackCount: OptionsBase, OptionsObservable {
  override func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping (Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    callbacks.append(
      Callback(id: callbacks.count, observer: observer, options: options, closure: closure))
    if options.contains(.initial) { closure(storedValue, .initial) }
  }
}

/// Stops the whole notification once a callback has been removed during it.
final class StopsAfterRemoval: OptionsBase, OptionsObservable {
  var removedDuringNotification = false
  override func notify(_ snapshot: [Callback], of value: Int, option: WrongOptions) {
    removedDuringNotification = false
    for callback in snapshot where callback.options.contains(option) {
      if removedDuringNotification { break }
      callback.closure(value, option)
    }
  }
  override func removeObserver(_ observer: AnyObject) {
    removedDuringNotification = true
    super.removeObserver(observer)
  }
}

extension WrongAnswer {
  static let exercise6 = [
    WrongAnswer(
      name: "06-checks-by-observer-identity", exercise: 6,
      mistake: "a callback counts as stored while its observer has any callback",
      caughtBy: .check(.generatedRemovalsMidSet),
      evidence: "bind B; set 1, and A's closure, told the old value, binds B again → B was "
        + "called with 1 after B's second closure replaced it",
      code: .exercise(6, OptionsAdapter<ChecksByObserverIdentity>.self, isSendable: false)),
    WrongAnswer(
      name: "06-live-list-index-loop", exercise: 6,
      mistake: "the live list is walked by index, so removing an earlier one skips a later one",
      caughtBy: .check(.generatedRemovalsMidSet),
      evidence: "bind B; set 3, and A's closure binds A again → B was not called with 3",
      code: .exercise(6, OptionsAdapter<LiveListIndexLoop>.self, isSendable: false)),
    WrongAnswer(
      name: "06-stops-after-removal", exercise: 6,
      mistake: "a removal during a notification ends the notification",
      caughtBy: .check(.generatedRemovalsMidSet),
      evidence:
        "bind B; set 3, and A's closure binds A again → B was not called with 3",
      code: .exercise(6, OptionsAdapter<StopsAfterRemoval>.self, isSendable: false)),
    WrongAnswer(
      name: "06-id-from-count", exercise: 6,
      mistake: "the id is the count of callbacks, so a callback added after a removal reuses it",
      caughtBy: .check(.generatedRemovalsMidSet),
      evidence: "bind B; set 1, and A's closure, told the old value, binds B again → B was "
        + "called with 1 after B's second closure replaced it",
      code: .exercise(6, OptionsAdapter<IDFromCallbackCount>.self, isSendable: false)),
  ]
}

// MARK: - Exercise 7: queue nested sets

/// Exercise 7's answer: every set queues its change; the outermost one delivers them.
class QueueBase: OptionsBase {
  var pending: [(old: Int, new: Int)] = []
  var isNotifying = false

  override func set(_ newValue: Int) {
    pending.append((storedValue, newValue))
    storedValue = newValue
    guard !isNotifying else { return }
    isNotifying = true
    while let change = next() { deliver(old: change.old, new: change.new) }
    finish()
  }

  func next() -> (old: Int, new: Int)? { pending.isEmpty ? nil : pending.removeFirst() }
  func finish() { isNotifying = false }
}

/// Drains the queue last in, first out.
final class PopLastDrain: QueueBase, OptionsObservable {
  override func next() -> (old: Int, new: Int)? { pending.popLast() }
}

/// A set made during a notification stores the value and delivers nothing.
final class NestedSetDropped: QueueBase, OptionsObservable {
  override func set(_ newValue: Int) {
    guard !isNotifying else {
      storedValue = newValue
      return
    }
    super.set(newValue)
  }
}

/// Keeps one pending change: a second nested set replaces the first.
final class OnePendingSlot: QueueBase, OptionsObservable {
  override func set(_ newValue: Int) {
    if isNotifying {
      pending = [(storedValue, newValue)]
      storedValue = newValue
      return
    }
    super.set(newValue)
  }
}

/// Says the notification is over before the queue is drained, so a set made while a queued
/// change is delivered is delivered at once, inside it.
final class FlagClearedBeforeDrain: QueueBase, OptionsObservable {
  override func set(_ newValue: Int) {
    guard !isNotifying else {
      pending.append((storedValue, newValue))
      storedValue = newValue
      return
    }
    let oldValue = storedValue
    storedValue = newValue
    isNotifying = true
    deliver(old: oldValue, new: newValue)
    isNotifying = false
    while let change = next() { deliver(old: change.old, new: change.new) }
  }
}

/// Never says the notification is over, so later sets are queued for ever.
final class NeverResetsFlag: QueueBase, OptionsObservable {
  override func finish() {}
}

/// Queues the new values only; the old value is read when the change is delivered.
final class OldValueAtDelivery: QueueBase, OptionsObservable {
  override func deliver(old: Int, new: Int) { super.deliver(old: storedValue, new: new) }
}

extension WrongAnswer {
  static let exercise7 = [
    WrongAnswer(
      name: "07-pop-last-drain", exercise: 7, mistake: "the queue is drained with popLast()",
      caughtBy: .check(.generatedNestedSets),
      evidence: "bind B asking for .old; set 4, and A's closure sets 5, and B's closure sets "
        + "5 → B was called with the old value, 5, of a later set, before A was called "
        + "with 5",
      code: .exercise(7, OptionsAdapter<PopLastDrain>.self, isSendable: false)),
    WrongAnswer(
      name: "07-nested-set-dropped", exercise: 7,
      mistake: "a nested set stores the value but is never delivered",
      caughtBy: .check(.generatedNestedSets),
      evidence: "bind A; set 4, and A's closure sets 5 → A was not called with 5",
      code: .exercise(7, OptionsAdapter<NestedSetDropped>.self, isSendable: false)),
    WrongAnswer(
      name: "07-one-pending-slot", exercise: 7,
      mistake: "one pending slot, so a second nested set replaces the first",
      caughtBy: .check(.generatedNestedSets),
      evidence: "A's closure sets 5, and B's closure sets 5 → A was not called with 5",
      code: .exercise(7, OptionsAdapter<OnePendingSlot>.self, isSendable: false)),
    WrongAnswer(
      name: "07-never-resets-flag", exercise: 7,
      mistake: "the notifying flag is never reset",
      caughtBy: .check(.generatedNestedSets),
      evidence: "bind A; set 1; set 1 → A was not called with 1",
      code: .exercise(7, OptionsAdapter<NeverResetsFlag>.self, isSendable: false)),
    WrongAnswer(
      name: "07-old-value-at-delivery", exercise: 7,
      mistake: "a queued change's old value is read when it is delivered",
      caughtBy: .check(.generatedNestedSets),
      evidence: "bind A asking for .old; set 1 → A was handed 1 as the old value, where the set of "
        + "1 replaced 0",
      code: .exercise(7, OptionsAdapter<OldValueAtDelivery>.self, isSendable: false)),
    WrongAnswer(
      name: "07-flag-cleared-before-drain", exercise: 7,
      mistake: "the notifying flag is cleared before the queue is drained",
      caughtBy: .check(.generatedNestedSets),
      evidence: "bind A; set 1, and A's closure sets 3, and B's closure sets 4 → B was called "
        + "with 4 before A was called with 3",
      code: .exercise(7, OptionsAdapter<FlagClearedBeforeDrain>.self, isSendable: false)),
  ]
}

// MARK: - Exercise 8: hand over the owner

/// Stage 4 handing the observer to its handler; how the closure holds it is the mistake.
class HandingBase: OptionsBase {
  func addObserver<Observer: AnyObject>(
    _ observer: Observer, removeIfExists: Bool, options: WrongOptions,
    handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) {
    addObserver(
      observer, removeIfExists: removeIfExists, options: options,
      closure: closure(for: observer, handler))
  }

  func closure<Observer: AnyObject>(
    for observer: Observer, _ handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) -> (Int, WrongOptions) -> Void {
    { [weak observer] value, option in
      guard let observer else { return }
      handler(observer, value, option)
    }
  }
}

/// Captures the observer `unowned`: a call after it is freed traps.
final class UnownedCapture: HandingBase, HandingObservable {
  override func closure<Observer: AnyObject>(
    for observer: Observer, _ handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) -> (Int, WrongOptions) -> Void {
    { [unowned observer] value, option in handler(observer, value, option) }
  }
}

/// Captures the observer weakly, then force-unwraps it.
final class ForceUnwrappedWeak: HandingBase, HandingObservable {
  override func closure<Observer: AnyObject>(
    for observer: Observer, _ handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) -> (Int, WrongOptions) -> Void {
    { [weak observer] value, option in handler(observer!, value, option) }
  }
}

/// Captures weakly, but keeps every observer in a list of its own.
final class KeepsObserversInAList: HandingBase, HandingObservable {
  var observers: [AnyObject] = []
  override func closure<Observer: AnyObject>(
    for observer: Observer, _ handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) -> (Int, WrongOptions) -> Void {
    observers.append(observer)
    return super.closure(for: observer, handler)
  }
}

/// Captures the observer weakly, but cleans up through self when it is gone: the observable
/// keeps a closure that holds the observable.
final class CleanupCapturesSelf: HandingBase, HandingObservable {
  override func closure<Observer: AnyObject>(
    for observer: Observer, _ handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) -> (Int, WrongOptions) -> Void {
    { [weak observer] value, option in
      guard let observer else {
        self.callbacks.removeAll { $0.observer == nil }
        return
      }
      handler(observer, value, option)
    }
  }
}

extension WrongAnswer {
  static let exercise8 = [
    WrongAnswer(
      name: "08-unowned-capture", exercise: 8, mistake: "the closure captures the observer unowned",
      caughtBy: .check(.generatedHandedOwners),
      evidence: "Fatal error: Attempted to read an unowned reference",
      code: .exercise(8, HandingAdapter<UnownedCapture>.self, isSendable: false)),
    WrongAnswer(
      name: "08-force-unwrapped-weak", exercise: 8,
      mistake: "the closure captures weakly, then force-unwraps",
      caughtBy: .check(.generatedHandedOwners),
      evidence: "Fatal error: Unexpectedly found nil while unwrapping an Optional value",
      code: .exercise(8, HandingAdapter<ForceUnwrappedWeak>.self, isSendable: false)),
    WrongAnswer(
      name: "08-keeps-observers-in-a-list", exercise: 8,
      mistake: "every observer is kept in a list, so none is ever freed",
      caughtBy: .scenario(.releasedObserverNotCalled),
      evidence: "the owner was not freed when released",
      code: .exercise(8, HandingAdapter<KeepsObserversInAList>.self, isSendable: false)),
    WrongAnswer(
      name: "08-cleanup-captures-self", exercise: 8,
      mistake: "the closure made for each observer cleans up through self, holding the observable",
      caughtBy: .check(.generatedHandedOwners),
      evidence: "bind A; let the observable go → it was not freed: something it stores holds it",
      code: .exercise(8, HandingAdapter<CleanupCapturesSelf>.self, isSendable: false)),
  ]
}
