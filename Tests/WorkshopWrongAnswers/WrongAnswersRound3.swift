import Observation
import ObserverScenarios
import Synchronization
import WorkshopKit

// Round 3: wrong answers an outside tester wrote, of kinds the earlier rounds did not cover:
// removal by swapping with the last entry, ids recycled, removed or cleaned closures kept for
// later, counts that drift, a set that stops when the list changes, cleaning that writes back a
// stale copy, adding with `removeIfExists: false`, an `.initial` call delayed while a set is
// under way, observers released between queued changes, scores of equal, zero or negative
// value, state shared by every label. Each is wrong by its exercise's promise, as its doc
// comment says.

// MARK: - Exercise 1

/// Removes in O(1), by swapping the entry with the last: with three or more closures, the
/// binding order is lost.
final class SwapRemove: RemovableBase, RemovableClosuresObservable {
  func removeObserver(_ id: Int) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    entries.swapAt(index, entries.count - 1)
    entries.removeLast()
  }
}

/// Hands out the ids of removed closures again: an id kept after its removal names a newcomer.
final class RecyclesRemovedIDs: RemovableBase, RemovableClosuresObservable {
  private var free: [Int] = []
  override func bindObserver(_ observer: @escaping (Int) -> Void) -> Int {
    let id = free.popLast() ?? nextID()
    entries.append(Entry(id: id, observer: observer))
    return id
  }
  func removeObserver(_ id: Int) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    entries.remove(at: index)
    free.append(id)
  }
}

/// Keeps the last closure removed, to bind it again on undo: it is never released.
final class KeepsLastRemovedForUndo: RemovableBase, RemovableClosuresObservable {
  private var lastRemoved: Entry?
  func removeObserver(_ id: Int) {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
    lastRemoved = entries.remove(at: index)
  }
}

/// Counts its closures in a counter of its own, which every removal lowers, found or not.
final class CountDropsOnUnknownID: RemovableBase, RemovableClosuresObservable {
  private var count = 0
  override var observerCount: Int { count }
  override func bindObserver(_ observer: @escaping (Int) -> Void) -> Int {
    count += 1
    return super.bindObserver(observer)
  }
  func removeObserver(_ id: Int) {
    entries.removeAll { $0.id == id }
    count = max(0, count - 1)
  }
}

/// Stops a set as soon as a closure changes the list, as a fail-fast iterator does: the
/// observers after it are not called.
final class StopsWhenTheListChanges: RemovableClosuresObservable {
  private var entries: [RemovableBase.Entry] = []
  private var lastID = 0
  private var changes = 0
  var value: Int {
    didSet {
      let seen = changes
      for entry in entries {
        guard changes == seen else { break }
        entry.observer(value)
      }
    }
  }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: @escaping (Int) -> Void) -> Int {
    lastID += 1
    changes += 1
    entries.append(RemovableBase.Entry(id: lastID, observer: observer))
    return lastID
  }
  func removeObserver(_ id: Int) {
    changes += 1
    entries.removeAll { $0.id == id }
  }
}

/// Makes its ids readable text, "observer-1", and walks its table in the ids' sorted order:
/// as text, "observer-10" comes before "observer-9", so the order breaks from the tenth bind.
final class IDsSortedAsText: RemovableClosuresObservable {
  private var observers: [String: (Int) -> Void] = [:]
  private var lastID = 0
  var value: Int {
    didSet { for id in observers.keys.sorted() { observers[id]?(value) } }
  }
  var observerCount: Int { observers.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: @escaping (Int) -> Void) -> String {
    lastID += 1
    let id = "observer-\(lastID)"
    observers[id] = observer
    return id
  }
  func removeObserver(_ id: String) { observers[id] = nil }
}

// MARK: - Exercise 2

/// Keeps each key's place as text, and walks the places sorted: as text, "10" comes before
/// "9", so the order breaks once ten keys have been bound.
final class PlacesSortedAsText: KeyedObservable {
  private var observers: [String: (Int) -> Void] = [:]
  private var places: [String: String] = [:]
  private var bound = 0
  var value: Int {
    didSet {
      for (key, _) in places.sorted(by: { $0.value < $1.value }) { observers[key]?(value) }
    }
  }
  var observerCount: Int { observers.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if observers.updateValue(observer, forKey: key) == nil {
      bound += 1
      places[key] = String(bound)
    }
  }
  func removeObserver(forKey key: String) {
    observers[key] = nil
    places[key] = nil
  }
}

/// Places each key at the count of keys stored when it was bound: after a removal, two keys
/// share a place, and the order breaks ties by name.
final class PlacesFromCount: KeyedObservable {
  private var observers: [String: (Int) -> Void] = [:]
  private var places: [String: Int] = [:]
  var value: Int {
    didSet {
      let order = places.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
      for (key, _) in order { observers[key]?(value) }
    }
  }
  var observerCount: Int { observers.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if observers.updateValue(observer, forKey: key) == nil { places[key] = observers.count }
  }
  func removeObserver(forKey key: String) {
    observers[key] = nil
    places[key] = nil
  }
}

