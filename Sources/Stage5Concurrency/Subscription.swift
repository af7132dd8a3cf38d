import Synchronization

/// One observer's entry in an ``Observable``: how to deliver to it, and whether it still wants
/// deliveries.
@usableFromInline
final class Subscription<Value: Sendable>: Sendable {
  /// Increases with every subscription to one observable: a change is delivered only to the
  /// subscriptions made before it was set.
  @usableFromInline let id: UInt64
  /// Calls the observer's handler; returns `false` when the owner is gone, so the subscription
  /// should end. One closure rather than an enum of kinds: calling it costs an indirect call,
  /// where copying an enum with a generic payload goes through the runtime.
  @usableFromInline let deliver: @Sendable (Change<Value>) -> Bool
  /// Tells a stream's consumer that no more values will come; `nil` for other subscriptions.
  @usableFromInline let finish: (@Sendable () -> Void)?
  /// The owner, held weakly, for a subscription that has one.
  @usableFromInline weak let owner: (AnyObject & Sendable)?
  @usableFromInline let hasOwner: Bool
  /// Cleared, for good, when the subscription ends; read before every call.
  @usableFromInline let isActive = Atomic(true)
  /// Where the subscription sits in its observable's list; changed only under its lock.
  @usableFromInline let slot = Atomic(0)

  @inlinable
  init(
    id: UInt64, owner: (AnyObject & Sendable)?, finish: (@Sendable () -> Void)? = nil,
    deliver: @escaping @Sendable (Change<Value>) -> Bool
  ) {
    self.id = id
    self.owner = owner
    self.hasOwner = owner != nil
    self.finish = finish
    self.deliver = deliver
  }

  /// Whether the subscription still wants deliveries: not ended, and its owner, if any, alive.
  @inlinable
  var isLive: Bool {
    isActive.load(ordering: .acquiring) && (!hasOwner || owner != nil)
  }
}
