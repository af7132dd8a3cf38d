// What the package's tests and its comparison read of an observable, and nothing else does.
// Leave this file out when you copy stage 5 into an app: the others do not need it.

extension Observable {
  /// The number of subscriptions stored, those whose owner is gone but that no delivery has
  /// reached yet included: ``storedSubscriptionCount``, under the name the scenarios read.
  package var _storedSubscriptionCount: Int { storedSubscriptionCount }

  /// A copy of the state, taken under the lock: `Mirror` cannot see inside a `Mutex`. For the
  /// reference graph's test only.
  package var _state: Any { state.withLock { $0 } }

  /// The number of deliveries queued and not begun.
  package var _queuedCount: Int { state.withLock { $0.queue.count } }

  /// How many setters' waits ended at ``longestWait``, their change still queued: each may
  /// leave the queue one change over the backlog limit.
  package var _waitsOutOfTime: Int { state.withLock { $0.waitsOutOfTime } }

  /// Whether some thread holds the lock right now.
  package var _isLocked: Bool { state.withLockIfAvailable { _ in } == nil }
}
