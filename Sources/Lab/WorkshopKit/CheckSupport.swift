import Foundation
import ObserverScenarios
import Support

// What the checks share: who was called, the steps taken so far, and entries counted in an
// observable's own storage.

/// Entries appended from any thread, in order: the calls a check's closures made, what a
/// display showed; read, taken, or waited for.
final class Recording<Entry: Sendable>: @unchecked Sendable {
  // Every stored property is read and written with `condition` locked.
  private let condition = NSCondition()
  private var entries: [Entry] = []

  func append(_ entry: Entry) {
    condition.lock()
    entries.append(entry)
    condition.broadcast()
    condition.unlock()
  }

  var all: [Entry] {
    condition.lock()
    defer { condition.unlock() }
    return entries
  }

  /// The entries since the last `take()`.
  func take() -> [Entry] {
    condition.lock()
    defer {
      entries = []
      condition.unlock()
    }
    return entries
  }

  /// The entries, once `done` says they are complete, or once `seconds` have passed.
  func wait(seconds: Double, until done: ([Entry]) -> Bool) -> [Entry] {
    let deadline = Date().addingTimeInterval(seconds)
    condition.lock()
    defer { condition.unlock() }
    while !done(entries), condition.wait(until: deadline) {}
    return entries
  }
}

extension Recording<Int> {
  /// How many times each number was appended since the last `take()`.
  func takeCounts() -> [Int: Int] { take().reduce(into: [:]) { $0[$1, default: 0] += 1 } }
}

/// Who a check's closures were called for, in order, by name.
typealias CallLog = Recording<String>

/// An object a check binds for, with a name its evidence uses.
final class Named {
  let name: String
  init(_ name: String) { self.name = name }
}

/// The steps a check has taken, for evidence that says what led to what happened.
struct Steps {
  private var done: [String] = []

  init(_ first: String? = nil) { done = first.map { [$0] } ?? [] }

  /// Records the next step.
  mutating func then(_ step: String) { done.append(step) }

  /// A flaw: the steps taken, then what happened.
  func flaw(_ happened: String) -> Outcome {
    .flaw("\(done.joined(separator: ", ")): \(happened)")
  }

  /// When `calls` differs from `expected`: the flaw, saying who set `value` called.
  func calls(_ calls: [String], expected: [String], set value: Int) -> Outcome? {
    calls == expected
      ? nil : flaw("set \(value) called \(listed(calls)), not \(listed(expected))")
  }

  /// When `calls`, in any order, differ from `expected`: the flaw, saying who set `value`
  /// called, then `more`.
  func calls(_ calls: [String], inAnyOrder expected: [String], set value: Int, _ more: String = "")
    -> Outcome?
  {
    calls.sorted() == expected.sorted()
      ? nil : flaw("set \(value) called \(listed(calls)), not \(listed(expected))" + more)
  }
}

/// One round of a check: what was done, then a set and whom it must call, in order.
struct Round {
  var done: String?
  var action: () -> Void
  var value: Int
  var calls: [String]

  init(_ done: String?, _ action: @escaping () -> Void = {}, set value: Int, calls: [String]) {
    self.done = done
    self.action = action
    self.value = value
    self.calls = calls
  }
}

/// Plays `rounds` on `observable`, each action then its set, the calls read from `log`; then
/// `observerCount` must say `count`. A flaw at the first that differs; `nil` when none does.
func play(
  _ rounds: [Round], on observable: some AdaptableObservable, log: CallLog, count: Int? = nil
) -> Outcome? {
  var steps = Steps()
  for round in rounds {
    round.action()
    if let done = round.done { steps.then(done) }
    observable.value = round.value
    if let flaw = steps.calls(log.take(), expected: round.calls, set: round.value) { return flaw }
  }
  guard let count, observable.observerCount != count else { return nil }
  return steps.flaw("observerCount said \(observable.observerCount), not \(count)")
}

/// "nobody", "A", "A and B", "A, B and C".
func listed(_ names: [String]) -> String {
  switch names.count {
  case 0: "nobody"
  case 1: names[0]
  default: names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
  }
}

/// The entries `object` stores, counted in its own storage rather than by its `observerCount`:
/// the largest array, dictionary or set among its stored properties whose entries hold a
/// closure, with that property's name. Only those: a collection of anything else (the last
/// values set, a cache of names) is not where the observers are, whatever its size. `nil` when
/// reflection sees no such collection with an entry in it.
func storedEntries(of object: AnyObject) -> (count: Int, property: String)? {
  var largest: (count: Int, property: String)?
  // The class's own properties, then each superclass's.
  let mirrors = sequence(first: Mirror(reflecting: object)) { $0.superclassMirror }
  for child in mirrors.flatMap(\.children) {
    let mirror = Mirror(reflecting: child.value)
    guard [.collection, .dictionary, .set].contains(mirror.displayStyle),
      let first = mirror.children.first, holdsAClosure(first.value, depth: 3)
    else { continue }
    let count = mirror.children.count
    if count >= largest?.count ?? 0 { largest = (count, child.label ?? "its storage") }
  }
  return largest
}

/// Whether `value` is a closure, or holds one within `depth` levels of stored properties.
private func holdsAClosure(_ value: Any, depth: Int) -> Bool {
  if String(describing: type(of: value)).contains("->") { return true }
  guard depth > 0 else { return false }
  return Mirror(reflecting: value).children.contains { holdsAClosure($0.value, depth: depth - 1) }
}

/// Counts `observable`'s entries in its storage where reflection can, else by its own count;
/// when the two differ, a flaw that says so.
func countedEntries(of observable: some AdaptableObservable) -> (
  count: Int, said: String
) {
  // The storage first: an observerCount that cleans as it counts must not hide what a set left.
  let stored = storedEntries(of: observable)
  let own = observable.observerCount
  guard let stored else {
    return (own, "observerCount said \(grouped(own))")
  }
  return (
    stored.count,
    "\(grouped(stored.count)) entries were stored in `\(stored.property)`"
      + (own == stored.count ? "" : " (observerCount said \(grouped(own)))")
  )
}

/// Lets the threads of a check start together, so that they overlap.
private final class StartBarrier: @unchecked Sendable {
  // The condition guards `waiting`.
  private let condition = NSCondition()
  private var waiting: Int

  init(threads: Int) { waiting = threads }

  func arriveAndWait() {
    condition.lock()
    waiting -= 1
    if waiting == 0 { condition.broadcast() }
    while waiting > 0 { condition.wait() }
    condition.unlock()
  }
}

/// Runs `body(index)` on `count` threads at once, and returns when all are done.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let barrier = StartBarrier(threads: count)
  let done = DispatchSemaphore(value: 0)
  for index in 0..<count {
    let thread = Thread {
      barrier.arriveAndWait()
      body(index)
      done.signal()
    }
    thread.start()
  }
  for _ in 0..<count { done.wait() }
}

/// The time, in nanoseconds since the machine started: what the checks' deadlines count in.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
