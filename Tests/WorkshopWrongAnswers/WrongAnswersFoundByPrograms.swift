import ObserverScenarios
import Synchronization
import WorkshopKit

// Wrong answers of the kinds the fixed checks did not try: the list changing while a set walks
// it, who holds whom, a queued change delivered from a stale snapshot. Each was written first,
// then graded: the named checks pass every one; the generated programs catch it.

// MARK: - Exercise 1

/// Walks the live array by index: a closure that removes itself makes the walk skip the next.
final class WalksLiveEntriesByIndex: RemovableClosuresObservable {
  private var entries: [RemovableBase.Entry] = []
  private var lastID = 0
  var value: Int {
    didSet {
      var index = 0
      while index < entries.count {
        entries[index].observer(value)
        index += 1
      }
    }
  }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: @escaping (Int) -> Void) -> Int {
    lastID += 1
    entries.append(RemovableBase.Entry(id: lastID, observer: observer))
    return lastID
  }
  func removeObserver(_ id: Int) { entries.removeAll { $0.id == id } }
}

/// Defers a removal made during a set, and forgets it once the set is over.
final class DefersRemovalDuringSet: RemovableBase, RemovableClosuresObservable {
  private var isNotifying = false
  private var deferred: [Int] = []
  override var value: Int {
    willSet { isNotifying = true }
    didSet {
      isNotifying = false
      deferred = []
    }
  }
  func removeObserver(_ id: Int) {
    if isNotifying {
      deferred.append(id)
    } else {
      entries.removeAll { $0.id == id }
    }
  }
}

// MARK: - Exercise 2

/// Walks the live order by index: a key removed during a set makes the walk skip the next.
final class WalksLiveKeysByIndex: KeyedObservable {
  private var observers: [String: (Int) -> Void] = [:]
  private var keys: [String] = []
  var value: Int {
    didSet {
      var index = 0
      while index < keys.count {
        observers[keys[index]]?(value)
        index += 1
      }
    }
  }
  var observerCount: Int { observers.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if observers.updateValue(observer, forKey: key) == nil { keys.append(key) }
  }
  func removeObserver(forKey key: String) {
    observers[key] = nil
    keys.removeAll { $0 == key }
  }
}

/// Leaves a key removed during a set in the order, meaning to take it out after the set, and
/// never does.
final class RemovalDuringSetLeavesKey: KeyedBase, KeyedObservable {
  private var isNotifying = false
  override var value: Int {
    willSet { isNotifying = true }
    didSet { isNotifying = false }
  }
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if observers.updateValue(observer, forKey: key) == nil { keys.append(key) }
  }
  func removeObserver(forKey key: String) {
    observers[key] = nil
    // A set walks `keys`: leave it alone until the set is over. It never comes back to it.
    if !isNotifying { keys.removeAll { $0 == key } }
  }
}

// MARK: - Exercise 3

/// Files each closure under a key that holds its owner strongly.
final class KeyHoldsTheOwner: OwnerKeyedObservable {
  private struct Key: Hashable {
    let owner: AnyObject
    let key: String
    static func == (left: Key, right: Key) -> Bool {
      left.owner === right.owner && left.key == right.key
    }
    func hash(into hasher: inout Hasher) {
      hasher.combine(ObjectIdentifier(owner))
      hasher.combine(key)
    }
  }
  private var observers: [Key: (Int) -> Void] = [:]
  var value: Int { didSet { for observer in observers.values { observer(value) } } }
  var observerCount: Int { observers.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    observers[Key(owner: owner, key: key)] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    observers[Key(owner: owner, key: key)] = nil
  }
}

/// Counts owners, not closures.
final class CountsOwners: OwnerKeyedObservable {
  private var tables: [ObjectIdentifier: [String: (Int) -> Void]] = [:]
  var value: Int {
    didSet { for table in tables.values { for observer in table.values { observer(value) } } }
  }
  var observerCount: Int { tables.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    tables[ObjectIdentifier(owner), default: [:]][key] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    tables[ObjectIdentifier(owner)]?[key] = nil
  }
}

// MARK: - Exercise 4

/// Cleans with a forward loop that steps past the entry after each one it removes.
final class CleanSkipsNeighbours: WeakBase, WeakObservable {
  override func clean() {
    var index = 0
    while index < entries.count {
      if entries[index].observer == nil { entries.remove(at: index) }
      index += 1
    }
  }
}

/// Cleans only when the value changes: setting the same value again leaves the dead entries.
final class CleansOnChangeOnly: WeakBase, WeakObservable {
  private var previous: Int?
  override func clean() {
    if previous != value { entries.removeAll { $0.observer == nil } }
    previous = value
  }
}

