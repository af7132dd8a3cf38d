import ObserverScenarios
import WorkshopKit

// MARK: - Exercises 4 and 5: stage 3

/// Stage 3: weakly held observers in one array, cleaned when somebody binds.
class WeakBase {
  struct Entry {
    weak var observer: AnyObject?
    let closure: (Int) -> Void
  }
  var entries: [Entry] = []
  var value: Int {
    didSet {
      clean()
      notify()
    }
  }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  /// What a set does to the dead entries first.
  func clean() {}
  /// Calls the live entries.
  func notify() {
    for entry in entries where entry.observer != nil { entry.closure(value) }
  }
  func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { $0.observer == nil }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

/// A set drops the first dead entry only.
final class CleansFirstDeadOnly: WeakBase, WeakObservable {
  override func clean() {
    if let index = entries.firstIndex(where: { $0.observer == nil }) { entries.remove(at: index) }
  }
}

/// The dead entries go when observerCount is read, never on a set.
final class CleansInObserverCount: WeakBase, WeakObservable {
  override var observerCount: Int {
    entries.removeAll { $0.observer == nil }
    return entries.count
  }
}

/// observerCount counts the live entries only; the dead ones stay stored.
final class CountsLiveOnly: WeakBase, WeakObservable {
  override var observerCount: Int { entries.count { $0.observer != nil } }
}

/// A set cleans only once more than eight entries are stored.
final class CleansAboveThreshold: WeakBase, WeakObservable {
  override func clean() {
    if entries.count > 8 { entries.removeAll { $0.observer == nil } }
  }
}

extension WrongAnswer {
  static let exercise4 = [
    WrongAnswer(
      name: "04-cleans-first-dead-only", exercise: 4, mistake: "a set drops one dead entry",
      caughtBy: .check(.generatedReleases),
      evidence: "let A go; set 1 → A's second closure was still stored after A was let go and "
        + "a set came",
      code: .exercise(4, WeakAdapter<CleansFirstDeadOnly>.self, isSendable: false)),
    WrongAnswer(
      name: "04-cleans-in-observer-count", exercise: 4,
      mistake: "observerCount cleans, so a set never does",
      caughtBy: .check(.generatedReleases),
      evidence: "bind A; let A go; set 1 → A's closure was still stored after A was let go and a "
        + "set came",
      code: .exercise(4, WeakAdapter<CleansInObserverCount>.self, isSendable: false)),
    WrongAnswer(
      name: "04-counts-live-only", exercise: 4,
      mistake: "observerCount counts only the live entries, and nothing is cleaned",
      caughtBy: .check(.generatedReleases),
      evidence:
        "let A go; set 1 → A's closure was still stored after A was let go and a set "
        + "came",
      code: .exercise(4, WeakAdapter<CountsLiveOnly>.self, isSendable: false)),
    WrongAnswer(
      name: "04-cleans-above-threshold", exercise: 4,
      mistake: "a set cleans only above a number of entries",
      caughtBy: .check(.generatedReleases),
      evidence:
        "let A go; set 1 → A's closure was still stored after A was let go and a set "
        + "came",
      code: .exercise(4, WeakAdapter<CleansAboveThreshold>.self, isSendable: false)),
  ]
}

/// Stage 3 with one entry per observer: what `bind` does with an earlier entry is the mistake.
class OneEntryBase: WeakBase {
  override func clean() { entries.removeAll { $0.observer == nil } }
}

/// A second bind is ignored: the first closure stays.
final class KeepsFirstClosure: OneEntryBase, WeakObservable {
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    if entries.contains(where: { $0.observer === observer }) { return }
    super.bindObserver(observer, closure: closure)
  }
}

/// Only the last entry is looked at, so a bind after somebody else's is not seen.
final class ChecksLastEntryOnly: OneEntryBase, WeakObservable {
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    if entries.last?.observer === observer { entries.removeLast() }
    super.bindObserver(observer, closure: closure)
  }
}

