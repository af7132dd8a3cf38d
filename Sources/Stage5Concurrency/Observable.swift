import Synchronization

/// A value that any thread may read, set and observe: the concurrency age.
///
/// It answers the rows of the comparison that every earlier stage fails, and keeps what stage 4
/// got right:
///
/// - **Thread-safe.** Its state sits behind a `Mutex`, and the compiler checks that it is
///   `Sendable`. Handlers are never called while the lock is held, and nothing of yours (a value,
///   a handler and what it captured, an owner) is released while it is held either, so a
///   handler, or a `deinit` that a release runs, may read, set, subscribe or cancel; and never
///   two handlers at a time for one observable.
/// - **Ordered delivery.** A value set while a delivery is under way, from inside a handler or
///   from another thread, is queued and delivered after the current one, so every observer sees
///   the values in the order they were set and ends on the latest. The cost: a setter may return
///   before its observers have run, when another delivery is in progress; and the thread that
///   is delivering delivers the changes other threads queue meanwhile, for as long as they come.
/// - **Immediate removal.** Once ``ObservationToken/cancel()`` or ``removeObserver(_:)`` returns
///   on the delivering thread, that handler is not called again, even later in the same delivery.
/// - **No reason to capture the owner.** ``observe(_:options:isolation:_:)`` holds its owner
///   weakly and hands it to the handler, so the handler never needs to capture it; the
///   subscription ends with the owner.
/// - **Handlers run where they were written.** A handler written in a `@MainActor` type runs on
///   the main actor: at once when the value is set on the main actor, later (in order, each
///   change once) when it is set on another thread.
///
/// ```swift
/// @MainActor final class Screen {
///   let label = ScoreLabel()
///   let score = Observable(0)
///
///   func start() {
///     score.observe(label, options: .initial) { label, change in
///       label.text = "\(change.newValue)"
///     }
///   }
/// }
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
    /// Deliveries waiting for the one under way; `nil` where one was taken out, until the
    /// queue empties. Taking each one out, rather than clearing the queue at the end, means the
    /// values and subscriptions it holds are released by the delivering thread, not under
    /// the lock.
    @usableFromInline var pending: [Pending?] = []
    @usableFromInline var pendingStart = 0
    /// Where this observable's main-actor handlers get their changes, made with the first.
    @usableFromInline var mainActorMailbox: ActorMailbox<Value>?

    /// Adds `subscription` at the end of the list; call it inside ``withSlotsChanged(_:)``.
    @inlinable mutating func append(_ subscription: Subscription<Value>) {
      subscription.slot.store(slots.count, ordering: .relaxed)
      slots.append(subscription)
      storedCount += 1
    }

    /// Takes `subscription` out of the list, if it is still there; call it inside
    /// ``withSlotsChanged(_:)``. The caller holds its own reference, so the subscription is
    /// never released here.
    @inlinable mutating func remove(_ subscription: Subscription<Value>) -> Bool {
      subscription.isActive.store(false, ordering: .releasing)
      let slot = subscription.slot.load(ordering: .relaxed)
      guard slot < slots.count, slots[slot] === subscription else { return false }
      slots[slot] = nil
      storedCount -= 1
      if let ownerID = subscription.ownerID, subscriptionByOwner[ownerID] === subscription {
        subscriptionByOwner[ownerID] = nil
      }
      // Compacting once half the slots are empty keeps removal O(1) amortized. Only empty
      // slots are dropped, so nothing is released.
      if slots.count >= 16 && storedCount < slots.count / 2 {
        slots.removeAll { $0 == nil }
        for (slot, subscription) in slots.enumerated() {
          subscription?.slot.store(slot, ordering: .relaxed)
        }
      }
      return true
    }
  }

  @usableFromInline let state: StateLock<State>
  /// How many deliveries are under way or queued: the one a thread is running plus those in
  /// ``State/pending``. Raised only under the lock; lowered by the delivering thread, which
  /// ends its turn without the lock when it finds nothing queued behind it.
  @usableFromInline let deliveries = Atomic(0)
  /// See ``withState(_:)``.
  @usableFromInline let handoff = Atomic(0)

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value.
  public init(_ value: Value) {
    state = StateLock(State(value: value))
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
  /// setter returns at once, and the delivering thread delivers it after the current one. A
  /// handler isolated to an actor is called on that actor (see
  /// ``observe(_:options:isolation:_:)``).
  ///
  /// - Complexity: O(*n*) for the thread that delivers, where *n* is the number of
  ///   subscriptions; no heap allocation when no other delivery is under way.
  @inlinable
  public var value: Value {
    get { withState { $0.value } }
    set {
      // The common case in one trip through the lock: nobody is delivering, so this thread
      // delivers its own change, from a snapshot of the list, without queueing it.
      var change = Change(kind: .update, oldValue: nil, newValue: newValue)
      var before: UInt64 = 0
      var snapshot: [Subscription<Value>?] = []
      let mustDeliver = state.withLock { state in
        _ = handoff.load(ordering: .acquiring)
        change = Change(kind: .update, oldValue: state.value, newValue: newValue)
        state.value = newValue
        before = state.nextID
        snapshot = state.slots
        // This read-modify-write comes after every access above, so that it also shows
        // ThreadSanitizer where they end, as the handoff increment does in withState(_:).
        guard deliveries.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else {
          state.pending.append(.change(change, before: before))
          handoff.wrappingAdd(1, ordering: .releasing)
          return false
        }
        return true
      }
      guard mustDeliver else { return }
      Self.deliver(change, before: before, to: snapshot, endingIn: self)
      // The snapshot is dropped only after the turn ends (see withSlotsChanged(_:)).
      withExtendedLifetime(snapshot) { deliverQueued() }
    }
  }

  /// The number of live subscriptions: not cancelled, and whose owner, if any, is alive.
  ///
  /// - Complexity: O(*n*), where *n* is the number of subscriptions stored.
  public var observerCount: Int {
    // Counted outside the lock: checking an owner holds it for a moment, and if another thread
    // released it meanwhile, its deinit must not run under the lock.
    let snapshot = withState { $0.slots }
    let count = snapshot.count { $0?.isLive == true }
    // The snapshot is dropped only after a release (see withSlotsChanged(_:)).
    withExtendedLifetime(snapshot) { _ = handoff.wrappingAdd(1, ordering: .releasing) }
    return count
  }

  /// Observes the value until the returned token is cancelled or deinitialized.
  ///
  /// The handler runs where it was written. One written in code isolated to an actor (a
  /// `@MainActor` type, say) is isolated to that actor and is called only there; see
  /// ``observe(_:options:isolation:_:)`` for when. One written in code that is not isolated to
  /// an actor is called on the thread that delivers, as soon as the change is set: it must be
  /// safe to call from any thread, so capture only what is `Sendable` in it.
  ///
  /// ```swift
  /// let token = score.observe { print("score is \($0.newValue)") }
  /// ```
  ///
  /// - Parameters:
  ///   - options: `.initial` to receive the current value once, when subscribing.
  ///   - isolation: The actor the handler is isolated to; leave it to its default, the
  ///     caller's own.
  ///   - handler: Called with each change.
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observe(
    options: ObservableOptions = [], isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (Change<Value>) -> Void
  ) -> ObservationToken {
    // Kept as the caller wrote it, and called only as `delivery(isolatedTo:_:)` promises.
    nonisolated(unsafe) let handler = handler
    let deliver: @Sendable (Subscription<Value>, Change<Value>) -> Bool
    if let isolation {
      deliver = delivery(isolatedTo: isolation) { _, change in
        handler(change)
        return true
      }
    } else {
      deliver = { _, change in
        handler(change)
        return true
      }
    }
    let subscription = subscribe(owner: nil, options: options, deliver: deliver)
    return ObservationToken(observable: self, subscription: subscription)
  }

  /// Observes the value for as long as `owner` lives, handing the owner to the handler.
  ///
  /// The owner is held weakly, and the handler receives it as a parameter, so the handler has
  /// no reason to capture it. Observing again with the same owner replaces its subscription.
  ///
  /// The handler runs where it was written:
  ///
  /// - **Isolated to the main actor** (written in a `@MainActor` type): on the main actor,
  ///   always. A change set on the main actor while no other delivery is under way reaches it
  ///   before the setter returns. A change set on another thread reaches it later, from a task
  ///   on the main actor: every change, in the order set, each once. Once a cancel or
  ///   ``removeObserver(_:)`` returns on the main actor, or the owner is gone, it is not
  ///   called again.
  /// - **Isolated to another actor**: the same, except that every change reaches it later,
  ///   from a task on that actor, since no thread can tell that it already is on that actor.
  /// - **Not isolated**: on the thread that delivers, at once. It must be safe to call from
  ///   any thread, so capture only what is `Sendable` in it.
  ///
  /// With ``ObservableOptions/initial``, the current value reaches the handler before this
  /// method returns, when no delivery is under way and the handler can run here. Otherwise it
  /// comes later, but always before any change set after this call.
  ///
  /// - Parameters:
  ///   - owner: The object whose lifetime bounds the subscription.
  ///   - options: `.initial` to receive the current value once, when subscribing.
  ///   - isolation: The actor the handler is isolated to; leave it to its default, the
  ///     caller's own.
  ///   - handler: Called with the owner and each change.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observe<Owner: AnyObject & Sendable>(
    _ owner: Owner, options: ObservableOptions = [],
    isolation: isolated (any Actor)? = #isolation,
    _ handler: @escaping (Owner, Change<Value>) -> Void
  ) {
    // Kept as the caller wrote it, and called only as `delivery(isolatedTo:_:)` promises.
    nonisolated(unsafe) let handler = handler
    let deliver: @Sendable (Subscription<Value>, Change<Value>) -> Bool
    if let isolation {
      deliver = delivery(isolatedTo: isolation) { [weak owner] _, change in
        guard let owner else { return false }
        handler(owner, change)
        return true
      }
    } else {
      deliver = { [weak owner] _, change in
        guard let owner else { return false }
        handler(owner, change)
        return true
      }
    }
    _ = subscribe(owner: owner, options: options, deliver: deliver)
  }

  /// Ends the subscription of `owner`; an owner with none is ignored.
  ///
  /// - Parameter owner: The object passed to ``observe(_:options:isolation:_:)``.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func removeObserver(_ owner: AnyObject) {
    let id = ObjectIdentifier(owner)
    let removed = withSlotsChanged { state -> Subscription<Value>? in
      // `owner` is alive (the caller holds it), so loading the subscription's owner here
      // never releases the last reference to it.
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
      deliver: { _, change in
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

  /// Whether some thread holds the lock right now: from a `deinit` or a handler on one thread,
  /// whether that thread itself does.
  ///
  /// For tests only.
  package var _isLocked: Bool { state.withLockIfAvailable { _ in } == nil }

  // MARK: - Subscribing and delivering

  /// Runs `body` with the state locked.
  ///
  /// On Linux the Synchronization module's `Mutex`, like the runtime's reference counting, is
  /// built without ThreadSanitizer's instrumentation, so the sanitizer cannot see the order they
  /// impose, and reports races that are not there. Acquiring loads after locking and a
  /// releasing increment before unlocking, compiled here, show it the order the lock already
  /// guarantees; the setter's fast path and the end of a delivery use ``deliveries`` the same
  /// way. They change nothing else, and cost two loads and a locked add.
  @inlinable
  func withState<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
    state.withLock { state in
      _ = handoff.load(ordering: .acquiring)
      _ = deliveries.load(ordering: .acquiring)
      defer { handoff.wrappingAdd(1, ordering: .releasing) }
      return body(&state)
    }
  }

  /// Runs `body` with the state locked, to change the list of subscriptions in place.
  ///
  /// A delivering thread reads its snapshot of the list without the lock, and this thread may
  /// change the list's storage in place only once every snapshot of it is dropped: the
  /// runtime's reference count tells it so, and ThreadSanitizer cannot see that count. So the
  /// storage is first made this thread's own (copied only if a snapshot still holds it), and
  /// acquiring loads after that show the sanitizer the releases that every reader of a
  /// snapshot makes before dropping it. They change nothing else.
  @inlinable
  func withSlotsChanged<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
    withState { state in
      state.slots.reserveCapacity(state.slots.capacity)
      _ = handoff.load(ordering: .acquiring)
      _ = deliveries.load(ordering: .acquiring)
      return body(&state)
    }
  }

  /// Delivers through a mailbox to the actor `handler` is isolated to.
  ///
  /// A handler written outside any actor is delivered to straight from the delivering thread,
  /// by the observe methods themselves: one call at a time, each ordered after the one before
  /// by the lock, as a `@Sendable` handler would be. One isolated to an actor is called only on
  /// that actor, by its ``ActorMailbox``.
  @inlinable
  func delivery(
    isolatedTo isolation: any Actor,
    _ handler: @escaping (Subscription<Value>, Change<Value>) -> Bool
  ) -> @Sendable (Subscription<Value>, Change<Value>) -> Bool {
    let handler = IsolatedHandler(handler)
    // The main actor's handlers share one mailbox, so they are called in subscription order as
    // well as in set order; another actor's handler has one of its own.
    let mailbox =
      isolation === MainActor.shared
      ? withState { state in
        if let mailbox = state.mainActorMailbox { return mailbox }
        let mailbox = ActorMailbox<Value>(isolation: isolation, observable: self)
        state.mainActorMailbox = mailbox
        return mailbox
      }
      : ActorMailbox<Value>(isolation: isolation, observable: self)
    return { subscription, change in
      mailbox.post(.init(subscription: subscription, change: change, handler: handler))
      return true
    }
  }

  @inlinable
  func subscribe(
    owner: (AnyObject & Sendable)?, options: ObservableOptions,
    finish: (@Sendable () -> Void)? = nil,
    deliver: @escaping @Sendable (Subscription<Value>, Change<Value>) -> Bool
  ) -> Subscription<Value> {
    let (subscription, replaced, initial) = withSlotsChanged {
      state -> (Subscription<Value>, Subscription<Value>?, Change<Value>?) in
      let subscription = Subscription(
        id: state.nextID, owner: owner, finish: finish, deliver: deliver)
      state.nextID += 1
      var replaced: Subscription<Value>?
      if let owner {
        // The earlier entry leaves the map and the list with the caller, to be released
        // outside the lock; even when it had already ended and only the map still held it.
        replaced = state.subscriptionByOwner.updateValue(
          subscription, forKey: ObjectIdentifier(owner))
        if let replaced { _ = state.remove(replaced) }
      }
      state.append(subscription)
      guard options.contains(.initial) else { return (subscription, replaced, nil) }
      let initial = Change(kind: .initial, oldValue: nil, newValue: state.value)
      guard deliveries.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else {
        state.pending.append(.initial(initial, subscription))
        return (subscription, replaced, nil)
      }
      return (subscription, replaced, initial)
    }
    replaced?.finish?()
    if let initial {
      Self.deliverInitial(initial, to: subscription, endingIn: self)
      deliverQueued()
    }
    return subscription
  }

  @inlinable
  func end(_ subscription: Subscription<Value>) {
    if withSlotsChanged({ $0.remove(subscription) }) {
      subscription.finish?()
    }
  }

  @usableFromInline
  func endSubscription(_ subscription: AnyObject) {
    if let subscription = subscription as? Subscription<Value> { end(subscription) }
  }

  /// Ends this thread's turn as the delivering thread, after delivering whatever was queued
  /// behind it meanwhile, one at a time and in order.
  @inlinable
  func deliverQueued() {
    // Each snapshot is dropped only after this thread's next release: the lock's, when the
    // next one is taken, or the end of the turn (see withSlotsChanged(_:)).
    var snapshot: [Subscription<Value>?] = []
    defer { withExtendedLifetime(snapshot) {} }
    // Nothing queued: the turn ends without the lock.
    while !deliveries.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing)
      .exchanged
    {
      let item: Pending
      (item, snapshot) = withState { state -> (Pending, [Subscription<Value>?]) in
        // Someone raised the count under the lock and queued in the same breath, so there is
        // an item; the one this thread finished is counted off, and this one is now under way.
        let item = state.pending[state.pendingStart].take()!
        state.pendingStart += 1
        if state.pendingStart == state.pending.count {
          state.pending.removeAll(keepingCapacity: true)
          state.pendingStart = 0
        }
        deliveries.wrappingSubtract(1, ordering: .relaxed)
        return (item, state.slots)
      }
      switch item {
      case .initial(let change, let subscription):
        Self.deliverInitial(change, to: subscription, endingIn: self)
      case .change(let change, let before):
        Self.deliver(change, before: before, to: snapshot, endingIn: self)
      }
    }
  }

  @inlinable
  static func deliverInitial(
    _ change: Change<Value>, to subscription: Subscription<Value>,
    endingIn observable: Observable
  ) {
    if subscription.isActive.load(ordering: .acquiring),
      !subscription.deliver(subscription, change)
    {
      observable.end(subscription)
    }
  }

  /// Delivers one change to the subscriptions in `snapshot` made before it was set.
  @inlinable
  static func deliver(
    _ change: Change<Value>, before: UInt64, to snapshot: [Subscription<Value>?],
    endingIn observable: Observable
  ) {
    // The snapshot keeps every subscription alive for the whole loop, so each one is borrowed
    // from it, not retained and released around its call: that halves the cost of a delivery.
    snapshot.withUnsafeBufferPointer { snapshot in
      for slot in snapshot.indices {
        guard let entry = snapshot[slot].map(Unmanaged.passUnretained) else { continue }
        switch entry._withUnsafeGuaranteedRef({ deliver(change, to: $0, before: before) }) {
        case .delivered: continue
        case .subscribedLater: return
        case .ownerGone: observable.end(entry.takeUnretainedValue())
        }
      }
    }
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
    guard subscription.isActive.load(ordering: .acquiring),
      !subscription.deliver(subscription, change)
    else {
      return .delivered
    }
    return .ownerGone
  }
}
