import Synchronization

/// A value that any thread may read, set and observe: the concurrency age.
///
/// It answers the rows of the comparison that every earlier stage fails, and keeps what stage 4
/// got right:
///
/// - **Thread-safe.** Its state sits behind a `Mutex`, and the compiler checks that it is
///   `Sendable`. Handlers are never called while the lock is held, so a handler may subscribe,
///   cancel, set the value or take its own locks; and never two at a time for one observable.
/// - **Ordered delivery.** A value set while a delivery is under way, from inside a handler or
///   from another thread, is queued and delivered after the current one, so every observer sees
///   the values in the order they were set and ends on the latest. The cost: a setter may return
///   before its observers have run, when another delivery is in progress.
/// - **Immediate removal.** Once ``ObservationToken/cancel()`` or ``removeObserver(_:)`` returns
///   on the delivering thread, that handler is not called again, even later in the same delivery.
/// - **No reason to capture the owner.** ``observe(_:options:_:)`` holds its owner weakly and
///   hands it to the handler, so the handler never needs to capture it; the subscription ends
///   with the owner.
///
/// ```swift
/// let score = Observable(0)
/// score.observe(scoreLabel, options: .initial) { label, change in
///   label.text = "\(change.newValue)"
/// }
/// score.value = 3
/// ```
///
/// Reading and then setting ``value`` (as `value += 1` does) is two steps, not one: another
/// thread may set it in between.
public final class Observable<Value: Sendable>: Sendable, SubscriptionEnding {
  @usableFromInline
  enum Pending: Sendable {
    /// A set, to deliver to the subscriptions made before it.
    case change(Change<Value>, before: UInt64)
    /// The current value, for one new subscription that asked for it.
    case initial(Change<Value>, Subscription<Value>)
  }

  @usableFromInline
  struct State: Sendable {
    @usableFromInline
    init(value: Value) { self.value = value }

    @usableFromInline var value: Value
    /// In subscription order; `nil` where a subscription ended, until the next compaction.
    @usableFromInline var slots: [Subscription<Value>?] = []
    @usableFromInline var storedCount = 0
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var subscriptionByOwner: [ObjectIdentifier: Subscription<Value>] = [:]
    @usableFromInline var pending: [Pending] = []
    @usableFromInline var pendingStart = 0
    @usableFromInline var isDelivering = false

    @inlinable mutating func append(_ subscription: Subscription<Value>) {
      subscription.slot.store(slots.count, ordering: .relaxed)
      slots.append(subscription)
      storedCount += 1
    }

    /// Takes `subscription` out of the list, if it is still there.
    @inlinable mutating func remove(_ subscription: Subscription<Value>) -> Bool {
      subscription.isActive.store(false, ordering: .releasing)
      let slot = subscription.slot.load(ordering: .relaxed)
      guard slot < slots.count, slots[slot] === subscription else { return false }
      slots[slot] = nil
      storedCount -= 1
      if let ownerID = subscription.ownerID, subscriptionByOwner[ownerID] === subscription {
        subscriptionByOwner[ownerID] = nil
      }
      // Compacting once half the slots are empty keeps removal O(1) amortized.
      if slots.count >= 16 && storedCount < slots.count / 2 {
        slots.removeAll { $0 == nil }
        for (slot, subscription) in slots.enumerated() {
          subscription?.slot.store(slot, ordering: .relaxed)
        }
      }
      return true
    }

    /// Queues a delivery; returns whether the caller must deliver it, because nobody else is.
    @inlinable mutating func enqueue(_ item: Pending) -> Bool {
      pending.append(item)
      guard !isDelivering else { return false }
      isDelivering = true
      return true
    }
  }

  @usableFromInline let state: Mutex<State>
  /// See ``withState(_:)``.
  @usableFromInline let handoff = Atomic(0)

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value.
  public init(_ value: Value) {
    state = Mutex(State(value: value))
  }

  deinit {
    let subscriptions = withState { $0.slots }
    for subscription in subscriptions {
      subscription?.isActive.store(false, ordering: .releasing)
      subscription?.finish?()
    }
  }