// MARK: - Exercise 5

/// Replaces an observer's entry, except during a set, when the bind is appended beside it.
final class RebindDuringSetAppends: WeakBase, WeakObservable {
  private var isNotifying = false
  override func notify() {
    isNotifying = true
    super.notify()
    isNotifying = false
  }
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { $0.observer == nil || (!isNotifying && $0.observer === observer) }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

// MARK: - Exercise 6

/// Remembers the removals of the notification under way, and forgets them when any set, a
/// nested one too, ends: the outer set then calls the removed observers.
final class ForgetsRemovalsAfterNestedSet: OptionsObservable {
  private var callbacks: [OptionsBase.Callback] = []
  private var removedDuringSet: Set<Int> = []
  private var lastID = 0
  private var storedValue: Int
  var value: Int {
    get { storedValue }
    set {
      let oldValue = storedValue
      storedValue = newValue
      callbacks.removeAll { $0.observer == nil }
      let snapshot = callbacks
      for (value, option) in [(oldValue, WrongOptions.old), (newValue, .new)] {
        for callback in snapshot
        where callback.options.contains(option) && !removedDuringSet.contains(callback.id) {
          callback.closure(value, option)
        }
      }
      removedDuringSet = []
    }
  }
  var observerCount: Int { callbacks.count }
  init(_ value: Int) { storedValue = value }
  func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping (Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    lastID += 1
    callbacks.append(
      OptionsBase.Callback(id: lastID, observer: observer, options: options, closure: closure))
    if options.contains(.initial) { closure(storedValue, .initial) }
  }
  func removeObserver(_ observer: AnyObject) {
    for callback in callbacks where callback.observer === observer {
      removedDuringSet.insert(callback.id)
    }
    callbacks.removeAll { $0.observer === observer }
  }
}

/// Looks each callback up before its new value only: one removed during the `.old` pass is
/// still told its old value.
final class OldPassSkipsTheLookUp: OptionsBase, OptionsObservable {
  override func notify(_ snapshot: [Callback], of value: Int, option: WrongOptions) {
    for callback in snapshot where callback.options.contains(option) {
      if option == .old || isStored(callback) { callback.closure(value, option) }
    }
  }
}

/// Calls every callback with the new value, whether it asked for `.new` or not.
final class NewValueToEveryone: OptionsBase, OptionsObservable {
  override func notify(_ snapshot: [Callback], of value: Int, option: WrongOptions) {
    for callback in snapshot where isStored(callback) {
      if option == .new || callback.options.contains(option) { callback.closure(value, option) }
    }
  }
}

// MARK: - Exercise 7

/// Queues nested sets, but delivers every queued change to the snapshot taken for the first.
final class QueuedChangeUsesStaleSnapshot: QueueBase, OptionsObservable {
  override func set(_ newValue: Int) {
    pending.append((storedValue, newValue))
    storedValue = newValue
    guard !isNotifying else { return }
    isNotifying = true
    callbacks.removeAll { $0.observer == nil }
    let snapshot = callbacks
    while let change = next() {
      notify(snapshot, of: change.old, option: .old)
      notify(snapshot, of: change.new, option: .new)
    }
    finish()
  }
  // Stage 4's walk, which the stale snapshot goes with: no look-up of the live list.
  override func isStored(_ callback: Callback) -> Bool { true }
}

// MARK: - Exercise 8

/// Holds the observers of the set under way strongly, in the list it walks: one released by
/// another handler during the set is still handed over.
final class HoldsObserversDuringSet: HandingBase, HandingObservable {
  override func closure<Observer: AnyObject>(
    for observer: Observer, _ handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) -> (Int, WrongOptions) -> Void {
    let box = WeakBox(observer)
    return { value, option in
      if let observer = box.object as? Observer { handler(observer, value, option) }
    }
  }
  override func deliver(old: Int, new: Int) {
    callbacks.removeAll { $0.observer == nil }
    // The live observers, held strongly until the set is over.
    let held = callbacks.compactMap { callback in callback.observer.map { (callback, $0) } }
    for (value, option) in [(old, WrongOptions.old), (new, .new)] {
      for (callback, observer) in held where callback.options.contains(option) {
        handOver(callback, observer, value, option)
      }
    }
  }
  private func handOver(
    _ callback: Callback, _ observer: AnyObject, _ value: Int, _ option: WrongOptions
  ) {
    withExtendedLifetime(observer) { callback.closure(value, option) }
  }
}

/// A weak reference whose object is kept strongly by the set under way.
final class WeakBox {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

// MARK: - More of the kinds above

/// Removes the last entry when the id is not found: removing an id twice removes another.
final class RemovesLastWhenNotFound: RemovableBase, RemovableClosuresObservable {
  func removeObserver(_ id: Int) {
    if let index = entries.firstIndex(where: { $0.id == id }) {
      entries.remove(at: index)
    } else if !entries.isEmpty {
      entries.removeLast()
    }
  }
}

/// Binding a key again during a set appends it to the order: it is called twice after.
final class RebindDuringSetAppendsKey: KeyedBase, KeyedObservable {
  private var isNotifying = false
  override var value: Int {
    willSet { isNotifying = true }
    didSet { isNotifying = false }
  }
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if observers.updateValue(observer, forKey: key) == nil || isNotifying { keys.append(key) }
  }
  func removeObserver(forKey key: String) {
    observers[key] = nil
    keys.removeAll { $0 == key }
  }
}

/// Blocks the observers removed during a set by their object, and never forgets them: an
/// observer removed mid-set and added again is never called again.
final class BlocksRemovedObjects: OptionsBase, OptionsObservable {
  private var blocked: [ObjectIdentifier] = []
  private var isNotifying = false
  override func deliver(old: Int, new: Int) {
    isNotifying = true
    callbacks.removeAll { $0.observer == nil }
    let snapshot = callbacks
    for (value, option) in [(old, WrongOptions.old), (new, .new)] {
      for callback in snapshot where callback.options.contains(option) {
        guard let observer = callback.observer,
          !blocked.contains(ObjectIdentifier(observer))
        else { continue }
        callback.closure(value, option)
      }
    }
    isNotifying = false
  }
  override func removeObserver(_ observer: AnyObject) {
    if isNotifying { blocked.append(ObjectIdentifier(observer)) }
    super.removeObserver(observer)
  }
}

/// Remembers the last observer handed over, strongly, for the next call.
final class KeepsTheLastHanded: HandingBase, HandingObservable {
  private var lastHanded: AnyObject?
  override func closure<Observer: AnyObject>(
    for observer: Observer, _ handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) -> (Int, WrongOptions) -> Void {
    { [weak self, weak observer] value, option in
      guard let observer else { return }
      self?.lastHanded = observer
      handler(observer, value, option)
    }
  }
}

extension WrongAnswer {
  /// The answers above, each caught by its exercise's generated check.
  static let foundByPrograms = [
    WrongAnswer(
      name: "01-removes-last-when-not-found", exercise: 1,
      mistake: "removing an id that is not bound removes the last closure",
      caughtBy: .check(.generatedRemovals), evidence: "→",
      code: .exercise(1, RemovableClosuresAdapter<RemovesLastWhenNotFound>.self, isSendable: false)),
    WrongAnswer(
      name: "02-rebind-during-set-appends-key", exercise: 2,
      mistake: "a key bound again during a set is appended to the order again",
      caughtBy: .check(.generatedKeysInOrder), evidence: "twice",
      code: .exercise(2, KeyedAdapter<RebindDuringSetAppendsKey>.self, isSendable: false),
      counterexample: "twice"),
    WrongAnswer(
      name: "06-blocks-removed-objects", exercise: 6,
      mistake: "observers removed during a set are blocked by object, for ever",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "was not called with",
      code: .exercise(6, OptionsAdapter<BlocksRemovedObjects>.self, isSendable: false),
      counterexample: "was not called with"),
    WrongAnswer(
      name: "08-keeps-the-last-handed", exercise: 8,
      mistake: "the observable keeps the last observer it handed over, strongly",
      caughtBy: .check(.generatedHandedOwners), evidence: "was not freed",
      code: .exercise(8, HandingAdapter<KeepsTheLastHanded>.self, isSendable: false),
      counterexample: "was not freed"),
    WrongAnswer(
      name: "01-walks-live-entries-by-index", exercise: 1,
      mistake: "a set walks the live array by index, so a one-shot observer makes it skip the next",
      caughtBy: .check(.generatedRemovals), evidence: "removes itself",
      code: .exercise(1, RemovableClosuresAdapter<WalksLiveEntriesByIndex>.self, isSendable: false),
      counterexample: "was not called with"),
    WrongAnswer(
      name: "01-defers-removal-during-set", exercise: 1,
      mistake: "a removal made during a set is deferred, then forgotten",
      caughtBy: .check(.generatedRemovals), evidence: "after it was removed",
      code: .exercise(1, RemovableClosuresAdapter<DefersRemovalDuringSet>.self, isSendable: false),
      counterexample: "after it was removed"),
    WrongAnswer(
      name: "02-walks-live-keys-by-index", exercise: 2,
      mistake: "a set walks the live keys by index, so a key removed mid-set skips the next",
      caughtBy: .check(.generatedKeysInOrder), evidence: "was not called with",
      code: .exercise(2, KeyedAdapter<WalksLiveKeysByIndex>.self, isSendable: false),
      counterexample: "was not called with"),
    WrongAnswer(
      name: "02-removal-during-set-leaves-key", exercise: 2,
      mistake: "a key removed during a set stays in the order",
      caughtBy: .check(.generatedKeysInOrder), evidence: "twice|before",
      code: .exercise(2, KeyedAdapter<RemovalDuringSetLeavesKey>.self, isSendable: false),
      counterexample: "twice|before"),
    WrongAnswer(
      name: "03-key-holds-the-owner", exercise: 3,
      mistake: "the dictionary's key holds the owner strongly",
      caughtBy: .check(.generatedOwnersAndKeys), evidence: "was not freed",
      code: .exercise(3, OwnerKeyedAdapter<KeyHoldsTheOwner>.self, isSendable: false),
      counterexample: "was not freed"),
    WrongAnswer(
      name: "03-counts-owners", exercise: 3,
      mistake: "observerCount counts owners, not closures",
      caughtBy: .check(.generatedOwnersAndKeys), evidence: "observerCount said",
      code: .exercise(3, OwnerKeyedAdapter<CountsOwners>.self, isSendable: false),
      counterexample: "observerCount said"),
    WrongAnswer(
      name: "04-clean-skips-neighbours", exercise: 4,
      mistake: "the cleaning loop steps past the entry after each one it removes",
      caughtBy: .check(.generatedReleases), evidence: "still stored",
      code: .exercise(4, WeakAdapter<CleanSkipsNeighbours>.self, isSendable: false),
      counterexample: "still stored"),
    WrongAnswer(
      name: "04-cleans-on-change-only", exercise: 4,
      mistake: "a set cleans only when the value changes",
      caughtBy: .check(.generatedReleases), evidence: "still stored",
      code: .exercise(4, WeakAdapter<CleansOnChangeOnly>.self, isSendable: false),
      counterexample: "still stored"),
    WrongAnswer(
      name: "05-rebind-during-set-appends", exercise: 5,
      mistake: "an observer binding again during a set gets a second entry",
      caughtBy: .check(.generatedRebinds), evidence: "binds A again|binds B again",
      code: .exercise(5, WeakAdapter<RebindDuringSetAppends>.self, isSendable: false),
      counterexample: "replaced it|twice"),
    WrongAnswer(
      name: "06-forgets-removals-after-nested-set", exercise: 6,
      mistake: "removals made during a set are forgotten when a nested set ends",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "after it was removed|replaced it",
      code: .exercise(6, OptionsAdapter<ForgetsRemovalsAfterNestedSet>.self, isSendable: false),
      counterexample: "after it was removed|replaced it"),
    WrongAnswer(
      name: "06-old-pass-skips-the-look-up", exercise: 6,
      mistake: "only the .new pass checks that a callback is still stored",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "told the old value",
      code: .exercise(6, OptionsAdapter<OldPassSkipsTheLookUp>.self, isSendable: false),
      counterexample: "after it was removed|replaced it"),
    WrongAnswer(
      name: "06-new-value-to-everyone", exercise: 6,
      mistake: "every callback is called with the new value, whether it asked for .new or not",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "did not ask for .new",
      code: .exercise(6, OptionsAdapter<NewValueToEveryone>.self, isSendable: false),
      counterexample: "did not ask for .new"),
    WrongAnswer(
      name: "07-queued-change-uses-stale-snapshot", exercise: 7,
      mistake: "every queued change is delivered to the snapshot taken for the first",
      caughtBy: .check(.generatedNestedSets),
      evidence: "after it was removed|was not called|replaced it|let go",
      code: .exercise(7, OptionsAdapter<QueuedChangeUsesStaleSnapshot>.self, isSendable: false),
      counterexample: "after it was removed|was not called|after"),
    WrongAnswer(
      name: "08-holds-observers-during-set", exercise: 8,
      mistake:
        "a set holds its observers strongly, so one released by another handler is still called",
      caughtBy: .check(.generatedHandedOwners), evidence: "was let go",
      code: .exercise(8, HandingAdapter<HoldsObserversDuringSet>.self, isSendable: false),
      counterexample: "was let go"),
  ]
}

// MARK: - Exercise 9

/// Exercise 9's answer, behind a `Mutex`; each wrong answer below overrides one step.
class LockedBase: @unchecked Sendable {
  // Unchecked only for the subclasses, which add no stored property: the Mutex guards it all.
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
        let snapshot = state.callbacks
        state.callbacks.removeAll { $0.observer == nil }
        return (oldValue, snapshot)
      }
      for (value, option) in [(oldValue, WrongOptions.old), (newValue, .new)] {
        for callback in snapshot where callback.options.contains(option) && isStored(callback) {
          callback.closure(delivered(value, option), option)
        }
      }
    }
  }
  /// The value a call for `option` hands over: the set's own.
  func delivered(_ value: Int, _ option: WrongOptions) -> Int { value }
  func isStored(_ callback: SendableCallback) -> Bool {
    state.withLock { $0.callbacks.contains { $0.id == callback.id } }
  }
  /// Stores the callback and returns the value the `.initial` call shows; the callbacks it
  /// replaces, those of `observer` when one is given, are freed once the lock is let go.
  func store(_ callback: (Int) -> SendableCallback, replacing observer: AnyObject?) -> Int {
    let (shown, replaced) = state.withLock { state in
      let replaced = state.callbacks.filter { observer != nil && $0.observer === observer }
      state.callbacks.removeAll { observer != nil && $0.observer === observer }
      state.lastID += 1
      state.callbacks.append(callback(state.lastID))
      return (state.value, replaced)
    }
    withExtendedLifetime(replaced) {}
    return shown
  }
  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping @Sendable (Int, WrongOptions) -> Void
  ) {
    let make: (Int) -> SendableCallback = { id in
      SendableCallback(id: id, observer: observer, options: options, closure: closure)
    }
    var replaced: AnyObject?
    if removeIfExists { replaced = observer }
    let shown = store(make, replacing: replaced)
    if options.contains(.initial) { closure(shown, .initial) }
  }
  func removeObserver(_ observer: AnyObject & Sendable) {
    _ = state.withLock { state in
      let removed = state.callbacks.filter { $0.observer === observer }
      state.callbacks.removeAll { $0.observer === observer }
      return removed
    }
  }
}

