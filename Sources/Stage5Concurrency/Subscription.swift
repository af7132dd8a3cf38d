import Synchronization

/// One observer's entry in an ``Observable``: its handler, where the handler must run, and its
/// owner, if it has one.
final class Subscription<Value: Sendable>: Sendable {
  /// Calls the observer's handler with one change; returns `false` when the owner is gone.
  typealias Handler = @Sendable (Change<Value>) -> Bool

  /// The actor the handler is isolated to; `nil` for a handler that may run on any thread.
  let isolation: (any Actor)?
  /// The owner, held weakly, for a subscription made with one.
  weak let owner: (AnyObject & Sendable)?
  /// The owner's identity, kept after the owner is gone, to find its subscription by.
  let ownerID: ObjectIdentifier?
  /// The handler, behind a lock of its own; `nil` once the subscription has ended. Ending it
  /// lets go of the handler, and of everything the handler captured.
  private let handler: Locked<Held?>
  /// Runs once, when the subscription ends: an `AsyncStream`'s `finish`.
  private let onEnd: (@Sendable () -> Void)?

  init(
    isolation: (any Actor)?, owner: (AnyObject & Sendable)?,
    onEnd: (@Sendable () -> Void)? = nil, handler: @escaping Handler
  ) {
    self.isolation = isolation
    self.owner = owner
    if let owner {
      ownerID = ObjectIdentifier(owner)
    } else {
      ownerID = nil
    }
    self.onEnd = onEnd
    self.handler = Locked(Held(call: handler))
  }

  /// The handler, in a struct. A closure stored straight in a `Mutex`, which is generic, is
  /// wrapped in one more conversion thunk each time `withLock` hands it out and takes it back:
  /// measured, a set took 60 µs after 2,000 sets, and grew with every one.
  private struct Held {
    let call: Handler
  }

  /// Whether the subscription still wants changes: not ended, and its owner, if any, alive.
  ///
  /// It loads the owner for a moment, so never read it under the observable's lock: if another
  /// thread let go of the owner meanwhile, the owner's `deinit` would run here.
  var isLive: Bool {
    handler.withLock { $0 != nil } && (ownerID == nil || owner != nil)
  }

  /// Calls the handler with `change`, unless the subscription has ended.
  ///
  /// - Returns: `false` when the owner is gone, so the subscription should end.
  func call(_ change: Change<Value>) -> Bool {
    // A copy of the handler, taken under the lock and called with the lock let go: the
    // handler may cancel this very subscription.
    guard let handler = handler.withLock({ $0 }) else { return true }
    return handler.call(change)
  }

  /// Ends the subscription. Call it with no lock held: the handler, and what it captured, are
  /// released here, unless a delivery is calling the handler right now (then when that call
  /// returns).
  func end() {
    let ended = handler.withLock { handler in
      defer { handler = nil }
      return handler
    }
    if ended != nil { onEnd?() }
  }
}