/// Defers a removal made during a set until the set is over: a key bound again meanwhile
/// loses its new closure.
final class DeferredRemovalHitsRebind: KeyedBase, KeyedObservable {
  private var isNotifying = false
  private var deferred: [String] = []
  override var value: Int {
    willSet { isNotifying = true }
    didSet {
      isNotifying = false
      for key in deferred { remove(key) }
      deferred = []
    }
  }
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if observers.updateValue(observer, forKey: key) == nil { keys.append(key) }
  }
  func removeObserver(forKey key: String) {
    if isNotifying { deferred.append(key) } else { remove(key) }
  }
  private func remove(_ key: String) {
    if observers.removeValue(forKey: key) != nil { keys.removeAll { $0 == key } }
  }
}

/// Removes in O(1), by swapping the key with the last in the order: with three or more keys,
/// the order is lost.
final class SwapRemoveKey: KeyedBase, KeyedObservable {
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if observers.updateValue(observer, forKey: key) == nil { keys.append(key) }
  }
  func removeObserver(forKey key: String) {
    guard observers.removeValue(forKey: key) != nil, let index = keys.firstIndex(of: key)
    else { return }
    keys.swapAt(index, keys.count - 1)
    keys.removeLast()
  }
}

/// Keeps each replaced closure in a history, to tell the observer what it replaced.
final class KeepsReplacedClosures: KeyedBase, KeyedObservable {
  private var replaced: [(Int) -> Void] = []
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if let earlier = observers.updateValue(observer, forKey: key) {
      replaced.append(earlier)
    } else {
      keys.append(key)
    }
  }
  func removeObserver(forKey key: String) {
    if observers.removeValue(forKey: key) != nil { keys.removeAll { $0 == key } }
  }
}

/// Counts the keys in the order, and leaves a key there when it is removed during a set.
final class CountsTheOrder: KeyedBase, KeyedObservable {
  private var depth = 0
  override var observerCount: Int { keys.count }
  override var value: Int {
    willSet { depth += 1 }
    didSet { depth -= 1 }
  }
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if observers.updateValue(observer, forKey: key) == nil, !keys.contains(key) {
      keys.append(key)
    }
  }
  func removeObserver(forKey key: String) {
    observers[key] = nil
    if depth == 0 { keys.removeAll { $0 == key } }
  }
}

// MARK: - Exercise 3

/// One table per owner, beside the owner itself, held strongly to remove its table later.
final class TablesHoldTheirOwner: OwnerKeyedObservable {
  private var tables: [ObjectIdentifier: (owner: AnyObject, closures: [String: (Int) -> Void])] =
    [:]
  var value: Int {
    didSet {
      for table in tables.values { for closure in table.closures.values { closure(value) } }
    }
  }
  var observerCount: Int { tables.values.reduce(0) { $0 + $1.closures.count } }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    tables[ObjectIdentifier(owner), default: (owner, [:])].closures[key] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    tables[ObjectIdentifier(owner)]?.closures[key] = nil
  }
}

/// Counts the keys in use, not the closures: two owners under one key count once.
final class CountsKeys: OwnerKeyedObservable {
  private var observers: [String: [ObjectIdentifier: (Int) -> Void]] = [:]
  var value: Int {
    didSet { for table in observers.values { for closure in table.values { closure(value) } } }
  }
  var observerCount: Int { observers.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    observers[key, default: [:]][ObjectIdentifier(owner)] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    observers[key]?[ObjectIdentifier(owner)] = nil
    if observers[key]?.isEmpty == true { observers[key] = nil }
  }
}

/// One table per owner, dropped once it has one key or fewer left: off by one, it goes with
/// its last key still in it.
final class DropsTableOneKeyEarly: OwnerKeyedObservable {
  private var tables: [ObjectIdentifier: [String: (Int) -> Void]] = [:]
  var value: Int {
    didSet { for table in tables.values { for closure in table.values { closure(value) } } }
  }
  var observerCount: Int { tables.values.reduce(0) { $0 + $1.count } }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    tables[ObjectIdentifier(owner), default: [:]][key] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    let id = ObjectIdentifier(owner)
    tables[id]?[key] = nil
    if let table = tables[id], table.count <= 1 { tables[id] = nil }
  }
}

/// Owners in a list under each key: binding again appends a second closure beside the first.
final class AppendsUnderKey: OwnerKeyedObservable {
  private var observers: [String: [(owner: ObjectIdentifier, closure: (Int) -> Void)]] = [:]
  var value: Int {
    didSet { for list in observers.values { for entry in list { entry.closure(value) } } }
  }
  var observerCount: Int { observers.values.reduce(0) { $0 + $1.count } }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    observers[key, default: []].append((ObjectIdentifier(owner), observer))
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    observers[key]?.removeAll { $0.owner == ObjectIdentifier(owner) }
  }
}

/// Files each closure under the owner's identity and key, and keeps the removed ones, to
/// bind them again if the owner asks.
final class KeepsRemovedPairs: OwnerKeyedObservable {
  private struct Pair: Hashable {
    let owner: ObjectIdentifier
    let key: String
  }
  private var observers: [Pair: (Int) -> Void] = [:]
  private var removed: [Pair: (Int) -> Void] = [:]
  var value: Int { didSet { for observer in observers.values { observer(value) } } }
  var observerCount: Int { observers.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    observers[Pair(owner: ObjectIdentifier(owner), key: key)] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    let pair = Pair(owner: ObjectIdentifier(owner), key: key)
    removed[pair] = observers.removeValue(forKey: pair)
  }
}

