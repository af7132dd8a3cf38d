/// Carries a value where a `Sendable` one is required, for code that never lets it cross
/// threads.
///
/// Unchecked: each use says, where it makes one, why the value stays on one thread (a scenario
/// or a bench run sets and is called back on the thread that sets).
package struct SingleThreaded<Value>: @unchecked Sendable {
  package var value: Value

  package init(_ value: Value) { self.value = value }
}

/// A mutable value behind a reference, for code that never lets it cross threads at the same
/// time: a running sum a bench's callbacks add to, a model its handlers read, a result one
/// thread leaves for another that waits for it (the wait orders the two).
///
/// Unchecked for the reason ``SingleThreaded`` gives.
package final class SingleThreadedBox<Value>: @unchecked Sendable {
  package var value: Value

  package init(_ value: Value) { self.value = value }
}
