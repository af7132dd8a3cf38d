import ObserverScenarios
import WorkshopKit

// Round 4: wrong answers of the kinds an outside tester's set found the generated programs
// could not reach: mistakes that show only past eight observers or 255 binds, or when a new
// observer is given a freed one's address; binding order broken where it is promised; `.old`
// and `.new` told per callback; a value set from inside a closure; a clean-up done where the
// grader used to look. Each is wrong by its exercise's promise, as its doc comment says.

// MARK: - Exercise 1

/// Keeps its ids in one byte: after 256 binds an id comes round again, and removing it
/// removes an older closure too.
final class IDWrapsAt256: RemovableBase, RemovableClosuresObservable {
  override func nextID() -> Int {
    lastID = (lastID + 1) % 256
    return lastID
  }
  func removeObserver(_ id: Int) { entries.removeAll { $0.id == id } }
}

/// Looks for the id among the first eight closures only, as if no more were ever bound.
final class RemovesAmongFirstEight: RemovableBase, RemovableClosuresObservable {
  func removeObserver(_ id: Int) {
    guard let index = entries.prefix(8).firstIndex(where: { $0.id == id }) else { return }
    entries.remove(at: index)
  }
}

/// Finds the closure to remove with a force unwrap: removing an id no longer bound traps.
final class ForceUnwrapsTheIndex: RemovableBase, RemovableClosuresObservable {
  func removeObserver(_ id: Int) {
    entries.remove(at: entries.firstIndex { $0.id == id }!)
  }
}

