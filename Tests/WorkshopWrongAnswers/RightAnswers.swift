import Foundation
import Observation
import ObserverScenarios
import Stage5Concurrency
import WorkshopKit

// Right answers written differently from the solutions: the grader must call each solved. No
// check may assume how an answer stores its entries.

/// A right answer to an exercise, written unlike its solution. For tests only.
package struct RightAnswer: Sendable, CustomStringConvertible {
  /// Its name: `01-parallel-arrays`.
  package var name: String
  /// The exercise it answers.
  package var exercise: Int
  /// How it differs from the solution, in a sentence.
  package var how: String
  /// The code.
  package var code: ExerciseCode

  package var description: String { name }

  /// The first right answer to exercise `number`, if it has one.
  package static func first(for number: Int) -> RightAnswer? {
    all.first { $0.exercise == number }
  }

  /// Every right answer, by exercise.
  package static let all: [RightAnswer] = [
    RightAnswer(
      name: "01-parallel-arrays", exercise: 1,
      how: "ids and closures in two arrays side by side",
      code: .exercise(1, RemovableClosuresAdapter<ParallelArrays>.self, isSendable: false)),
    RightAnswer(
      name: "02-array-of-pairs", exercise: 2,
      how: "an array of key and closure pairs, no dictionary",
      code: .exercise(2, KeyedAdapter<ArrayOfPairs>.self, isSendable: false)),
    RightAnswer(
      name: "03-nested-tables", exercise: 3,
      how: "a table of owners, each with a table of keys",
      code: .exercise(3, OwnerKeyedAdapter<NestedTables>.self, isSendable: false)),
    RightAnswer(
      name: "04-cleans-after-notifying-keeps-recent-values", exercise: 4,
      how: "cleans after notifying, and keeps the last 16 values set beside the entries",
      code: .exercise(4, WeakAdapter<CleansAfterNotifying>.self, isSendable: false)),
    RightAnswer(
      name: "05-replaces-in-place", exercise: 5,
      how: "a second bind replaces the entry where it stands",
      code: .exercise(5, WeakAdapter<ReplacesInPlace>.self, isSendable: false)),
    RightAnswer(
      name: "06-class-removed-flag", exercise: 6,
      how: "each callback a class with a removed flag, set by removeObserver",
      code: .exercise(6, OptionsAdapter<ClassRemovedFlag>.self, isSendable: false)),
    RightAnswer(
      name: "07-queue-with-head-index", exercise: 7,
      how: "the pending changes in an array read through a head index",
      code: .exercise(7, OptionsAdapter<QueueWithHeadIndex>.self, isSendable: false)),
    RightAnswer(
      name: "08-weak-owner-in-the-callback", exercise: 8,
      how: "the callback holds the owner weakly and hands it over through a type-erased handler",
      code: .exercise(8, HandingAdapter<WeakOwnerInTheCallback>.self, isSendable: false)),
    RightAnswer(
      name: "01-live-walk-skips-removed", exercise: 1,
      how: "a set walks the live entries, so one removed mid-set is not called by it",
      code: .exercise(1, RemovableClosuresAdapter<LiveWalkSkipsRemoved>.self, isSendable: false)),
    RightAnswer(
      name: "06-queues-nested-sets-too", exercise: 6,
      how: "removal at once, and a set made inside a closure queued, as exercise 7 asks",
      code: .exercise(6, OptionsAdapter<RemovesAtOnceAndQueues>.self, isSendable: false)),
    RightAnswer(
      name: "07-removes-at-once-old-beside-new", exercise: 7,
      how:
        "removal at once too, and one loop over the pending changes telling the old values, then the new",
      code: .exercise(7, OptionsAdapter<RemovesAtOnceAndQueues>.self, isSendable: false)),
    RightAnswer(
      name: "09-nslock-unchecked-sendable", exercise: 9,
      how: "an NSLock and @unchecked Sendable instead of a Mutex",
      code: .exercise(
        9, SendableOptionsAdapter<NSLockUncheckedSendable<Int>>.self,
        threaded: NSLockUncheckedSendable<Stamp>.self)),
    RightAnswer(
      name: "11-main-queue-and-no-display-once-closed", exercise: 11,
      how: "onChange hops with DispatchQueue.main.async, and close() lets the display go",
      code: .observedLabel(LabelOnTheMainQueue.self)),
    RightAnswer(
      name: "10-tokens-let-go-and-a-main-actor-saver", exercise: 10,
      how: "close() lets the token go rather than cancel it, and the saver saves on the main actor",
      code: .mainActorScores(ScreenLettingItsTokenGo.self, SaverOnTheMainActor.self)),
    RightAnswer(
      name: "05-rebind-moves-last", exercise: 5,
      how: "a second bind removes the observer's entry and appends the new one, last",
      code: .exercise(5, WeakAdapter<RebindMovesLast>.self, isSendable: false)),
    RightAnswer(
      name: "01-ids-past-a-byte-in-a-table", exercise: 1,
      how: "ids counted in a UInt64, the closures in a table by id and the ids in an order array",
      code: .exercise(1, RemovableClosuresAdapter<WideIDsTableAndOrder>.self, isSendable: false)),
    RightAnswer(
      name: "01-uuid-ids-table-and-order", exercise: 1,
      how: "ids from UUID, the closures in a table and the ids in an order array",
      code: .exercise(1, RemovableClosuresAdapter<UUIDTableAndOrder>.self, isSendable: false)),
    RightAnswer(
      name: "02-linked-list", exercise: 2,
      how: "a doubly linked list of nodes, found by key through a table",
      code: .exercise(2, KeyedAdapter<LinkedListKeys>.self, isSendable: false)),
    RightAnswer(
      name: "03-array-of-triples", exercise: 3,
      how: "one array of owner identity, key and closure, searched in a line",
      code: .exercise(3, OwnerKeyedAdapter<ArrayOfTriples>.self, isSendable: false)),
    RightAnswer(
      name: "04-numbered-boxes", exercise: 4,
      how: "entries as class boxes in a table by sequence number, walked in number order",
      code: .exercise(4, WeakAdapter<NumberedBoxes>.self, isSendable: false)),
    RightAnswer(
      name: "05-table-by-identity", exercise: 5,
      how: "a table keyed by ObjectIdentifier, with the identities in binding order beside it",
      code: .exercise(5, WeakAdapter<TableByIdentity>.self, isSendable: false)),
    RightAnswer(
      name: "06-tombstones-compacted-after-set", exercise: 6,
      how: "a removal marks a class box removed mid-set; the list is compacted after the set",
      code: .exercise(6, OptionsAdapter<TombstonesCompactedAfterSet>.self, isSendable: false)),
    RightAnswer(
      name: "07-linked-queue", exercise: 7,
      how: "the pending changes in a linked list of class nodes, head and tail",
      code: .exercise(7, OptionsAdapter<LinkedQueue>.self, isSendable: false)),
    RightAnswer(
      name: "08-weak-box-per-callback", exercise: 8,
      how: "each callback a class box holding the observer weakly, the handler casting it back",
      code: .exercise(8, HandingAdapter<WeakBoxPerCallback>.self, isSendable: false)),
    RightAnswer(
      name: "11-link-to-the-label", exercise: 11,
      how: "onChange captures a small link holding the label weakly, not the label itself",
      code: .observedLabel(LabelThroughALink.self)),
  ]
}