  /// The current value; get and set it from any thread.
  ///
  /// Setting it delivers a ``Change`` to every live observer, in subscription order, on the
  /// setting thread, unless a delivery is already under way: then the change is queued, the
  /// setter returns at once, and the delivering thread delivers it after the current one.
  ///
  /// - Complexity: O(*n*) for the thread that delivers, where *n* is the number of
  ///   subscriptions; no heap allocation when no other delivery is under way.
  @inlinable
  public var value: Value {
    get { withState { $0.value } }
    set {
      let mustDeliver = withState { state in
        let change = Change(kind: .update, oldValue: state.value, newValue: newValue)
        state.value = newValue
        return state.enqueue(.change(change, before: state.nextID))
      }
      if mustDeliver { deliverPending() }
    }
  }

  /// The number of live subscriptions: not cancelled, and whose owner, if any, is alive.
  ///
  /// - Complexity: O(*n*), where *n* is the number of subscriptions stored.
  public var observerCount: Int {
    withState { $0.slots.count { $0?.isLive == true } }
  }

  /// Observes the value until the returned token is cancelled or deinitialized.
  ///
  /// - Parameters:
  ///   - options: `.initial` to receive the current value at once.
  ///   - handler: Called with each change, on the thread that delivers it.
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observe(
    options: ObservableOptions = [], _ handler: @escaping @Sendable (Change<Value>) -> Void
  ) -> ObservationToken {
    let subscription = subscribe(owner: nil, options: options) { change in
      handler(change)
      return true
    }
    return ObservationToken(observable: self, subscription: subscription)
  }