// MARK: - Exercise 4

/// Cleans at most four dead entries per set, to keep a set cheap: a fifth waits.
final class CleansFourPerSet: WeakBase, WeakObservable {
  override func clean() {
    var budget = 4
    entries.removeAll { entry in
      guard entry.observer == nil, budget > 0 else { return false }
      budget -= 1
      return true
    }
  }
}

/// Cleans walking backwards, but stops before the first entry: off by one.
final class CleanSkipsTheFirst: WeakBase, WeakObservable {
  override func clean() {
    for index in stride(from: entries.count - 1, to: 0, by: -1)
    where entries[index].observer == nil {
      entries.remove(at: index)
    }
  }
}

/// Replaces an observer's entry when it binds again, as exercise 5 asks: here, a second
/// bind must store a second entry.
final class ReplacesOnRebind: WeakBase, WeakObservable {
  override func clean() { entries.removeAll { $0.observer == nil } }
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { $0.observer == nil || $0.observer === observer }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

/// Moves dead entries to a list of its own, to count them for debugging: their closures
/// stay.
final class KeepsCleanedEntries: WeakBase, WeakObservable {
  private var cleaned: [Entry] = []
  override func clean() {
    cleaned += entries.filter { $0.observer == nil }
    entries.removeAll { $0.observer == nil }
  }
}

/// Cleans after notifying, into a copy taken before: entries bound during the set are lost.
final class CleansIntoAStaleCopy: WeakBase, WeakObservable {
  override func notify() {
    let before = entries
    super.notify()
    entries = before.filter { $0.observer != nil }
  }
}

// MARK: - Exercise 5

/// Cleans after notifying, into a copy taken before: a bind made during the set is lost.
final class OneEntryCleansIntoAStaleCopy: OneEntryBase, WeakObservable {
  override func clean() {}
  override func notify() {
    let before = entries
    super.notify()
    entries = before.filter { $0.observer != nil }
  }
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { $0.observer == nil || $0.observer === observer }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

/// Keeps the closure an entry replaced, to restore it if the new one is removed.
final class KeepsThePreviousClosure: OneEntryBase, WeakObservable {
  private var previous: [(Int) -> Void] = []
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    previous += entries.filter { $0.observer === observer }.map(\.closure)
    entries.removeAll { $0.observer == nil || $0.observer === observer }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

/// Tells observers apart by their class: every observer of one class shares one entry.
final class OneEntryPerClass: OneEntryBase, WeakObservable {
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { entry in
      guard let other = entry.observer else { return true }
      return type(of: other) == type(of: observer)
    }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

/// Drops dead entries on bind only when the observer binds again, not on a first bind.
final class CleansOnRebindOnly: OneEntryBase, WeakObservable {
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    if entries.contains(where: { $0.observer === observer }) {
      entries.removeAll { $0.observer == nil || $0.observer === observer }
    }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

/// Defers a bind made during a set until the set is over, then appends it without removing
/// the observer's earlier entry.
final class DefersBindsDuringSet: OneEntryBase, WeakObservable {
  private var isNotifying = false
  private var deferred: [Entry] = []
  override var value: Int {
    willSet { isNotifying = true }
    didSet {
      isNotifying = false
      entries += deferred
      deferred = []
    }
  }
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    guard !isNotifying else {
      deferred.append(Entry(observer: observer, closure: closure))
      return
    }
    entries.removeAll { $0.observer == nil || $0.observer === observer }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

// MARK: - Exercise 6

/// Removes the observer's earlier callbacks whatever `removeIfExists` says.
final class AlwaysRemovesEarlier: OptionsBase, OptionsObservable {
  override var alwaysRemovesEarlier: Bool { true }
}

/// Delays an `.initial` call asked for during a notification until the set is over.
final class DelaysInitialDuringSet: OptionsBase, OptionsObservable {
  override var delaysInitialDuringSet: Bool { true }
}

/// Makes the `.initial` call before storing the callback: one that removes itself there stays.
final class InitialBeforeStoring: OptionsBase, OptionsObservable {
  override var callsInitialBeforeStoring: Bool { true }
}

/// Tells every observer the new value, then the old one.
final class NewBeforeOld: OptionsBase, OptionsObservable {
  override var tellsNewBeforeOld: Bool { true }
}

/// Hands a set made inside a closure the old value of the set under way, kept in a property.
final class NestedSetOldFromOuter: OptionsBase, OptionsObservable {
  private var depth = 0
  private var outerOld = 0
  override func set(_ newValue: Int) {
    if depth == 0 { outerOld = storedValue }
    depth += 1
    storedValue = newValue
    deliver(old: outerOld, new: newValue)
    depth -= 1
  }
}

/// Looks each callback up before its `.old` call, but not before its `.new` one: a callback
/// removed during the `.old` pass is still told the new value.
final class NewPassSkipsTheLookUp: OptionsBase, OptionsObservable {
  override func notify(_ snapshot: [Callback], of value: Int, option: WrongOptions) {
    for callback in snapshot where callback.options.contains(option) {
      if option == .old, !isStored(callback) { continue }
      callback.closure(value, option)
    }
  }
}

/// Starts its ids again from 1 whenever the list is empty: a callback removed mid-set and a
/// newcomer may share an id.
final class IDsRestartWhenEmpty: OptionsBase, OptionsObservable {
  override func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping (Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    if callbacks.isEmpty { lastID = 0 }
    lastID += 1
    callbacks.append(Callback(id: lastID, observer: observer, options: options, closure: closure))
    if options.contains(.initial) { closure(storedValue, .initial) }
  }
}

// MARK: - Exercise 7

/// Removes the observer's earlier callbacks whatever `removeIfExists` says.
final class QueueAlwaysRemovesEarlier: QueueBase, OptionsObservable {
  override var alwaysRemovesEarlier: Bool { true }
}

/// Queues an `.initial` call asked for during a notification behind the pending changes.
final class QueuesTheInitialCall: QueueBase, OptionsObservable {
  override var delaysInitialDuringSet: Bool { true }
}

/// Makes the `.initial` call before storing the callback: one that removes itself there stays.
final class QueueInitialBeforeStoring: QueueBase, OptionsObservable {
  override var callsInitialBeforeStoring: Bool { true }
}

/// Tells every observer the new value of each queued change, then the old one.
final class QueueNewBeforeOld: QueueBase, OptionsObservable {
  override var tellsNewBeforeOld: Bool { true }
}

/// Drops released observers once per set, not once per queued change: one released during
/// the first change is still told of the next.
final class CleansOncePerDrain: QueueBase, OptionsObservable {
  override func set(_ newValue: Int) {
    pending.append((storedValue, newValue))
    storedValue = newValue
    guard !isNotifying else { return }
    isNotifying = true
    callbacks.removeAll { $0.observer == nil }
    while let change = next() {
      let snapshot = callbacks
      notify(snapshot, of: change.old, option: .old)
      notify(snapshot, of: change.new, option: .new)
    }
    finish()
  }
  override func notify(_ snapshot: [Callback], of value: Int, option: WrongOptions) {
    for callback in snapshot where callback.options.contains(option) {
      callback.closure(value, option)
    }
  }
}

/// Takes the next change's snapshot before delivering the current one, to save a copy: a
/// callback added or removed during a change is seen one change late.
final class PrefetchesTheNextSnapshot: QueueBase, OptionsObservable {
  override func set(_ newValue: Int) {
    pending.append((storedValue, newValue))
    storedValue = newValue
    guard !isNotifying else { return }
    isNotifying = true
    callbacks.removeAll { $0.observer == nil }
    var snapshot = callbacks
    while let change = next() {
      let current = snapshot
      callbacks.removeAll { $0.observer == nil }
      snapshot = callbacks
      notify(current, of: change.old, option: .old)
      notify(current, of: change.new, option: .new)
    }
    finish()
  }
  override func notify(_ snapshot: [Callback], of value: Int, option: WrongOptions) {
    for callback in snapshot where callback.options.contains(option) {
      callback.closure(value, option)
    }
  }
}

/// Keeps what each queued change was delivered to, for debugging: the closures stay.
final class KeepsDeliveredSnapshots: QueueBase, OptionsObservable {
  private var delivered: [[Callback]] = []
  override func notify(_ snapshot: [Callback], of value: Int, option: WrongOptions) {
    if option == .new { delivered.append(snapshot) }
    for callback in snapshot where callback.options.contains(option) {
      callback.closure(value, option)
    }
  }
}

// MARK: - Exercise 8

/// Removes the observer's earlier callbacks whatever `removeIfExists` says.
final class HandingAlwaysRemovesEarlier: HandingBase, HandingObservable {
  override var alwaysRemovesEarlier: Bool { true }
}

/// Delays an `.initial` call asked for during a notification until the set is over.
final class HandingDelaysInitial: HandingBase, HandingObservable {
  override var delaysInitialDuringSet: Bool { true }
}

/// Makes the `.initial` call before storing the callback: one that removes itself there stays.
final class HandingInitialBeforeStoring: HandingBase, HandingObservable {
  override var callsInitialBeforeStoring: Bool { true }
}

/// Holds the observers strongly through the `.old` pass: one released by a handler told the
/// old value is still handed to the handlers after it.
final class OldPassHoldsObservers: HandingBase, HandingObservable {
  override func deliver(old: Int, new: Int) {
    callbacks.removeAll { $0.observer == nil }
    let snapshot = callbacks
    do {
      let held = snapshot.compactMap(\.observer)
      notify(snapshot, of: old, option: .old)
      withExtendedLifetime(held) {}
    }
    notify(snapshot, of: new, option: .new)
  }
}

/// Keeps each handler's observer in the callback once it has been handed, to hand it faster.
final class CachesTheHandedObserver: HandingBase, HandingObservable {
  private final class Cache {
    var observer: AnyObject?
  }
  override func closure<Observer: AnyObject>(
    for observer: Observer, _ handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) -> (Int, WrongOptions) -> Void {
    let cache = Cache()
    return { [weak observer] value, option in
      guard let observer = (cache.observer as? Observer) ?? observer else { return }
      cache.observer = observer
      handler(observer, value, option)
    }
  }
}

/// Removes the observer's earlier callbacks only when `removeIfExists` is false: the
/// condition inverted.
final class InvertedRemoveIfExists: HandingBase, HandingObservable {
  override func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping (Int, WrongOptions) -> Void
  ) {
    super.addObserver(
      observer, removeIfExists: !removeIfExists, options: options, closure: closure)
  }
}

// MARK: - Exercise 11

/// Shows a score only when it differs from the one shown, and re-arms the tracking only then:
/// a score set equal to the one shown stops the label.
@MainActor
final class LabelSkippingEqualScores: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  var shown: Int?
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    guard isOpen else { return }
    let score = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      Task { @MainActor in self?.changed() }
    }
    shown = score
    display.show(score)
  }
  func changed() {
    guard player.score != shown else { return }
    update()
  }
  func close() { isOpen = false }
}

/// Coalesces updates in one flag every label shares: while one label's update is queued,
/// another's is dropped.
@MainActor
final class LabelSharingOnePendingFlag: ScoreLabelModel {
  static var isPending = false
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    guard isOpen else { return }
    let score = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      Task { @MainActor in
        guard !Self.isPending else { return }
        Self.isPending = true
        await Task.yield()
        Self.isPending = false
        self?.update()
      }
    }
    display.show(score)
  }
  func close() { isOpen = false }
}

