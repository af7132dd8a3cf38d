/// Counts the deinitializations of the objects it makes, so that tests and scenarios can tell
/// whether an observer was really freed.
///
/// Each tracker counts its own objects only, so tests and scenarios that run in parallel never
/// share a count.
///
/// ```swift
/// let tracker = LifetimeTracker()
/// var owner: TrackedOwner? = tracker.makeObject()
/// owner = nil
/// tracker.deinitCount  // 1
/// ```
package final class LifetimeTracker {
  /// How many objects made by this tracker have been deinitialized.
  package fileprivate(set) var deinitCount = 0

  /// How many objects made by this tracker are still alive.
  package var liveCount: Int { madeCount - deinitCount }

  private var madeCount = 0

  package init() {}

  /// Makes an object whose deinitialization this tracker counts, owned by the caller alone and
  /// named to tell it apart in messages.
  package func makeObject(name: String = "observer") -> TrackedOwner {
    madeCount += 1
    return TrackedOwner(name: name, tracker: self)
  }

  /// Makes `count` objects whose deinitialization this tracker counts, owned by the caller alone.
  package func makeObjects(_ count: Int) -> [TrackedOwner] {
    (0..<count).map { makeObject(name: "observer \($0)") }
  }
}

/// An owner that tells its ``LifetimeTracker`` when it is deinitialized, and records the values
/// it receives.
package final class TrackedOwner {
  package let name: String
  /// Values received through ``receive(_:)``, in order.
  package private(set) var received: [Int] = []

  private let tracker: LifetimeTracker

  fileprivate init(name: String, tracker: LifetimeTracker) {
    self.name = name
    self.tracker = tracker
  }

  /// Called with its name when it is freed: how a trace of a scenario learns that an owner
  /// is gone.
  package var onRelease: ((String) -> Void)?

  deinit {
    tracker.deinitCount += 1
    onRelease?(name)
  }

  package func receive(_ value: Int) {
    received.append(value)
  }
}

/// A log of values, kept apart from any observer so that it outlives them.
///
/// A closure that appends to a log, rather than to its observer, shows whether it still runs
/// after the observer is gone.
package final class ValueLog<Value> {
  /// The entries appended, in order.
  package private(set) var entries: [Value] = []

  package init() {}

  package func append(_ entry: Value) {
    entries.append(entry)
  }
}
