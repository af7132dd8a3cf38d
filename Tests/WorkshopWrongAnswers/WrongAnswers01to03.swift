import ObserverScenarios
import WorkshopKit

// MARK: - Exercise 1: removable closures

/// Stage 1 with ids; `remove` is what each wrong answer gets wrong.
class RemovableBase {
  struct Entry {
    let id: Int
    let observer: (Int) -> Void
  }
  var entries: [Entry] = []
  var lastID = 0
  var value: Int { didSet { for entry in entries { entry.observer(value) } } }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  func nextID() -> Int {
    lastID += 1
    return lastID
  }
  func bindObserver(_ observer: @escaping (Int) -> Void) -> Int {
    let id = nextID()
    entries.append(Entry(id: id, observer: observer))
    return id
  }
}

/// Removes at index `id - 1`, as if no closure had ever been removed before.
final class RemoveAtIDMinusOne: RemovableBase, RemovableClosuresObservable {
  func removeObserver(_ id: Int) {
    if id - 1 < entries.count { entries.remove(at: id - 1) }
  }
}

/// A removal loop whose index never advances past an entry it keeps.
final class RemovalLoopNeverAdvances: RemovableBase, RemovableClosuresObservable {
  func removeObserver(_ id: Int) {
    var index = 0
    while index < entries.count {
      guard entries[index].id == id else { continue }
      entries.remove(at: index)
      index += 1
    }
  }
}

/// Removes every closure, whichever id it is given.
final class RemovesAll: RemovableBase, RemovableClosuresObservable {
  func removeObserver(_ id: Int) { entries.removeAll() }
}

/// Hands out the number of entries as the id, so that ids are reused after a removal.
final class IDFromCount: RemovableBase, RemovableClosuresObservable {
  override func nextID() -> Int { entries.count }
  func removeObserver(_ id: Int) { entries.removeAll { $0.id == id } }
}

/// Takes the next id from the last entry's, so that once the last entries are removed their
/// ids are handed out again.
final class IDFromLastEntry: RemovableBase, RemovableClosuresObservable {
  override func nextID() -> Int { (entries.last?.id ?? 0) + 1 }
  func removeObserver(_ id: Int) { entries.removeAll { $0.id == id } }
}

/// Counts ids, but starts again from 1 once every closure is removed.
final class IDRestartsWhenEmpty: RemovableBase, RemovableClosuresObservable {
  func removeObserver(_ id: Int) {
    entries.removeAll { $0.id == id }
    if entries.isEmpty { lastID = 0 }
  }
}

extension WrongAnswer {
  static let exercise1 = [
    WrongAnswer(
      name: "01-remove-at-id-minus-one", exercise: 1,
      mistake: "removeObserver removes at index id - 1",
      caughtBy: .check(.generatedRemovals),
      evidence: "remove A; set 3, and B's closure removes itself → B's closure was still "
        + "stored after it was removed",
      code: .exercise(1, RemovableClosuresAdapter<RemoveAtIDMinusOne>.self, isSendable: false)),
    WrongAnswer(
      name: "01-removal-loop-never-advances", exercise: 1,
      mistake: "the removal loop never moves past an entry it keeps",
      caughtBy: .check(.generatedRemovals), evidence: "did not finish within",
      code: .exercise(
        1, RemovableClosuresAdapter<RemovalLoopNeverAdvances>.self, isSendable: false)),
    WrongAnswer(
      name: "01-removes-all", exercise: 1, mistake: "removeObserver removes every closure",
      caughtBy: .check(.generatedRemovals),
      evidence: "set 4, and A's closure removes itself; read observerCount → observerCount "
        + "said 0, not 1 (bound",
      code: .exercise(1, RemovableClosuresAdapter<RemovesAll>.self, isSendable: false)),
    WrongAnswer(
      name: "01-id-from-count", exercise: 1,
      mistake: "the id is the count of entries, so a new bind reuses a live id",
      caughtBy: .check(.generatedRemovals),
      evidence: "set 3, and B's closure removes itself; read observerCount → observerCount "
        + "said 0, not 1 (bound",
      code: .exercise(1, RemovableClosuresAdapter<IDFromCount>.self, isSendable: false)),
    WrongAnswer(
      name: "01-id-from-last-entry", exercise: 1,
      mistake: "the next id follows the last entry's, so removed ids come back",
      caughtBy: .check(.generatedRemovals),
      evidence: "set 2, and C's closure removes A; read observerCount → observerCount said 1, "
        + "not 2 (bound",
      code: .exercise(1, RemovableClosuresAdapter<IDFromLastEntry>.self, isSendable: false)),
    WrongAnswer(
      name: "01-id-restarts-when-empty", exercise: 1,
      mistake: "the id counter starts again once no closure is left",
      caughtBy: .check(.generatedRemovals),
      evidence: "set 3, and B's closure removes A; read observerCount → observerCount said 0, "
        + "not 1 (bound",
      code: .exercise(1, RemovableClosuresAdapter<IDRestartsWhenEmpty>.self, isSendable: false)),
  ]
}