// MARK: - Exercise 10

/// Closes by letting its token go, which cancels it, and shows the scores through a method of
/// its own, the handler holding the screen weakly.
@MainActor
final class ScreenLettingItsTokenGo: ScoresScreenModel {
  private var token: ObservationToken?
  private let display: ScoreDisplay
  init(showing scores: WrongScores, on display: ScoreDisplay) {
    self.display = display
    token = scores.observable.observe(options: [.initial]) { [weak self] change in
      self?.show(change.newValue)
    }
  }
  private func show(_ scores: [Int: Int]) { display.show(scores) }
  func close() { token = nil }
}

/// Saves on the main actor: `observe` called from its main-actor init. The exercise lets the
/// saver save on any thread, this one included.
@MainActor
final class SaverOnTheMainActor: ScoreSaverModel {
  private let token: ObservationToken
  init(saving scores: WrongScores, to file: ScoreFile) {
    token = scores.observable.observe { file.save($0.newValue) }
  }
}

// MARK: - Exercise 11

/// Tracks and reads in one `withObservationTracking`, updates on the main queue's next turn,
/// and closes by letting its display go rather than with a flag.
@MainActor
final class LabelOnTheMainQueue: ScoreLabelModel {
  private let player: WrongPlayer
  private var display: LabelDisplay?
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    self.player = player
    self.display = display
    refresh()
  }
  private func refresh() {
    guard let display else { return }
    display.show(
      withObservationTracking {
        player.score
      } onChange: { [weak self] in
        DispatchQueue.main.async { MainActor.assumeIsolated { self?.refresh() } }
      })
  }
  func close() { display = nil }
}