/// Reads the value once and hands that copy to every closure: after a closure sets the value,
/// the closures after it are handed the old one.
final class OneValueForEveryClosure: RemovableClosuresObservable {
  private var entries: [RemovableBase.Entry] = []
  private var lastID = 0
  var value: Int {
    didSet {
      let newValue = value
      for entry in entries { entry.observer(newValue) }
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

/// Every observable's closures, in one table at file scope, by the observable's identity.
nonisolated(unsafe) private var closuresOfEveryObservable:
  [ObjectIdentifier: [RemovableBase.Entry]] =
    [:]

/// Keeps its closures in a table at file scope, by its own identity, and never takes them out:
/// a new observable given a freed one's address inherits its closures.
final class ClosuresInAGlobalTable: RemovableClosuresObservable {
  private var lastID = 0
  private var entries: [RemovableBase.Entry] {
    get { closuresOfEveryObservable[ObjectIdentifier(self)] ?? [] }
    set { closuresOfEveryObservable[ObjectIdentifier(self)] = newValue }
  }
  var value: Int { didSet { for entry in entries { entry.observer(value) } } }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: @escaping (Int) -> Void) -> Int {
    lastID += 1
    entries.append(RemovableBase.Entry(id: lastID, observer: observer))
    return lastID
  }
  func removeObserver(_ id: Int) { entries.removeAll { $0.id == id } }
}

// MARK: - Exercises 4 and 5

/// Drops the dead entries when the value is read, not when it is set: a program that sets and
/// never reads keeps them.
final class CleansInValueGetter: WeakObservable {
  private var entries: [WeakBase.Entry] = []
  private var storedValue: Int
  var value: Int {
    get {
      entries.removeAll { $0.observer == nil }
      return storedValue
    }
    set {
      storedValue = newValue
      for entry in entries where entry.observer != nil { entry.closure(storedValue) }
    }
  }
  var observerCount: Int { entries.count }
  init(_ value: Int) { storedValue = value }
  func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { $0.observer == nil }
    entries.append(WeakBase.Entry(observer: observer, closure: closure))
  }
}

/// Binding again moves the last entry into the place of the one replaced, then appends the
/// new one: the observers bound after it change places.
final class RebindSwapsWithLast: WeakBase, WeakObservable {
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { $0.observer == nil }
    if let index = entries.firstIndex(where: { $0.observer === observer }) {
      entries.swapAt(index, entries.count - 1)
      entries.removeLast()
    }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

/// Keeps a set of the observers bound, by identity, that dropping a dead entry does not
/// empty: a new observer given a freed one's address is taken for it, and never stored.
final class BoundSetKeepsFreedAddresses: WeakBase, WeakObservable {
  private var bound: Set<ObjectIdentifier> = []
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { $0.observer == nil }
    let identity = ObjectIdentifier(observer)
    if bound.contains(identity) {
      // Replaces the closure of the entry it takes to be the observer's.
      guard let index = entries.firstIndex(where: { $0.observer === observer }) else { return }
      entries[index] = Entry(observer: observer, closure: closure)
      return
    }
    bound.insert(identity)
    entries.append(Entry(observer: observer, closure: closure))
  }
}

// MARK: - Exercises 6 and 7

/// Tells each callback its old value, then its new one, before going on to the next: the
/// promise is every old value first, then every new one.
final class OldAndNewPerCallback: OptionsBase, OptionsObservable {
  override func deliver(old: Int, new: Int) {
    callbacks.removeAll { $0.observer == nil }
    for callback in callbacks {
      if callback.options.contains(.old), isStored(callback) { callback.closure(old, .old) }
      if callback.options.contains(.new), isStored(callback) { callback.closure(new, .new) }
    }
  }
}

/// Whether any observable is notifying: one flag at file scope, for every observable.
nonisolated(unsafe) private var anyObservableNotifying = false

/// Queues a set made during a notification, but knows a notification is under way from a flag
/// every observable shares: a set of one observable from inside a closure of another is queued
/// on it, and never delivered.
final class NotifyingFlagAtFileScope: QueueBase, OptionsObservable {
  override func set(_ newValue: Int) {
    pending.append((storedValue, newValue))
    storedValue = newValue
    guard !anyObservableNotifying else { return }
    anyObservableNotifying = true
    defer { anyObservableNotifying = false }
    while let change = next() { deliver(old: change.old, new: change.new) }
  }
}

extension WrongAnswer {
  /// Round 4, by exercise.
  static let round4 = [
    WrongAnswer(
      name: "01-id-wraps-at-256", exercise: 1,
      mistake: "ids are kept in one byte, so after 256 binds an id comes round again",
      caughtBy: .check(.generatedRemovals), evidence: "→",
      code: .exercise(1, RemovableClosuresAdapter<IDWrapsAt256>.self, isSendable: false),
      // Told with its repeated steps folded: the shrink stops within its budget of steps.
      counterexample: "times: bind D, remove D"),
    WrongAnswer(
      name: "01-removes-among-first-eight", exercise: 1,
      mistake: "removal looks for the id among the first eight closures only",
      caughtBy: .check(.generatedRemovals), evidence: "→",
      code: .exercise(
        1, RemovableClosuresAdapter<RemovesAmongFirstEight>.self, isSendable: false)),
    WrongAnswer(
      name: "01-force-unwraps-the-index", exercise: 1,
      mistake: "the index of the closure to remove is force-unwrapped, so removing an id no "
        + "longer bound traps",
      caughtBy: .check(.generatedRemovals),
      evidence: "Shrunk, each try in a fresh process: bind A; remove A; then remove A's first id "
        + "again, which crashed",
      code: .exercise(1, RemovableClosuresAdapter<ForceUnwrapsTheIndex>.self, isSendable: false)),
    WrongAnswer(
      name: "01-one-value-for-every-closure", exercise: 1,
      mistake: "the value is read once and that copy handed to every closure, so a closure "
        + "that sets leaves the ones after it with the old value",
      caughtBy: .check(.generatedRemovals), evidence: "read again at its turn",
      code: .exercise(
        1, RemovableClosuresAdapter<OneValueForEveryClosure>.self, isSendable: false),
      counterexample: "read again at its turn"),
    WrongAnswer(
      name: "01-closures-in-a-global-table", exercise: 1,
      mistake: "every observable's closures are kept in one table at file scope, by the "
        + "observable's identity, and never taken out",
      caughtBy: .check(.generatedRemovals), evidence: "keeps state outside each observable",
      code: .exercise(
        1, RemovableClosuresAdapter<ClosuresInAGlobalTable>.self, isSendable: false)),
    WrongAnswer(
      name: "04-cleans-in-value-getter", exercise: 4,
      mistake: "the dead entries go when the value is read, not when it is set",
      caughtBy: .check(.generatedReleases), evidence: "→",
      code: .exercise(4, WeakAdapter<CleansInValueGetter>.self, isSendable: false)),
    WrongAnswer(
      name: "05-rebind-swaps-with-last", exercise: 5,
      mistake: "binding again moves the last entry into the place of the one replaced",
      caughtBy: .check(.generatedRebinds), evidence: "in the order they were bound",
      code: .exercise(5, WeakAdapter<RebindSwapsWithLast>.self, isSendable: false),
      counterexample: "in the order they were bound"),
    WrongAnswer(
      name: "05-bound-set-keeps-freed-addresses", exercise: 5,
      mistake: "a set of the observers bound, by identity, is not emptied when a dead entry "
        + "is dropped, so a new observer at a freed one's address is never stored",
      caughtBy: .check(.generatedRebinds), evidence: "was not called with",
      code: .exercise(5, WeakAdapter<BoundSetKeepsFreedAddresses>.self, isSendable: false),
      counterexample: "was not called with"),
    WrongAnswer(
      name: "06-old-and-new-per-callback", exercise: 6,
      mistake: "each callback is told its old value then its new one before the next is told "
        + "anything",
      caughtBy: .check(.generatedRemovalsMidSet), evidence: "the old value first",
      code: .exercise(6, OptionsAdapter<OldAndNewPerCallback>.self, isSendable: false),
      counterexample: "the old value first"),
    WrongAnswer(
      name: "07-notifying-flag-at-file-scope", exercise: 7,
      mistake: "whether a notification is under way is one flag at file scope, which every "
        + "observable shares",
      caughtBy: .check(.generatedNestedSets), evidence: "on the second observable",
      code: .exercise(7, OptionsAdapter<NotifyingFlagAtFileScope>.self, isSendable: false),
      counterexample: "sets the second observable to"),
  ]
}