/// A second bind removes every entry, everybody's.
final class RebindRemovesEveryone: OneEntryBase, WeakObservable {
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    if entries.contains(where: { $0.observer === observer }) { entries.removeAll() }
    super.bindObserver(observer, closure: closure)
  }
}

/// Every bind is stored; a set calls each observer once, by its first entry.
final class DedupesOnSet: WeakBase, WeakObservable {
  override func notify() {
    var seen: Set<ObjectIdentifier> = []
    let live = entries.filter { entry in
      guard let observer = entry.observer else { return false }
      return seen.insert(ObjectIdentifier(observer)).inserted
    }
    for entry in live { entry.closure(value) }
  }
}

/// Finds the earlier entry's place, then drops the dead entries, then removes at that place:
/// after a dead entry before it, the place is somebody else's.
final class StaleIndexAfterClean: WeakBase, WeakObservable {
  override func clean() { entries.removeAll { $0.observer == nil } }
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    let existing = entries.firstIndex { $0.observer === observer }
    entries.removeAll { $0.observer == nil }
    if let existing, existing < entries.count { entries.remove(at: existing) }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

/// Replaces the earlier entry in its place, and returns before dropping the dead entries.
final class ReplacesInPlaceWithoutCleaning: WeakBase, WeakObservable {
  override func clean() { entries.removeAll { $0.observer == nil } }
  override func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    if let existing = entries.firstIndex(where: { $0.observer === observer }) {
      entries[existing] = Entry(observer: observer, closure: closure)
      return
    }
    super.bindObserver(observer, closure: closure)
  }
}

extension WrongAnswer {
  static let exercise5 = [
    WrongAnswer(
      name: "05-keeps-first-closure", exercise: 5,
      mistake: "a second bind is ignored, so the first closure stays",
      caughtBy: .check(.generatedRebinds),
      evidence: "bind A; bind A again → A's closure was still stored after A's second closure "
        + "replaced it",
      code: .exercise(5, WeakAdapter<KeepsFirstClosure>.self, isSendable: false)),
    WrongAnswer(
      name: "05-checks-last-entry-only", exercise: 5,
      mistake: "only the last entry is compared with the observer binding",
      caughtBy: .check(.generatedRebinds),
      evidence: "bind A; bind B again → B's closure was still stored after B's second closure "
        + "replaced it",
      code: .exercise(5, WeakAdapter<ChecksLastEntryOnly>.self, isSendable: false)),
    WrongAnswer(
      name: "05-rebind-removes-everyone", exercise: 5,
      mistake: "a second bind removes every observer's entry",
      caughtBy: .check(.generatedRebinds),
      evidence: "bind A again; read observerCount → observerCount said 1, not 2 (bound",
      code: .exercise(5, WeakAdapter<RebindRemovesEveryone>.self, isSendable: false)),
    WrongAnswer(
      name: "05-dedupes-on-set", exercise: 5,
      mistake: "every bind is stored, and a set calls each observer's first entry once",
      caughtBy: .check(.generatedRebinds),
      evidence: "bind A; bind A again → A's closure was still stored after A's second closure "
        + "replaced it",
      code: .exercise(5, WeakAdapter<DedupesOnSet>.self, isSendable: false)),
    WrongAnswer(
      name: "05-stale-index-after-clean", exercise: 5,
      mistake: "the earlier entry's place is found before the dead entries are dropped",
      caughtBy: .check(.generatedRebinds),
      evidence: "bind B; set 4, and C's closure lets A go, and B's closure binds B again → "
        + "B's closure was still stored after B's second closure replaced it",
      code: .exercise(5, WeakAdapter<StaleIndexAfterClean>.self, isSendable: false)),
    WrongAnswer(
      name: "05-replaces-in-place-without-cleaning", exercise: 5,
      mistake: "binding again replaces the entry in place and skips dropping the dead entries",
      caughtBy: .check(.generatedRebinds),
      evidence: "set 3, and A's closure lets B go; bind A again → B's closure was still "
        + "stored after B was let go and a bind came",
      code: .exercise(5, WeakAdapter<ReplacesInPlaceWithoutCleaning>.self, isSendable: false)),
  ]
}