/// Shows a score only when it is higher than the one shown, as scores that only grow.
@MainActor
final class LabelShowingHigherOnly: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  var best = Int.min
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    guard isOpen else { return }
    let score = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      Task { @MainActor in self?.update() }
    }
    if score > best {
      best = score
      display.show(score)
    }
  }
  func close() { isOpen = false }
}

/// Takes a score below zero for a game not started, and stops there, tracking no more.
@MainActor
final class LabelStoppingBelowZero: ScoreLabelModel {
  let player: WrongPlayer
  let display: LabelDisplay
  var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    update()
  }
  func update() {
    guard isOpen, player.score >= 0 else { return }
    let score = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      Task { @MainActor in self?.update() }
    }
    display.show(score)
  }
  func close() { isOpen = false }
}

/// Keeps whether labels are open in one flag they all share: closing one closes every one.
@MainActor
final class LabelsSharingOneOpenFlag: ScoreLabelModel {
  static var isOpen = true
  let player: WrongPlayer
  let display: LabelDisplay
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    (self.player, self.display) = (player, display)
    Self.isOpen = true
    update()
  }
  func update() {
    guard Self.isOpen else { return }
    let score = withObservationTracking {
      player.score
    } onChange: { [weak self] in
      Task { @MainActor in self?.update() }
    }
    display.show(score)
  }
  func close() { Self.isOpen = false }
}