/// Hands each callback the value read when its turn comes, not the value of its set.
final class ReadsValuePerCallback: LockedBase, @unchecked Sendable, SendableOptionsObservable {
  override func delivered(_ value: Int, _ option: WrongOptions) -> Int {
    option == .new ? self.value : value
  }
}

/// Reads the value for the `.initial` call under one lock, and stores the observer under
/// another: a set between them never reaches it.
final class ReadsValueThenAdds: LockedBase, @unchecked Sendable, SendableOptionsObservable {
  override func store(_ callback: (Int) -> SendableCallback, replacing observer: AnyObject?)
    -> Int
  {
    let shown = state.withLock { $0.value }
    _ = super.store(callback, replacing: observer)
    return shown
  }
}

/// Stores the observer, then reads the value for the `.initial` call again once the lock is
/// let go: a set between them is shown twice.
final class InitialReadsValueAgain: LockedBase, @unchecked Sendable, SendableOptionsObservable {
  override func store(_ callback: (Int) -> SendableCallback, replacing observer: AnyObject?)
    -> Int
  {
    _ = super.store(callback, replacing: observer)
    return value
  }
}

extension WrongAnswer {
  /// Exercise 9's answers above: threads, and the value a call hands over.
  static let foundByThreads = [
    WrongAnswer(
      name: "09-reads-value-per-callback", exercise: 9,
      mistake: "each callback is handed the value read at its turn, not the one set",
      caughtBy: .check(.generatedSendableOnOneThread), evidence: "sets",
      code: .exercise(9, SendableOptionsAdapter<ReadsValuePerCallback>.self),
      counterexample: "was not called with|twice|where the set under way was of"),
    WrongAnswer(
      name: "09-reads-value-then-adds", exercise: 9,
      mistake: "the value is read under one lock and the observer stored under another",
      caughtBy: .check(.addedWhileAnotherThreadSets),
      evidence: "add read the value and stored the observer under two",
      code: .exercise(9, SendableOptionsAdapter<ReadsValueThenAdds>.self), isRace: true),
    WrongAnswer(
      name: "09-initial-reads-value-again", exercise: 9,
      mistake: "the .initial call reads the value again after the lock is let go",
      caughtBy: .check(.addedWhileAnotherThreadSets), evidence: "set before",
      code: .exercise(9, SendableOptionsAdapter<InitialReadsValueAgain>.self), isRace: true),
  ]
}
