import Synchronization

/// A value behind a `Mutex`, as ThreadSanitizer can see it.
///
/// ThreadSanitizer (chapter 5's tests run under it) learns the order of two threads' accesses
/// from the locks it can see, and on Linux it cannot see inside the Synchronization module's
/// `Mutex`: it would report the accesses that the lock keeps apart as races. So an acquiring
/// load after taking the lock, and a releasing add before letting go of it, show it the order
/// the lock already keeps. They change nothing else, and cost two uncontended atomic operations.
final class Locked<Value>: Sendable {
  private let mutex: Mutex<Value>
  private let order = Atomic(0)

  init(_ value: sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with the value, holding the lock.
  func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result {
    mutex.withLock { value in
      _ = order.load(ordering: .acquiring)
      defer { order.add(1, ordering: .releasing) }
      return body(&value)
    }
  }

  /// Runs `body` with the value if the lock is free now; returns `nil` at once if not.
  func withLockIfAvailable<Result>(
    _ body: (inout sending Value) -> sending Result
  ) -> sending Result? {
    mutex.withLockIfAvailable { value in
      _ = order.load(ordering: .acquiring)
      defer { order.add(1, ordering: .releasing) }
      return body(&value)
    }
  }
}