extension WrongAnswer {
  static let round3 = [
    WrongAnswer(
      name: "01-swap-remove", exercise: 1,
      mistake: "a removal swaps the entry with the last, so the binding order is lost",
      caughtBy: .check(.generatedRemovals), evidence: "before",
      code: .exercise(1, RemovableClosuresAdapter<SwapRemove>.self, isSendable: false),
      counterexample: "before"),
    WrongAnswer(
      name: "01-recycles-removed-ids", exercise: 1,
      mistake: "the ids of removed closures are handed out again",
      caughtBy: .check(.generatedRemovals), evidence: "→",
      code: .exercise(1, RemovableClosuresAdapter<RecyclesRemovedIDs>.self, isSendable: false)),
    WrongAnswer(
      name: "01-keeps-last-removed-for-undo", exercise: 1,
      mistake: "the last closure removed is kept, for an undo",
      caughtBy: .check(.generatedRemovals), evidence: "still stored after it was removed",
      code: .exercise(
        1, RemovableClosuresAdapter<KeepsLastRemovedForUndo>.self, isSendable: false),
      counterexample: "still stored after it was removed"),
    WrongAnswer(
      name: "01-count-drops-on-unknown-id", exercise: 1,
      mistake: "observerCount is a counter every removal lowers, whether the id was bound or not",
      caughtBy: .check(.generatedRemovals), evidence: "observerCount said",
      code: .exercise(1, RemovableClosuresAdapter<CountDropsOnUnknownID>.self, isSendable: false),
      counterexample: "observerCount said"),
    WrongAnswer(
      name: "01-stops-when-the-list-changes", exercise: 1,
      mistake: "a set stops as soon as a closure binds or removes, leaving the others uncalled",
      caughtBy: .check(.generatedRemovals), evidence: "was not called with",
      code: .exercise(
        1, RemovableClosuresAdapter<StopsWhenTheListChanges>.self, isSendable: false),
      counterexample: "was not called with"),
    WrongAnswer(
      name: "01-ids-sorted-as-text", exercise: 1,
      mistake:
        "ids are text, and a set walks them sorted as text: the tenth comes before the ninth",
      caughtBy: .check(.generatedRemovals), evidence: "before",
      code: .exercise(1, RemovableClosuresAdapter<IDsSortedAsText>.self, isSendable: false),
      counterexample: "before"),
    WrongAnswer(
      name: "02-places-sorted-as-text", exercise: 2,
      mistake: "places are text, sorted as text: the tenth key bound comes before the ninth",
      caughtBy: .check(.generatedKeysInOrder), evidence: "before",
      code: .exercise(2, KeyedAdapter<PlacesSortedAsText>.self, isSendable: false),
      counterexample: "before"),
    WrongAnswer(
      name: "02-places-from-count", exercise: 2,
      mistake: "a key's place is the count of keys when it was bound, so places repeat",
      caughtBy: .check(.generatedKeysInOrder), evidence: "before",
      code: .exercise(2, KeyedAdapter<PlacesFromCount>.self, isSendable: false),
      counterexample: "before"),
    WrongAnswer(
      name: "02-deferred-removal-hits-rebind", exercise: 2,
      mistake: "a removal made during a set is applied after it, to the key bound again since",
      caughtBy: .check(.generatedKeysInOrder), evidence: "→",
      code: .exercise(2, KeyedAdapter<DeferredRemovalHitsRebind>.self, isSendable: false)),
    WrongAnswer(
      name: "02-swap-remove-key", exercise: 2,
      mistake: "a removal swaps the key with the last in the order",
      caughtBy: .check(.generatedKeysInOrder), evidence: "before",
      code: .exercise(2, KeyedAdapter<SwapRemoveKey>.self, isSendable: false),
      counterexample: "before"),
    WrongAnswer(
      name: "02-keeps-replaced-closures", exercise: 2,
      mistake: "every replaced closure is kept in a history",
      caughtBy: .check(.generatedKeysInOrder), evidence: "still stored after",
      code: .exercise(2, KeyedAdapter<KeepsReplacedClosures>.self, isSendable: false),
      counterexample: "still stored after"),
    WrongAnswer(
      name: "02-counts-the-order", exercise: 2,
      mistake: "observerCount counts the order, where a key removed during a set stays",
      caughtBy: .check(.generatedKeysInOrder), evidence: "→",
      code: .exercise(2, KeyedAdapter<CountsTheOrder>.self, isSendable: false)),
    WrongAnswer(
      name: "03-tables-hold-their-owner", exercise: 3,
      mistake: "each owner's table holds the owner strongly",
      caughtBy: .check(.generatedOwnersAndKeys), evidence: "was not freed",
      code: .exercise(3, OwnerKeyedAdapter<TablesHoldTheirOwner>.self, isSendable: false),
      counterexample: "was not freed"),
    WrongAnswer(
      name: "03-counts-keys", exercise: 3,
      mistake: "observerCount counts the keys in use, not the closures",
      caughtBy: .check(.generatedOwnersAndKeys), evidence: "observerCount said",
      code: .exercise(3, OwnerKeyedAdapter<CountsKeys>.self, isSendable: false),
      counterexample: "observerCount said"),
    WrongAnswer(
      name: "03-drops-table-one-key-early", exercise: 3,
      mistake: "an owner's table is dropped while it still has one key",
      caughtBy: .check(.generatedOwnersAndKeys), evidence: "→",
      code: .exercise(3, OwnerKeyedAdapter<DropsTableOneKeyEarly>.self, isSendable: false)),
    WrongAnswer(
      name: "03-appends-under-key", exercise: 3,
      mistake: "binding the same owner and key again appends a second closure",
      caughtBy: .check(.generatedOwnersAndKeys), evidence: "→",
      code: .exercise(3, OwnerKeyedAdapter<AppendsUnderKey>.self, isSendable: false)),
    WrongAnswer(
      name: "03-keeps-removed-pairs", exercise: 3,
      mistake: "removed closures are kept, to bind them again",
      caughtBy: .check(.generatedOwnersAndKeys), evidence: "still stored after it was removed",
      code: .exercise(3, OwnerKeyedAdapter<KeepsRemovedPairs>.self, isSendable: false),
      counterexample: "still stored after it was removed"),
    WrongAnswer(
      name: "04-cleans-four-per-set", exercise: 4,
      mistake: "a set cleans at most four dead entries",
      caughtBy: .check(.generatedReleases), evidence: "→",
      code: .exercise(4, WeakAdapter<CleansFourPerSet>.self, isSendable: false)),
    WrongAnswer(
      name: "04-clean-skips-the-first", exercise: 4,
      mistake: "cleaning walks backwards and stops before the first entry",
      caughtBy: .check(.generatedReleases), evidence: "→",
      code: .exercise(4, WeakAdapter<CleanSkipsTheFirst>.self, isSendable: false)),
    WrongAnswer(
      name: "04-replaces-on-rebind", exercise: 4,
      mistake: "binding again replaces the observer's entry, where a second entry is promised",
      caughtBy: .check(.generatedReleases), evidence: "→",
      code: .exercise(4, WeakAdapter<ReplacesOnRebind>.self, isSendable: false)),
    WrongAnswer(
      name: "04-keeps-cleaned-entries", exercise: 4,
      mistake: "dead entries are moved to a list of their own, closures and all",
      caughtBy: .check(.generatedReleases), evidence: "still stored",
      code: .exercise(4, WeakAdapter<KeepsCleanedEntries>.self, isSendable: false),
      counterexample: "still stored"),
    WrongAnswer(
      name: "04-cleans-into-a-stale-copy", exercise: 4,
      mistake: "cleaning after a set writes back a copy taken before it, losing newcomers",
      caughtBy: .check(.generatedReleases), evidence: "→",
      code: .exercise(4, WeakAdapter<CleansIntoAStaleCopy>.self, isSendable: false)),
    WrongAnswer(
      name: "05-cleans-into-a-stale-copy", exercise: 5,
      mistake: "cleaning after a set writes back a copy taken before it, losing binds made in it",
      caughtBy: .check(.generatedRebinds), evidence: "→",
      code: .exercise(5, WeakAdapter<OneEntryCleansIntoAStaleCopy>.self, isSendable: false)),
    WrongAnswer(
      name: "05-keeps-the-previous-closure", exercise: 5,
      mistake: "a replaced closure is kept, to restore it",
      caughtBy: .check(.generatedRebinds), evidence: "still stored after",
      code: .exercise(5, WeakAdapter<KeepsThePreviousClosure>.self, isSendable: false),
      counterexample: "still stored after"),
    WrongAnswer(
      name: "05-one-entry-per-class", exercise: 5,
      mistake: "observers are told apart by their class, so one replaces another of its class",
      caughtBy: .check(.generatedRebinds), evidence: "→",
      code: .exercise(5, WeakAdapter<OneEntryPerClass>.self, isSendable: false)),
    WrongAnswer(
      name: "05-cleans-on-rebind-only", exercise: 5,
      mistake: "a bind drops dead entries only when its observer binds again",
      caughtBy: .check(.generatedRebinds), evidence: "→",
      code: .exercise(5, WeakAdapter<CleansOnRebindOnly>.self, isSendable: false)),
    WrongAnswer(
      name: "05-defers-binds-during-set", exercise: 5,
      mistake: "a bind made during a set is appended after it, the earlier entry kept",
      caughtBy: .check(.generatedRebinds), evidence: "→",
      code: .exercise(5, WeakAdapter<DefersBindsDuringSet>.self, isSendable: false)),
    WrongAnswer(
      name: "06-always-removes-earlier", exercise: 6,
      mistake: "adding removes the observer's earlier callbacks even with removeIfExists false",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "removeIfExists: false",
      code: .exercise(6, OptionsAdapter<AlwaysRemovesEarlier>.self, isSendable: false),
      counterexample: "removeIfExists: false"),
    WrongAnswer(
      name: "06-delays-initial-during-set", exercise: 6,
      mistake: "an .initial call asked for during a set is made once the set is over",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: ".initial",
      code: .exercise(6, OptionsAdapter<DelaysInitialDuringSet>.self, isSendable: false),
      counterexample: ".initial"),
    WrongAnswer(
      name: "06-initial-before-storing", exercise: 6,
      mistake: "the .initial call is made before the callback is stored",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "on its .initial call, removes itself",
      code: .exercise(6, OptionsAdapter<InitialBeforeStoring>.self, isSendable: false),
      counterexample: "after it was removed"),
    WrongAnswer(
      name: "06-new-before-old", exercise: 6,
      mistake: "a set tells every observer the new value, then the old one",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "the old value first, then the new",
      code: .exercise(6, OptionsAdapter<NewBeforeOld>.self, isSendable: false),
      counterexample: "asking for .old"),
    WrongAnswer(
      name: "06-nested-set-old-from-outer", exercise: 6,
      mistake: "a set made inside a closure hands out the old value of the set under way",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "as the old value, where the set of",
      code: .exercise(6, OptionsAdapter<NestedSetOldFromOuter>.self, isSendable: false),
      counterexample: "as the old value, where the set of"),
    WrongAnswer(
      name: "06-new-pass-skips-the-look-up", exercise: 6,
      mistake: "a callback removed during the .old pass is still told the new value",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "after it was removed|replaced it",
      code: .exercise(6, OptionsAdapter<NewPassSkipsTheLookUp>.self, isSendable: false),
      counterexample: "after it was removed|replaced it"),
    WrongAnswer(
      name: "06-ids-restart-when-empty", exercise: 6,
      mistake: "ids start again from 1 once the list is empty, so a removed callback's id returns",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "→",
      code: .exercise(6, OptionsAdapter<IDsRestartWhenEmpty>.self, isSendable: false)),
    WrongAnswer(
      name: "07-initial-before-storing", exercise: 7,
      mistake: "the .initial call is made before the callback is stored",
      caughtBy: .check(.generatedNestedSets), evidence: "on its .initial call, removes itself",
      code: .exercise(7, OptionsAdapter<QueueInitialBeforeStoring>.self, isSendable: false),
      counterexample: "after it was removed"),
    WrongAnswer(
      name: "07-new-before-old", exercise: 7,
      mistake: "a set tells every observer the new value, then the old one",
      caughtBy: .check(.generatedNestedSets), evidence: "the old value first, then the new",
      code: .exercise(7, OptionsAdapter<QueueNewBeforeOld>.self, isSendable: false),
      counterexample: "asking for .old"),
    WrongAnswer(
      name: "07-always-removes-earlier", exercise: 7,
      mistake: "adding removes the observer's earlier callbacks even with removeIfExists false",
      caughtBy: .check(.generatedNestedSets), evidence: "removeIfExists: false",
      code: .exercise(7, OptionsAdapter<QueueAlwaysRemovesEarlier>.self, isSendable: false),
      counterexample: "removeIfExists: false"),
    WrongAnswer(
      name: "07-queues-the-initial-call", exercise: 7,
      mistake: "an .initial call asked for during a notification waits behind the queue",
      caughtBy: .check(.generatedNestedSets), evidence: ".initial",
      code: .exercise(7, OptionsAdapter<QueuesTheInitialCall>.self, isSendable: false),
      counterexample: ".initial"),
    WrongAnswer(
      name: "07-cleans-once-per-drain", exercise: 7,
      mistake: "released observers are dropped once per set, not before each queued change",
      caughtBy: .check(.generatedNestedSets), evidence: "→",
      code: .exercise(7, OptionsAdapter<CleansOncePerDrain>.self, isSendable: false)),
    WrongAnswer(
      name: "07-prefetches-the-next-snapshot", exercise: 7,
      mistake: "each queued change is delivered to a snapshot taken before the change before it",
      caughtBy: .check(.generatedNestedSets), evidence: "→",
      code: .exercise(7, OptionsAdapter<PrefetchesTheNextSnapshot>.self, isSendable: false)),
    WrongAnswer(
      name: "07-keeps-delivered-snapshots", exercise: 7,
      mistake: "every snapshot delivered is kept, with its closures",
      caughtBy: .check(.generatedNestedSets), evidence: "still stored",
      code: .exercise(7, OptionsAdapter<KeepsDeliveredSnapshots>.self, isSendable: false),
      counterexample: "still stored"),
    WrongAnswer(
      name: "08-always-removes-earlier", exercise: 8,
      mistake: "adding removes the observer's earlier callbacks even with removeIfExists false",
      caughtBy: .check(.generatedHandedOwners), evidence: "removeIfExists: false",
      code: .exercise(8, HandingAdapter<HandingAlwaysRemovesEarlier>.self, isSendable: false),
      counterexample: "removeIfExists: false"),
    WrongAnswer(
      name: "08-initial-before-storing", exercise: 8,
      mistake: "the .initial call is made before the callback is stored",
      caughtBy: .check(.generatedHandedOwners), evidence: "on its .initial call, removes itself",
      code: .exercise(8, HandingAdapter<HandingInitialBeforeStoring>.self, isSendable: false),
      counterexample: "after it was removed"),
    WrongAnswer(
      name: "08-delays-initial-during-set", exercise: 8,
      mistake: "an .initial call asked for during a set is made once the set is over",
      caughtBy: .check(.generatedHandedOwners), evidence: ".initial",
      code: .exercise(8, HandingAdapter<HandingDelaysInitial>.self, isSendable: false),
      counterexample: ".initial"),
    WrongAnswer(
      name: "08-old-pass-holds-observers", exercise: 8,
      mistake: "the .old pass holds the observers, so one released in it is still handed over",
      caughtBy: .check(.generatedHandedOwners), evidence: "→",
      code: .exercise(8, HandingAdapter<OldPassHoldsObservers>.self, isSendable: false)),
    WrongAnswer(
      name: "08-caches-the-handed-observer", exercise: 8,
      mistake: "each callback keeps the observer it handed, strongly",
      caughtBy: .check(.generatedHandedOwners), evidence: "not freed",
      code: .exercise(8, HandingAdapter<CachesTheHandedObserver>.self, isSendable: false),
      counterexample: "not freed"),
    WrongAnswer(
      name: "08-inverted-remove-if-exists", exercise: 8,
      mistake: "the earlier callbacks are removed only when removeIfExists is false",
      caughtBy: .check(.generatedHandedOwners), evidence: "→",
      code: .exercise(8, HandingAdapter<InvertedRemoveIfExists>.self, isSendable: false)),
    WrongAnswer(
      name: "11-skips-equal-scores", exercise: 11,
      mistake: "a score equal to the one shown is skipped, and the tracking not armed again",
      caughtBy: .check(.generatedLabels), evidence: "→",
      code: .observedLabel(LabelSkippingEqualScores.self),
      counterexample: "leaving the score it showed"),
    WrongAnswer(
      name: "11-shares-one-pending-flag", exercise: 11,
      mistake: "every label shares one flag coalescing updates, so one label's drops another's",
      caughtBy: .check(.generatedLabels), evidence: "→",
      code: .observedLabel(LabelSharingOnePendingFlag.self),
      // Its flag outlives a program: under load, a task of the program before may still hold
      // it when the next program's label is told of a change, which is then dropped, and that
      // label's tracking looks as if it never fired (about 1 run in 3 on a busy machine), or
      // as if it fired once and was not tracked again. The verdict is the same every time.
      counterexample:
        "each label keeps up on its own|its tracking never fired|A tracking fires once"),
    WrongAnswer(
      name: "11-shows-higher-only", exercise: 11,
      mistake: "the label shows a score only when it is higher than the best shown",
      caughtBy: .check(.generatedLabels), evidence: "→",
      code: .observedLabel(LabelShowingHigherOnly.self), counterexample: "lower than"),
    WrongAnswer(
      name: "11-stops-below-zero", exercise: 11,
      mistake: "a score below zero stops the label: it shows nothing more, and tracks no more",
      caughtBy: .check(.generatedLabels), evidence: "→",
      code: .observedLabel(LabelStoppingBelowZero.self), counterexample: "for a score of -"),
    WrongAnswer(
      name: "11-labels-share-one-open-flag", exercise: 11,
      mistake: "every label shares one open flag, so closing one closes all",
      caughtBy: .check(.generatedLabels), evidence: "→",
      code: .observedLabel(LabelsSharingOneOpenFlag.self),
      counterexample: "closing one label must leave the others showing"),
  ]
}
