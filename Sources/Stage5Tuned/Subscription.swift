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
  /// where copying an enum with a generic payload goes through the runtime. A handler isolated
  /// to an actor is called only on that actor: the delivery loop checks ``isolation`` first.
  @usableFromInline let deliver: @Sendable (Subscription<Value>, Change<Value>) -> Bool
  /// The actor the handler is isolated to; `nil` for a handler that may run on any thread.
  @usableFromInline let isolation: (any Actor)?
  /// Whether ``isolation`` is the main actor, whose thread can be recognised without a hop.
  @usableFromInline let isMainActor: Bool
  /// Tells a stream's consumer that no more values will come; `nil` for other subscriptions.
  @usableFromInline let finish: (@Sendable () -> Void)?
  /// The owner, held weakly, for a subscription that has one.
  @usableFromInline weak let owner: (AnyObject & Sendable)?
  /// The owner's identity, kept after the owner is gone, so that the subscription can be taken
  /// out of its observable's owner map then too.
  @usableFromInline let ownerID: ObjectIdentifier?
  /// Cleared, for good, when the subscription ends; read before every call.
  @usableFromInline let isActive = Atomic(true)
  /// Where the subscription sits in its observable's list; changed only under its lock.
  @usableFromInline let slot = Atomic(0)

  @inlinable
  init(
    id: UInt64, owner: (AnyObject & Sendable)?, isolation: (any Actor)?,
    finish: (@Sendable () -> Void)? = nil,
    deliver: @escaping @Sendable (Subscription<Value>, Change<Value>) -> Bool
  ) {
    self.id = id
    self.isolation = isolation
    self.isMainActor = isolation === MainActor.shared
    self.owner = owner
    // Written out rather than `owner.map(ObjectIdentifier.init)`, which crashes Swift 6.3.1's
    // optimizer ("Found ownership error") once this initializer is specialized in a client.
    if let owner {
      self.ownerID = ObjectIdentifier(owner)
    } else {
      self.ownerID = nil
    }
    self.finish = finish
    self.deliver = deliver
  }

  /// Whether the subscription still wants deliveries: not ended, and its owner, if any, alive.
  ///
  /// It loads the owner strongly for a moment, so it must never be read under the observable's
  /// lock: if another thread released the owner meanwhile, the owner's `deinit` would run here.
  @inlinable
  var isLive: Bool {
    isActive.load(ordering: .acquiring) && (ownerID == nil || owner != nil)
  }
}
