/// Carries a value where a `Sendable` one is required, for code that never lets it cross
/// threads.
///
/// Unchecked: each use says, where it makes one, why the value stays on one thread (a scenario
/// or a bench run sets and is called back on the thread that sets).
package struct SingleThreaded<Value>: @unchecked Sendable {
  package var value: Value

  package init(_ value: Value) { self.value = value }
}

/// A mutable value behind a reference, for code that never lets it cross threads: a running
/// sum a bench's callbacks add to, a model its handlers read.
///
/// Unchecked for the reason ``SingleThreaded`` gives.
package final class SingleThreadedBox<Value>: @unchecked Sendable {
  package var value: Value

  package init(_ value: Value) { self.value = value }
}

/// A value one thread leaves for another that waits for it: written before a signal (a
/// semaphore, an executor going idle), read after the wait, which orders the two.
///
/// Unchecked: the signal and the wait are the lock. Each use names its signal where it makes
/// one.
package final class HandOff<Value>: @unchecked Sendable {
  /// The value left, `nil` until it is.
  package var value: Value?

  package init() {}
}
