import Foundation
import Support
import Synchronization

// What the checks share: what closures recorded, names listed, threads started together.

/// Entries appended from any thread, in order: the calls a check's closures made, what a
/// display showed; read or taken.
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

/// Lets the threads of a check meet again and again, so that what each does after a meeting
/// overlaps what the others do, however busy the machine. A meeting has two halves: every
/// thread arrives, then every thread says it saw the others arrive; a thread spins, on its
/// processor, until the last has, so that all leave a meeting while running, not one of them
/// waiting for a processor. (After many spins it yields, so that a thread waiting for the
/// processor it spins on gets it.) A thread that never arrives (code that hangs) keeps the
/// others waiting: the grader stops the check as hung.
final class Meetings: Sendable {
  private let threads: Int
  private let arrived = Atomic<Int>(0)

  /// Meetings of `threads` threads.
  init(threads: Int) { self.threads = threads }

  /// Waits until every thread has arrived at meeting `number` (0, 1, 2, … in turn), and seen
  /// the others arrive.
  func meet(_ number: Int) {
    for half in 1...2 {
      arrived.add(1, ordering: .acquiringAndReleasing)
      let everyone = threads * (2 * number + half)
      var spins = 0
      while arrived.load(ordering: .acquiring) < everyone {
        spins += 1
        if spins % 20_000 == 0 { sched_yield() }
      }
    }
  }
}

/// Keeps the calling thread on processor `index` (modulo the processors there are), on Linux:
/// threads kept on different processors run side by side whenever they run, where the system,
/// with other work on one processor, might otherwise put them on the other and have them take
/// turns, which hides every race. Elsewhere it does nothing.
func runOnProcessor(_ index: Int) {
  #if os(Linux)
    let processors = ProcessInfo.processInfo.activeProcessorCount
    guard processors > 1 else { return }
    let processor = index % processors
    var set = cpu_set_t()
    withUnsafeMutableBytes(of: &set) { bytes in
      guard processor / 8 < bytes.count else { return }
      bytes[processor / 8] |= UInt8(1) << UInt8(processor % 8)
    }
    // When it fails (a processor not allowed to this process), the thread runs anywhere.
    if let setAffinity = setAffinity {
      _ = withUnsafePointer(to: &set) { setAffinity(0, MemoryLayout<cpu_set_t>.size, $0) }
    }
  #endif
}

#if os(Linux)
  /// Glibc's `sched_setaffinity`, which Swift's Glibc module leaves out (it wants `_GNU_SOURCE`):
  /// found when the program runs.
  private let setAffinity: (@convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32)? = {
    guard let symbol = dlsym(nil, "sched_setaffinity") else { return nil }
    return unsafeBitCast(
      symbol, to: (@convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32).self)
  }()
#endif

/// Runs `body(thread, burst)` on `count` threads at once, for each of `bursts` bursts in turn:
/// before each burst the threads meet (``Meetings``), so that each burst runs on all of them at
/// the same time, each thread kept on a processor of its own as far as there are
/// (``runOnProcessor(_:)``). Returns when all are done. The work is fixed: how busy the machine
/// is changes how long it takes, not what is done.
func inLockstep(
  _ count: Int, bursts: Int, _ body: @escaping @Sendable (_ thread: Int, _ burst: Int) -> Void
) {
  let meetings = Meetings(threads: count)
  onThreads(count) { thread in
    runOnProcessor(thread)
    for burst in 0..<bursts {
      meetings.meet(burst)
      body(thread, burst)
    }
  }
}

/// The time, in nanoseconds since the machine started: what the checks' deadlines count in.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
