import Synchronization

/// One observer's entry in an ``Observable``: how to deliver to it, and whether it still wants
/// deliveries.
///
/// What every delivery reads sits here, in one small object; what only subscriptions with an
/// owner or a stream need sits in ``Extra``, which the others do without.
@usableFromInline
final class Subscription<Value: Sendable>: Sendable {
  /// Increases with every subscription to one observable: a change is delivered only to the
  /// subscriptions made before it was set, and a token finds its subscription by it.
  @usableFromInline let id: UInt64
  /// The observer's handlers, held by one reference this subscription counts itself, so that
  /// ending the subscription can let go of them, and of what they captured, at once, even while
  /// a delivery's copy of the list still holds the subscription (see ``releaseHandlers()``).
  /// Called through a borrowed reference, which costs no reference counting.
  @usableFromInline let handlers: Unmanaged<Handlers>
  /// Set once ``handlers`` has been let go.
  @usableFromInline let handlersReleased = Atomic(false)
  /// The actor the handler is isolated to; `nil` for a handler that may run on any thread.
  @usableFromInline let isolation: (any Actor)?
  /// Whether ``isolation`` is the main actor, whose thread can be recognised without a hop.
  @usableFromInline let isMainActor: Bool
  /// Whether the handler may run on any thread and has no owner: then the delivery loop calls
  /// ``handler`` after one test of this flag, which saves it two.
  @usableFromInline let isPlain: Bool
  /// Cleared, for good, when the subscription ends; read before every call.
  @usableFromInline let isActive = Atomic(true)
  /// The owner and the stream's end, for the subscriptions that have them; `nil` for the others.
  @usableFromInline let extra: Extra?

  /// The observer's handler, stored as it was passed and called directly, for a subscription
  /// with no owner; for one with an owner, ``ownerHandler``, which hands it the owner.
  @usableFromInline
  final class Handlers: Sendable {
    /// Called directly for a subscription with no owner; never called for one with an owner.
    /// A handler isolated to an actor is called only on that actor: the delivery loop checks
    /// ``Subscription/isolation`` first. Not checked as `Sendable` for that reason: one written
    /// in an actor is isolated to it, and one that may run anywhere was checked `@Sendable`
    /// when it was passed to ``Observable/observeOnAnyThread(options:_:)``.
    @usableFromInline nonisolated(unsafe) let handler: (Change<Value>) -> Void
    /// Hands the owner to the observer's handler; returns `false` when the owner is gone, so
    /// the subscription should end. `nil` for a subscription with no owner.
    @usableFromInline let ownerHandler: (@Sendable (Change<Value>) -> Bool)?

    @inlinable
    init(
      handler: @escaping (Change<Value>) -> Void,
      ownerHandler: (@Sendable (Change<Value>) -> Bool)?
    ) {
      self.handler = handler
      self.ownerHandler = ownerHandler
    }
  }

  /// What a subscription with an owner, or a stream's, needs beside its handler.
  @usableFromInline
  final class Extra: Sendable {
    /// Tells a stream's consumer that no more values will come; `nil` for other subscriptions.
    @usableFromInline let finish: (@Sendable () -> Void)?
    /// The owner, held weakly, for a subscription that has one.
    @usableFromInline weak let owner: (AnyObject & Sendable)?
    /// The owner's identity, kept after the owner is gone, so that the subscription can be
    /// taken out of its observable's owner map then too.
    @usableFromInline let ownerID: ObjectIdentifier?

    @inlinable
    init(owner: (AnyObject & Sendable)?, finish: (@Sendable () -> Void)?) {
      self.owner = owner
      // Written out rather than `owner.map(ObjectIdentifier.init)`, which crashes Swift
      // 6.3.1's optimizer ("Found ownership error") once this initializer is specialized in a
      // client.
      if let owner {
        self.ownerID = ObjectIdentifier(owner)
      } else {
        self.ownerID = nil
      }
      self.finish = finish
    }
  }

  @inlinable
  init(
    id: UInt64, isolation: (any Actor)?, extra: Extra?,
    handler: @escaping (Change<Value>) -> Void,
    ownerHandler: (@Sendable (Change<Value>) -> Bool)?
  ) {
    self.id = id
    self.isolation = isolation
    self.isMainActor = isolation === MainActor.shared
    self.extra = extra
    self.isPlain = isolation == nil && ownerHandler == nil
    self.handlers = .passRetained(Handlers(handler: handler, ownerHandler: ownerHandler))
  }

  deinit {
    releaseHandlers()
  }

  /// Lets go of the handlers, and of what they captured, unless that was done already.
  ///
  /// Call it only once the subscription has ended, where no thread can be calling a handler:
  /// no delivery is under way, or the one under way is this thread's and is not inside this
  /// subscription's handler, or it waits for an actor. Otherwise the subscription's `deinit`
  /// lets go of them, when the last delivery that holds it is done.
  @inlinable
  func releaseHandlers() {
    if !handlersReleased.exchange(true, ordering: .acquiringAndReleasing) {
      handlers.release()
    }
  }

  /// The owner's identity, for a subscription with an owner.
  @inlinable var ownerID: ObjectIdentifier? { extra?.ownerID }

  /// Tells a stream's consumer that no more values will come; does nothing for other
  /// subscriptions.
  @inlinable func finish() { extra?.finish?() }

  /// Whether the subscription still wants deliveries: not ended, and its owner, if any, alive.
  ///
  /// It loads the owner strongly for a moment, so it must never be read under the observable's
  /// lock: if another thread released the owner meanwhile, the owner's `deinit` would run here.
  @inlinable
  var isLive: Bool {
    guard isActive.load(ordering: .acquiring) else { return false }
    guard let extra, extra.ownerID != nil else { return true }
    return extra.owner != nil
  }
}