// MARK: - Exercise 1

/// Ids and closures in two arrays, kept in step.
final class ParallelArrays: RemovableClosuresObservable {
  private var ids: [Int] = []
  private var closures: [(Int) -> Void] = []
  private var nextID = 1
  var value: Int { didSet { for closure in closures { closure(value) } } }
  var observerCount: Int { closures.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: @escaping (Int) -> Void) -> Int {
    defer { nextID += 1 }
    ids.append(nextID)
    closures.append(observer)
    return nextID
  }
  func removeObserver(_ id: Int) {
    guard let index = ids.firstIndex(of: id) else { return }
    ids.remove(at: index)
    closures.remove(at: index)
  }
}

// MARK: - Exercise 2

/// Keys and closures as pairs in one array.
final class ArrayOfPairs: KeyedObservable {
  private var pairs: [(key: String, closure: (Int) -> Void)] = []
  var value: Int { didSet { for pair in pairs { pair.closure(value) } } }
  var observerCount: Int { pairs.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if let index = pairs.firstIndex(where: { $0.key == key }) {
      pairs[index].closure = observer
    } else {
      pairs.append((key, observer))
    }
  }
  func removeObserver(forKey key: String) { pairs.removeAll { $0.key == key } }
}

// MARK: - Exercise 3

/// A table of owners, each with its own table of keys.
final class NestedTables: OwnerKeyedObservable {
  private var tables: [ObjectIdentifier: [String: (Int) -> Void]] = [:]
  var value: Int {
    didSet {
      for table in tables.values {
        for closure in table.values { closure(value) }
      }
    }
  }
  var observerCount: Int { tables.values.reduce(0) { $0 + $1.count } }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    tables[ObjectIdentifier(owner), default: [:]][key] = observer
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    let id = ObjectIdentifier(owner)
    tables[id]?[key] = nil
    if tables[id]?.isEmpty == true { tables[id] = nil }
  }
}

// MARK: - Exercises 4 and 5

/// Notifies first, then drops the dead entries; remembers the last 16 values set.
final class CleansAfterNotifying: WeakObservable {
  private struct Entry {
    weak var observer: AnyObject?
    let closure: (Int) -> Void
  }
  private var entries: [Entry] = []
  /// The last values set, at most 16: more than there are entries, and nothing to do with them.
  private(set) var recentValues: [Int] = []
  var value: Int {
    didSet {
      recentValues.append(value)
      if recentValues.count > 16 { recentValues.removeFirst() }
      for entry in entries where entry.observer != nil { entry.closure(value) }
      entries.removeAll { $0.observer == nil }
    }
  }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { $0.observer == nil }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

/// Replaces an observer's entry where it stands; drops the dead ones on bind.
final class ReplacesInPlace: WeakObservable {
  private struct Entry {
    weak var observer: AnyObject?
    var closure: (Int) -> Void
  }
  private var entries: [Entry] = []
  var value: Int {
    didSet { for entry in entries where entry.observer != nil { entry.closure(value) } }
  }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { $0.observer == nil }
    if let index = entries.firstIndex(where: { $0.observer === observer }) {
      entries[index].closure = closure
    } else {
      entries.append(Entry(observer: observer, closure: closure))
    }
  }
}

/// A second bind removes the observer's entry and appends a new one: binding order kept for
/// the others, the rebound observer last.
final class RebindMovesLast: WeakObservable {
  private struct Entry {
    weak var observer: AnyObject?
    let closure: (Int) -> Void
  }
  private var entries: [Entry] = []
  var value: Int {
    didSet { for entry in entries where entry.observer != nil { entry.closure(value) } }
  }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries.removeAll { $0.observer == nil || $0.observer === observer }
    entries.append(Entry(observer: observer, closure: closure))
  }
}