// MARK: - Exercise 2: call in order

/// Stage 2 with an array of keys beside the dictionary; `bind` and `remove` are the mistakes.
class KeyedBase {
  var observers: [String: (Int) -> Void] = [:]
  var keys: [String] = []
  var value: Int { didSet { for key in keys { observers[key]?(value) } } }
  var observerCount: Int { observers.count }
  init(_ value: Int) { self.value = value }
}

/// Appends the key on every bind, so a key bound again is walked twice.
final class AppendsEveryBind: KeyedBase, KeyedObservable {
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    observers[key] = observer
    keys.append(key)
  }
  func removeObserver(forKey key: String) {
    observers[key] = nil
    keys.removeAll { $0 == key }
  }
}

/// Removes the key from the dictionary only, so that it stays in the order.
final class RemoveLeavesKeyInOrder: KeyedBase, KeyedObservable {
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if observers.updateValue(observer, forKey: key) == nil { keys.append(key) }
  }
  func removeObserver(forKey key: String) { observers[key] = nil }
}

/// Moves a key bound again to the end of the order.
final class ReboundKeyMovesLast: KeyedBase, KeyedObservable {
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    keys.removeAll { $0 == key }
    keys.append(key)
    observers[key] = observer
  }
  func removeObserver(forKey key: String) {
    observers[key] = nil
    keys.removeAll { $0 == key }
  }
}

/// Calls the keys in sorted order, not in the order they were bound.
final class SortedKeys: KeyedBase, KeyedObservable {
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    observers[key] = observer
    keys = observers.keys.sorted()
  }
  func removeObserver(forKey key: String) {
    observers[key] = nil
    keys = observers.keys.sorted()
  }
}

extension WrongAnswer {
  static let exercise2 = [
    WrongAnswer(
      name: "02-appends-every-bind", exercise: 2,
      mistake: "a key bound again is appended to the order again",
      caughtBy: .check(.generatedKeysInOrder),
      evidence:
        "bind title; bind title again; set 1 → title's second closure was called twice with "
        + "1",
      code: .exercise(2, KeyedAdapter<AppendsEveryBind>.self, isSendable: false)),
    WrongAnswer(
      name: "02-remove-leaves-key-in-order", exercise: 2,
      mistake: "removeObserver leaves the key in the order",
      caughtBy: .check(.generatedKeysInOrder),
      evidence: "set 4, and badge's closure binds title; set 1 → title's second closure was "
        + "called twice with 1 for one set",
      code: .exercise(2, KeyedAdapter<RemoveLeavesKeyInOrder>.self, isSendable: false)),
    WrongAnswer(
      name: "02-rebound-key-moves-last", exercise: 2,
      mistake: "a key bound again moves to the end",
      caughtBy: .check(.generatedKeysInOrder),
      evidence: "bind title; bind badge; bind title again; set 1 → badge was called with 1 before "
        + "title's second closure",
      code: .exercise(2, KeyedAdapter<ReboundKeyMovesLast>.self, isSendable: false)),
    WrongAnswer(
      name: "02-sorted-keys", exercise: 2, mistake: "the keys are called in sorted order",
      caughtBy: .check(.generatedKeysInOrder),
      evidence: "bind title; bind badge; set 1 → badge was called with 1 before title",
      code: .exercise(2, KeyedAdapter<SortedKeys>.self, isSendable: false)),
  ]
}

// MARK: - Exercise 3: keys per owner

/// Stage 2 with the owner beside the key, filed under a string key the mistakes choose.
class OwnerKeyedBase {
  var observers: [String: (Int) -> Void] = [:]
  var value: Int { didSet { for observer in observers.values { observer(value) } } }
  var observerCount: Int { observers.count }
  init(_ value: Int) { self.value = value }
}

