import Synchronization

/// One observer's entry in an ``Observable``: how to deliver to it, and whether it still wants
/// deliveries.
@usableFromInline
final class Subscription<Value: Sendable>: Sendable {
  /// How a change reaches the observer.
  @usableFromInline
  enum Handler: Sendable {
    /// A plain handler, kept until its token is cancelled.
    case plain(@Sendable (Change<Value>) -> Void)
    /// A handler handed its owner; the subscription ends with the owner.
    case owned(@Sendable (AnyObject, Change<Value>) -> Void)
    /// An `AsyncStream` of values.
    case stream(AsyncStream<Value>.Continuation)
  }

  /// Increases with every subscription to one observable: a change is delivered only to the
  /// subscriptions made before it was set.
  @usableFromInline let id: UInt64
  @usableFromInline let handler: Handler
  /// The owner, held weakly, for ``Handler/owned(_:)``.
  @usableFromInline weak let owner: (AnyObject & Sendable)?
  /// Cleared, for good, when the subscription ends; read before every call.
  @usableFromInline let isActive = Atomic(true)
  /// Where the subscription sits in its observable's list; changed only under its lock.
  @usableFromInline let slot = Atomic(0)

  @inlinable
  init(id: UInt64, handler: Handler, owner: (AnyObject & Sendable)?) {
    self.id = id
    self.handler = handler
    self.owner = owner
  }

  /// Whether the subscription still wants deliveries: not ended, and its owner, if any, alive.
  @inlinable
  var isLive: Bool {
    guard isActive.load(ordering: .acquiring) else { return false }
    if case .owned = handler { return owner != nil }
    return true
  }

  /// Calls the handler.
  ///
  /// - Returns: `false` if the owner is gone, so the subscription should end.
  @inlinable
  func deliver(_ change: Change<Value>) -> Bool {
    switch handler {
    case .plain(let handler):
      handler(change)
    case .owned(let handler):
      guard let owner else { return false }
      handler(owner, change)
    case .stream(let continuation):
      continuation.yield(change.newValue)
    }
    return true
  }

  /// Tells a stream's consumer that no more values will come.
  @inlinable
  func finish() {
    if case .stream(let continuation) = handler {
      continuation.finish()
    }
  }
}