/// Ids counted in a `UInt64`, the closures in a table by id, the ids in an order array; each
/// closure handed the value read at its turn.
final class WideIDsTableAndOrder: RemovableClosuresObservable {
  private var closures: [UInt64: (Int) -> Void] = [:]
  private var order: [UInt64] = []
  private var lastID: UInt64 = 0
  var value: Int {
    didSet {
      for id in order { closures[id]?(value) }
    }
  }
  var observerCount: Int { closures.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: @escaping (Int) -> Void) -> UInt64 {
    lastID += 1
    closures[lastID] = observer
    order.append(lastID)
    return lastID
  }
  func removeObserver(_ id: UInt64) {
    guard closures.removeValue(forKey: id) != nil else { return }
    order.removeAll { $0 == id }
  }
}

// MARK: - Exercise 6

/// Each callback a class: removal sets its flag, and a notification skips a flagged one.
final class ClassRemovedFlag: OptionsObservable {
  private final class Callback {
    weak var observer: AnyObject?
    let options: WrongOptions
    let closure: (Int, WrongOptions) -> Void
    var isRemoved = false
    init(observer: AnyObject, options: WrongOptions, closure: @escaping (Int, WrongOptions) -> Void)
    {
      self.observer = observer
      self.options = options
      self.closure = closure
    }
  }
  private var callbacks: [Callback] = []
  private var storedValue: Int
  var value: Int {
    get { storedValue }
    set {
      let oldValue = storedValue
      storedValue = newValue
      callbacks.removeAll { $0.observer == nil }
      let snapshot = callbacks
      for (value, option) in [(oldValue, WrongOptions.old), (newValue, .new)] {
        for callback in snapshot where callback.options.contains(option) && !callback.isRemoved {
          callback.closure(value, option)
        }
      }
    }
  }
  var observerCount: Int { callbacks.count }
  init(_ value: Int) { storedValue = value }
  func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping (Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    callbacks.append(Callback(observer: observer, options: options, closure: closure))
    if options.contains(.initial) { closure(storedValue, .initial) }
  }
  func removeObserver(_ observer: AnyObject) {
    for callback in callbacks where callback.observer === observer { callback.isRemoved = true }
    callbacks.removeAll(where: \.isRemoved)
  }
}

// MARK: - Exercise 7

/// Queues changes in an array read from a head index, emptied once it is drained.
final class QueueWithHeadIndex: OptionsObservable {
  private struct Callback {
    weak var observer: AnyObject?
    let options: WrongOptions
    let closure: (Int, WrongOptions) -> Void
  }
  private var callbacks: [Callback] = []
  private var queue: [(old: Int, new: Int)] = []
  private var head = 0
  private var storedValue: Int
  var value: Int {
    get { storedValue }
    set {
      queue.append((storedValue, newValue))
      storedValue = newValue
      // Someone further up the stack is draining the queue: it reaches this change.
      guard queue.count - head == 1 else { return }
      while head < queue.count {
        let change = queue[head]
        callbacks.removeAll { $0.observer == nil }
        let snapshot = callbacks
        for callback in snapshot where callback.options.contains(.old) {
          callback.closure(change.old, .old)
        }
        for callback in snapshot where callback.options.contains(.new) {
          callback.closure(change.new, .new)
        }
        head += 1
      }
      queue = []
      head = 0
    }
  }
  var observerCount: Int { callbacks.count }
  init(_ value: Int) { storedValue = value }
  func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping (Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    callbacks.append(Callback(observer: observer, options: options, closure: closure))
    if options.contains(.initial) { closure(storedValue, .initial) }
  }
  func removeObserver(_ observer: AnyObject) { callbacks.removeAll { $0.observer === observer } }
}

// MARK: - Exercise 8

/// Holds the owner weakly in the callback, and hands it to a handler that takes any object.
final class WeakOwnerInTheCallback: HandingObservable {
  private struct Callback {
    weak var observer: AnyObject?
    let options: WrongOptions
    let handler: (AnyObject, Int, WrongOptions) -> Void
  }
  private var callbacks: [Callback] = []
  private var storedValue: Int
  var value: Int {
    get { storedValue }
    set {
      let oldValue = storedValue
      storedValue = newValue
      callbacks.removeAll { $0.observer == nil }
      let snapshot = callbacks
      for (value, option) in [(oldValue, WrongOptions.old), (newValue, .new)] {
        for callback in snapshot where callback.options.contains(option) {
          if let observer = callback.observer { callback.handler(observer, value, option) }
        }
      }
    }
  }
  var observerCount: Int { callbacks.count }
  init(_ value: Int) { storedValue = value }
  func addObserver<Observer: AnyObject>(
    _ observer: Observer, removeIfExists: Bool, options: WrongOptions,
    handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    // The handler captures nothing but itself; the observer comes from the weak reference.
    let erased: (AnyObject, Int, WrongOptions) -> Void = { observer, value, option in
      if let observer = observer as? Observer { handler(observer, value, option) }
    }
    callbacks.append(Callback(observer: observer, options: options, handler: erased))
    if options.contains(.initial) { handler(observer, storedValue, .initial) }
  }
  func removeObserver(_ observer: AnyObject) { callbacks.removeAll { $0.observer === observer } }
}

