import Foundation
import Support

// What the checks share: what closures recorded, names listed, threads started together.

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

/// "nobody", "A", "A and B", "A, B and C".
func listed(_ names: [String]) -> String {
  switch names.count {
  case 0: "nobody"
  case 1: names[0]
  default: names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
  }
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