  /// Observes the value for as long as `owner` lives, handing the owner to the handler.
  ///
  /// The owner is held weakly, and the handler receives it as a parameter, so the handler has
  /// no reason to capture it. Observing again with the same owner replaces its subscription.
  ///
  /// - Parameters:
  ///   - owner: The object whose lifetime bounds the subscription.
  ///   - options: `.initial` to receive the current value at once.
  ///   - handler: Called with the owner and each change, on the thread that delivers it.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observe<Owner: AnyObject & Sendable>(
    _ owner: Owner, options: ObservableOptions = [],
    _ handler: @escaping @Sendable (Owner, Change<Value>) -> Void
  ) {
    _ = subscribe(owner: owner, options: options) { [weak owner] change in
      guard let owner else { return false }
      handler(owner, change)
      return true
    }
  }

  /// Ends the subscription of `owner`; an owner with none is ignored.
  ///
  /// - Parameter owner: The object passed to ``observe(_:options:_:)``.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func removeObserver(_ owner: AnyObject) {
    let id = ObjectIdentifier(owner)
    let removed = withState { state -> Subscription<Value>? in
      guard let subscription = state.subscriptionByOwner[id], subscription.owner === owner,
        state.remove(subscription)
      else { return nil }
      return subscription
    }
    removed?.finish?()
  }

  /// The current value, then every change, as an asynchronous sequence.
  ///
  /// The sequence ends when the observable is deinitialized; cancelling the task that consumes
  /// it, or dropping it, ends its subscription. Values are buffered, never dropped, until the
  /// consumer reads them.
  public var values: AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    let subscription = subscribe(
      owner: nil, options: .initial, finish: { continuation.finish() },
      deliver: { change in
        continuation.yield(change.newValue)
        return true
      })
    continuation.onTermination = { [weak self, weak subscription] _ in
      if let self, let subscription { self.end(subscription) }
    }
    return stream
  }

  /// The number of subscriptions stored, ended ones not yet cleaned away included.
  ///
  /// For tests and the comparison's scenarios only.
  package var _storedSubscriptionCount: Int { withState { $0.storedCount } }

  /// The number of slots in the subscription list, ended ones not yet compacted away included.
  ///
  /// For tests only.
  package var _slotCount: Int { withState { $0.slots.count } }

  // MARK: - Subscribing and delivering

  /// Runs `body` with the state locked.
  ///
  /// On Linux the Synchronization module's `Mutex`, like the runtime's reference counting, is
  /// built without ThreadSanitizer's instrumentation, so the sanitizer cannot see the order they
  /// impose, and reports races that are not there. An acquiring load after locking and a
  /// releasing increment before unlocking, compiled here, show it the order the lock already
  /// guarantees; ``deliverPending()`` adds one more for its snapshot. They change nothing else,
  /// and cost a load and a locked add.
  @inlinable
  func withState<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
    state.withLock { state in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.wrappingAdd(1, ordering: .releasing) }
      return body(&state)
    }
  }

  @inlinable
  func subscribe(
    owner: (AnyObject & Sendable)?, options: ObservableOptions,
    finish: (@Sendable () -> Void)? = nil,
    deliver: @escaping @Sendable (Change<Value>) -> Bool
  ) -> Subscription<Value> {
    let (subscription, replaced, mustDeliver) = withState { state in
      let subscription = Subscription(
        id: state.nextID, owner: owner, finish: finish, deliver: deliver)
      state.nextID += 1
      var replaced: Subscription<Value>?
      if let owner {
        if let earlier = state.subscriptionByOwner[ObjectIdentifier(owner)], state.remove(earlier) {
          replaced = earlier
        }
        state.subscriptionByOwner[ObjectIdentifier(owner)] = subscription
      }
      state.append(subscription)
      var mustDeliver = false
      if options.contains(.initial) {
        let initial = Change(kind: .initial, oldValue: nil, newValue: state.value)
        mustDeliver = state.enqueue(.initial(initial, subscription))
      }
      return (subscription, replaced, mustDeliver)
    }
    replaced?.finish?()
    if mustDeliver { deliverPending() }
    return subscription
  }

  @inlinable
  func end(_ subscription: Subscription<Value>) {
    if withState({ $0.remove(subscription) }) {
      subscription.finish?()
    }
  }

  /// Delivers queued changes, one at a time and in order, until none is left. Only one thread
  /// at a time runs it: the one whose enqueue found nobody delivering.
  @inlinable
  func deliverPending() {
    while let (item, subscriptions) = nextPending() {
      switch item {
      case .initial(let change, let subscription):
        if subscription.isActive.load(ordering: .acquiring), !subscription.deliver(change) {
          end(subscription)
        }
      case .change(let change, let before):
        // The snapshot keeps every subscription alive for the whole loop, so each one is
        // borrowed from it, not retained and released around its call: that halves the cost
        // of a delivery.
        subscriptions.withUnsafeBufferPointer { snapshot in
          for slot in snapshot.indices {
            guard let entry = snapshot[slot].map(Unmanaged.passUnretained) else { continue }
            switch entry._withUnsafeGuaranteedRef({ Self.deliver(change, to: $0, before: before) })
            {
            case .delivered: continue
            case .subscribedLater: return
            case .ownerGone: end(entry.takeUnretainedValue())
            }
          }
        }
        // Once this delivery drops its snapshot, a thread holding the lock may find the list's
        // storage unshared and write to it in place. Reference counting orders that write after
        // the reads above, but the sanitizer cannot see it; this increment, which every later
        // locking thread reads, shows it.
        handoff.wrappingAdd(1, ordering: .releasing)
      }
    }
  }

  @usableFromInline
  func endSubscription(_ subscription: AnyObject) {
    if let subscription = subscription as? Subscription<Value> { end(subscription) }
  }

  @usableFromInline
  enum DeliveryOutcome {
    /// Delivered, or skipped because the subscription has ended.
    case delivered
    /// The subscription, and every one after it, was made after the change was set.
    case subscribedLater
    /// The owner is gone: the subscription must end.
    case ownerGone
  }

  @inlinable
  static func deliver(
    _ change: Change<Value>, to subscription: Subscription<Value>, before: UInt64
  ) -> DeliveryOutcome {
    guard subscription.id < before else { return .subscribedLater }
    guard subscription.isActive.load(ordering: .acquiring), !subscription.deliver(change) else {
      return .delivered
    }
    return .ownerGone
  }

  /// Takes the next queued delivery and the subscriptions to visit, or ends the delivery.
  @inlinable
  func nextPending() -> (Pending, [Subscription<Value>?])? {
    withState { state in
      guard state.pendingStart < state.pending.count else {
        state.pending.removeAll(keepingCapacity: true)
        state.pendingStart = 0
        state.isDelivering = false
        return nil
      }
      let item = state.pending[state.pendingStart]
      state.pendingStart += 1
      return (item, state.slots)
    }
  }
}