/// Files each closure under `"\(owner).\(key)"`: the same string for two owners of one class.
final class DescribedOwnerKey: OwnerKeyedBase, OwnerKeyedObservable {
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    observers["\(owner).\(key)"] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    observers["\(owner).\(key)"] = nil
  }
}

/// Files by owner and key, but removes every owner's closure under the key.
final class RemovesEveryOwnersKey: OwnerKeyedBase, OwnerKeyedObservable {
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    observers["\(ObjectIdentifier(owner).hashValue)|\(key)"] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    observers = observers.filter { !$0.key.hasSuffix("|\(key)") }
  }
}

/// Files by owner only: an owner's second key replaces its first.
final class KeyedByOwnerOnly: OwnerKeyedBase, OwnerKeyedObservable {
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    observers["\(ObjectIdentifier(owner).hashValue)"] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    observers["\(ObjectIdentifier(owner).hashValue)"] = nil
  }
}

/// Files by owner and key, but removes every key of the owner.
final class RemovesEveryKeyOfOwner: OwnerKeyedBase, OwnerKeyedObservable {
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    observers["\(ObjectIdentifier(owner).hashValue)|\(key)"] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    observers = observers.filter { !$0.key.hasPrefix("\(ObjectIdentifier(owner).hashValue)|") }
  }
}

/// Keeps an array of owner, key and closure; binding replaces by owner and key, but removal
/// takes the first entry under the key, whoever owns it.
final class RemovesFirstUnderKey: OwnerKeyedObservable {
  var entries: [(owner: ObjectIdentifier, key: String, observer: (Int) -> Void)] = []
  var value: Int { didSet { for entry in entries { entry.observer(value) } } }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    let id = ObjectIdentifier(owner)
    entries.removeAll { $0.owner == id && $0.key == key }
    entries.append((id, key, observer))
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    if let index = entries.firstIndex(where: { $0.key == key }) { entries.remove(at: index) }
  }
}

extension WrongAnswer {
  static let exercise3 = [
    WrongAnswer(
      name: "03-described-owner-key", exercise: 3,
      mistake: "the key is \"\\(owner).\\(key)\", the same for two owners of one class",
      caughtBy: .check(.generatedOwnersAndKeys),
      evidence: "bind Q's badge; read observerCount → observerCount said 1, not 2 (bound",
      code: .exercise(3, OwnerKeyedAdapter<DescribedOwnerKey>.self, isSendable: false)),
    WrongAnswer(
      name: "03-removes-every-owners-key", exercise: 3,
      mistake: "removeObserver removes every owner's closure under the key",
      caughtBy: .check(.generatedOwnersAndKeys),
      evidence: "set 4, and P's badge's closure removes Q's badge; read observerCount → "
        + "observerCount said 0, not 1 (bound",
      code: .exercise(3, OwnerKeyedAdapter<RemovesEveryOwnersKey>.self, isSendable: false)),
    WrongAnswer(
      name: "03-keyed-by-owner-only", exercise: 3,
      mistake: "closures are filed by owner alone, so an owner's second key replaces its first",
      caughtBy: .check(.generatedOwnersAndKeys),
      evidence: "bind Q's badge; read observerCount → observerCount said 1, not 2 (bound",
      code: .exercise(3, OwnerKeyedAdapter<KeyedByOwnerOnly>.self, isSendable: false)),
    WrongAnswer(
      name: "03-removes-every-key-of-owner", exercise: 3,
      mistake: "removeObserver removes every key of the owner",
      caughtBy: .check(.generatedOwnersAndKeys),
      evidence: "bind P's label; set 2, and P's label's closure removes P's badge then sets 5 "
        + "→ P's label was not called with 5",
      code: .exercise(3, OwnerKeyedAdapter<RemovesEveryKeyOfOwner>.self, isSendable: false)),
    WrongAnswer(
      name: "03-removes-first-under-key", exercise: 3,
      mistake: "removeObserver removes the first closure under the key, whichever owner asks",
      caughtBy: .check(.generatedOwnersAndKeys),
      evidence: "set 4, and P's badge's closure removes Q's badge; read observerCount → "
        + "observerCount said 0, not 1 (bound",
      code: .exercise(3, OwnerKeyedAdapter<RemovesFirstUnderKey>.self, isSendable: false)),
  ]
}