// MARK: - Exercise 9

/// Exercise 9 with an NSLock around every stored property, and `@unchecked Sendable`: the
/// design the wrong answers of `WrongAnswers09Values.swift` each slip once, without a slip.
final class NSLockUncheckedSendable<Value: Sendable>: LockedButOnce<Value>, @unchecked Sendable {
  override class var slip: Slip? { nil }
}

extension NSLockUncheckedSendable: ThreadedObservable {}
extension NSLockUncheckedSendable: AdaptableObservable, SendableOptionsObservable
where Value == Int {}

// MARK: - Each exercise's promise, and more

/// Walks the live entries by id: one removed mid-set is skipped, one bound mid-set is not
/// reached. Exercise 1 allows both.
final class LiveWalkSkipsRemoved: RemovableClosuresObservable {
  private var entries: [RemovableBase.Entry] = []
  private var lastID = 0
  var value: Int {
    didSet {
      for id in entries.map(\.id) {
        entries.first { $0.id == id }?.observer(value)
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

/// Exercises 6 and 7 at once: removal is immediate, a set inside a closure is queued, and each
/// set tells every old value, then every new one.
final class RemovesAtOnceAndQueues: OptionsObservable {
  private var callbacks: [OptionsBase.Callback] = []
  private var pending: [(old: Int, new: Int)] = []
  private var isNotifying = false
  private var lastID = 0
  private var storedValue: Int
  var value: Int {
    get { storedValue }
    set {
      pending.append((storedValue, newValue))
      storedValue = newValue
      guard !isNotifying else { return }
      isNotifying = true
      defer { isNotifying = false }
      while !pending.isEmpty {
        let change = pending.removeFirst()
        callbacks.removeAll { $0.observer == nil }
        // Every old value first, then every new one: one pass for each, each callback
        // looked up again at its turn.
        for (option, told) in [(WrongOptions.old, change.old), (.new, change.new)] {
          for callback in callbacks where callback.options.contains(option) && isStored(callback) {
            callback.closure(told, option)
          }
        }
      }
    }
  }
  var observerCount: Int { callbacks.count }
  init(_ value: Int) { storedValue = value }
  private func isStored(_ callback: OptionsBase.Callback) -> Bool {
    callbacks.contains { $0.id == callback.id }
  }
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
  func removeObserver(_ observer: AnyObject) { callbacks.removeAll { $0.observer === observer } }
}

// MARK: - Round 3: right answers written by an outside tester

/// Ids from `UUID`, closures in a table, the ids in an order array beside it.
final class UUIDTableAndOrder: RemovableClosuresObservable {
  private var closures: [UUID: (Int) -> Void] = [:]
  private var order: [UUID] = []
  var value: Int { didSet { for id in order { closures[id]?(value) } } }
  var observerCount: Int { closures.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: @escaping (Int) -> Void) -> UUID {
    let id = UUID()
    closures[id] = observer
    order.append(id)
    return id
  }
  func removeObserver(_ id: UUID) {
    guard closures.removeValue(forKey: id) != nil else { return }
    order.removeAll { $0 == id }
  }
}

/// Keys in a doubly linked list, found through a table; a set walks from the head.
final class LinkedListKeys: KeyedObservable {
  private final class Node {
    let key: String
    var closure: (Int) -> Void
    var next: Node?
    weak var previous: Node?
    var isLinked = true
    init(key: String, closure: @escaping (Int) -> Void) {
      self.key = key
      self.closure = closure
    }
  }
  private var nodes: [String: Node] = [:]
  private var head: Node?
  private weak var tail: Node?
  var value: Int {
    didSet {
      var node = head
      while let current = node {
        if current.isLinked { current.closure(value) }
        node = current.next
      }
    }
  }
  var observerCount: Int { nodes.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void) {
    if let node = nodes[key] {
      node.closure = observer
      return
    }
    let node = Node(key: key, closure: observer)
    nodes[key] = node
    if let tail {
      tail.next = node
      node.previous = tail
    } else {
      head = node
    }
    tail = node
  }
  func removeObserver(forKey key: String) {
    guard let node = nodes.removeValue(forKey: key) else { return }
    node.isLinked = false
    node.closure = { _ in }
    if let previous = node.previous { previous.next = node.next } else { head = node.next }
    if let next = node.next { next.previous = node.previous } else { tail = node.previous }
  }
}

/// One array of owner identity, key and closure, searched in a line.
final class ArrayOfTriples: OwnerKeyedObservable {
  private var entries: [(owner: ObjectIdentifier, key: String, closure: (Int) -> Void)] = []
  var value: Int { didSet { for entry in entries { entry.closure(value) } } }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void) {
    let id = ObjectIdentifier(owner)
    if let index = entries.firstIndex(where: { $0.owner == id && $0.key == key }) {
      entries[index].closure = observer
    } else {
      entries.append((id, key, observer))
    }
  }
  func removeObserver(_ owner: AnyObject, forKey key: String) {
    let id = ObjectIdentifier(owner)
    entries.removeAll { $0.owner == id && $0.key == key }
  }
}

/// Entries as class boxes in a table by sequence number, walked in number order, cleaned on
/// set and on bind.
final class NumberedBoxes: WeakObservable {
  private final class Box {
    weak var observer: AnyObject?
    let closure: (Int) -> Void
    init(_ observer: AnyObject, _ closure: @escaping (Int) -> Void) {
      self.observer = observer
      self.closure = closure
    }
  }
  private var boxes: [Int: Box] = [:]
  private var next = 0
  var value: Int {
    didSet {
      clean()
      for number in boxes.keys.sorted() {
        if let box = boxes[number], box.observer != nil { box.closure(value) }
      }
    }
  }
  var observerCount: Int { boxes.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    clean()
    next += 1
    boxes[next] = Box(observer, closure)
  }
  private func clean() { boxes = boxes.filter { $0.value.observer != nil } }
}

/// One entry per observer in a table keyed by its identity, and the identities in binding
/// order beside it; binding again replaces the entry where it stands.
final class TableByIdentity: WeakObservable {
  private struct Entry {
    weak var observer: AnyObject?
    let closure: (Int) -> Void
  }
  private var entries: [ObjectIdentifier: Entry] = [:]
  private var order: [ObjectIdentifier] = []
  var value: Int {
    didSet {
      for id in order {
        if let entry = entries[id], entry.observer != nil { entry.closure(value) }
      }
    }
  }
  var observerCount: Int { entries.count }
  init(_ value: Int) { self.value = value }
  func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void) {
    entries = entries.filter { $0.value.observer != nil }
    order.removeAll { entries[$0] == nil }
    let id = ObjectIdentifier(observer)
    if entries.updateValue(Entry(observer: observer, closure: closure), forKey: id) == nil {
      order.append(id)
    }
  }
}

/// A removal marks a class box removed, and drops its closure; the list is compacted at once,
/// or after the set when one is under way.
final class TombstonesCompactedAfterSet: OptionsObservable {
  private final class Box {
    weak var observer: AnyObject?
    let options: WrongOptions
    var closure: ((Int, WrongOptions) -> Void)?
    init(
      _ observer: AnyObject, _ options: WrongOptions,
      _ closure: @escaping (Int, WrongOptions) -> Void
    ) {
      self.observer = observer
      self.options = options
      self.closure = closure
    }
  }
  private var boxes: [Box] = []
  private var depth = 0
  private var storedValue: Int
  var value: Int {
    get { storedValue }
    set {
      let oldValue = storedValue
      storedValue = newValue
      depth += 1
      for box in boxes where box.observer == nil { box.closure = nil }
      compact()
      let snapshot = boxes
      for option in [WrongOptions.old, .new] {
        for box in snapshot where box.options.contains(option) {
          box.closure?(option == .old ? oldValue : newValue, option)
        }
      }
      depth -= 1
      compact()
    }
  }
  var observerCount: Int { boxes.count { $0.closure != nil } }
  init(_ value: Int) { storedValue = value }
  func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping (Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    boxes.append(Box(observer, options, closure))
    if options.contains(.initial) { closure(storedValue, .initial) }
  }
  func removeObserver(_ observer: AnyObject) {
    for box in boxes where box.observer === observer { box.closure = nil }
    compact()
  }
  private func compact() {
    guard depth == 0 else { return }
    boxes.removeAll { $0.closure == nil }
  }
}

/// The pending changes in a linked list of class nodes, head and tail.
final class LinkedQueue: OptionsObservable {
  private final class Change {
    let old: Int
    let new: Int
    var next: Change?
    init(old: Int, new: Int) {
      self.old = old
      self.new = new
    }
  }
  private struct Callback {
    weak var observer: AnyObject?
    let options: WrongOptions
    let closure: (Int, WrongOptions) -> Void
  }
  private var callbacks: [Callback] = []
  private var head: Change?
  private var tail: Change?
  private var storedValue: Int
  var value: Int {
    get { storedValue }
    set {
      let change = Change(old: storedValue, new: newValue)
      storedValue = newValue
      if let tail {
        tail.next = change
        self.tail = change
        return
      }
      head = change
      tail = change
      while let current = head {
        callbacks.removeAll { $0.observer == nil }
        let snapshot = callbacks
        for callback in snapshot where callback.options.contains(.old) {
          callback.closure(current.old, .old)
        }
        for callback in snapshot where callback.options.contains(.new) {
          callback.closure(current.new, .new)
        }
        head = current.next
        if head == nil { tail = nil }
      }
    }
  }
  var observerCount: Int { callbacks.count }
  init(_ value: Int) { storedValue = value }
  func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: WrongOptions,
    closure: @escaping (Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    callbacks.append(Callback(observer: observer, options: options, closure: closure))
    if options.contains(.initial) { closure(storedValue, .initial) }
  }
  func removeObserver(_ observer: AnyObject) { callbacks.removeAll { $0.observer === observer } }
}

/// Each callback a class box holding its observer weakly; the handler casts it back.
final class WeakBoxPerCallback: HandingObservable {
  private final class Box {
    weak var observer: AnyObject?
    let options: WrongOptions
    let handler: (AnyObject, Int, WrongOptions) -> Void
    init(
      _ observer: AnyObject, _ options: WrongOptions,
      _ handler: @escaping (AnyObject, Int, WrongOptions) -> Void
    ) {
      self.observer = observer
      self.options = options
      self.handler = handler
    }
    func call(_ value: Int, _ option: WrongOptions) {
      guard let observer else { return }
      handler(observer, value, option)
    }
  }
  private var boxes: [Box] = []
  private var storedValue: Int
  var value: Int {
    get { storedValue }
    set {
      let oldValue = storedValue
      storedValue = newValue
      boxes.removeAll { $0.observer == nil }
      let snapshot = boxes
      for box in snapshot where box.options.contains(.old) { box.call(oldValue, .old) }
      for box in snapshot where box.options.contains(.new) { box.call(newValue, .new) }
    }
  }
  var observerCount: Int { boxes.count }
  init(_ value: Int) { storedValue = value }
  func addObserver<Observer: AnyObject>(
    _ observer: Observer, removeIfExists: Bool, options: WrongOptions,
    handler: @escaping (Observer, Int, WrongOptions) -> Void
  ) {
    if removeIfExists { removeObserver(observer) }
    let box = Box(observer, options) { object, value, option in
      if let observer = object as? Observer { handler(observer, value, option) }
    }
    boxes.append(box)
    if options.contains(.initial) { box.call(storedValue, .initial) }
  }
  func removeObserver(_ observer: AnyObject) { boxes.removeAll { $0.observer === observer } }
}

/// onChange captures a small link that holds the label weakly, never the label itself.
@MainActor
final class LabelThroughALink: ScoreLabelModel {
  @MainActor
  private final class Link {
    weak var label: LabelThroughALink?
    func refresh() { label?.refresh() }
  }
  private let player: WrongPlayer
  private let display: LabelDisplay
  private let link = Link()
  private var isOpen = true
  init(showing player: WrongPlayer, on display: LabelDisplay) {
    self.player = player
    self.display = display
    link.label = self
    refresh()
  }
  private func refresh() {
    guard isOpen else { return }
    let link = self.link
    let score = withObservationTracking {
      player.score
    } onChange: {
      Task { @MainActor in link.refresh() }
    }
    display.show(score)
  }
  func close() { isOpen = false }
}
