import Dispatch
import Synchronization

/// A value that any thread may read, set and observe: stage 5, tuned for speed.
///
/// It makes every promise of `Stage5Concurrency.Observable`, the stage 5 of the tutorial, with
/// the same API; appendix 05a says how it is made fast and what each step buys.
///
/// - **Thread-safe.** Its state sits behind a lock. Unlike the lesson's, this one is not
///   checked by the compiler: the lock is `@unchecked Sendable`, handlers sit in
///   `nonisolated(unsafe)` storage and are called through `Unmanaged`, and the tests, under
///   ThreadSanitizer too, stand in for the compiler's checks. Handlers are never called while
///   the lock is held, and nothing of yours (a value, a handler and what it captured, an owner)
///   is released while it is held either, so a handler, or a `deinit` that a release runs, may
///   read, set, subscribe or cancel.
/// - **One handler at a time, in order.** Handlers of one observable never run two at a time:
///   one delivery runs at a time, and a value set meanwhile, from inside a handler or from
///   another thread, is queued and delivered after the current one, so every observer sees the
///   values in the order they were set, each once, and ends on the latest. The cost: a setter
///   may return before its observers have run, when another delivery is in progress.
/// - **No call held up by other threads.** A set, a subscription with `.initial` or a read of
///   ``values`` delivers at most its own change, and those its own handlers set meanwhile
///   (with any queued before them). What other threads set meanwhile is handed on, to a setter
///   that waits or to a task, and delivered next, in order, once each. Cancelling delivers
///   nothing.
/// - **Bounded.** When setters outpace their observers, a setter waits once ``backlogLimit``
///   changes are queued while a thread delivers (see ``value``); a stream from ``values`` keeps
///   what its buffering policy says.
/// - **Immediate removal.** Once ``ObservationToken/cancel()`` or ``removeObserver(_:)`` returns
///   where the handler runs, that handler is not called again, even later in the same
///   delivery. It is released before the call returns, unless another thread is delivering a
///   change at that moment: then once that delivery is done with it.
/// - **No reason to capture the owner.** ``observe(_:options:isolation:_:)`` holds its owner
///   weakly and hands it to the handler, so the handler never needs to capture it; the
///   subscription ends with the owner.
/// - **Handlers run where they were written.** A handler written in a `@MainActor` type runs on
///   the main actor: at once when the value is set on the main actor (unless an earlier
///   subscription's handler is isolated to another actor, which moves the delivery there),
///   later (in order, each change once) when it is set on another thread. One that may run on
///   any thread is passed to ``observeOnAnyThread(_:options:_:)``, which requires it to be
///   `@Sendable`.
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
    /// A set, to deliver to the subscriptions made before it; with its setter, if that setter
    /// waits for it.
    case change(Change<Value>, before: UInt64, waiter: Waiter?)
    /// The current value, for one new subscription that asked for it.
    case initial(Change<Value>, Subscription<Value>)
  }

  /// A setter that found the queue full and waits: until its change is delivered, or until
  /// the turn is handed to it, to deliver up to its change itself.
  @usableFromInline
  struct Waiter: Sendable {
    @usableFromInline let thread: UInt
    /// Where its change is in the order of all deliveries ever queued.
    @usableFromInline let position: Int
    @usableFromInline let wakeUp = DispatchSemaphore(value: 0)

    @usableFromInline
    init(thread: UInt, position: Int) {
      self.thread = thread
      self.position = position
    }
  }

  /// What a caller that queued a delivery does next.
  @usableFromInline
  enum Turn: Sendable {
    /// It has the turn: it delivers what is queued, up to its own.
    case taken
    /// Somebody else delivers it.
    case queued
    /// It waits until its delivery is made, or until the turn is handed to it.
    case waiting(Waiter)
  }

  @usableFromInline
  struct State: Sendable {
    @usableFromInline
    init(value: Value) { self.value = value }

    @usableFromInline var value: Value
    /// In subscription order; `nil` where a subscription ended, until the next compaction.
    @usableFromInline var slots: [Subscription<Value>?] = []
    /// The id of the subscription in each slot, kept where it ended too: increasing, so that a
    /// binary search finds a subscription's slot.
    @usableFromInline var ids: [UInt64] = []
    @usableFromInline var storedCount = 0
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var subscriptionByOwner: [ObjectIdentifier: Subscription<Value>] = [:]
    /// Deliveries waiting for the one under way; `nil` where one was taken out, until the
    /// queue empties. Taking each one out, rather than clearing the queue at the end, means the
    /// values and subscriptions it holds are released by the delivering thread, not under
    /// the lock.
    @usableFromInline var pending: [Pending?] = []
    @usableFromInline var pendingStart = 0
    /// How many deliveries were ever queued, and taken out of the queue.
    @usableFromInline var queuedTotal = 0
    @usableFromInline var takenTotal = 0
    /// The thread that has the turn and is delivering now (see ``CurrentThread``); 0 while the
    /// turn waits for an actor or a task to take it up. Not cleared when a turn ends without
    /// the lock: it is read while a turn is under way, and by a setter that waited, once woken,
    /// which it names only if the turn was handed to that setter.
    @usableFromInline var deliverer: UInt = 0
    /// Whether the deliverer is an actor, on which handlers isolated to it run.
    @usableFromInline var delivererIsAnActor = false
    /// How many of the queued deliveries, from the front, are the deliverer's own work: it
    /// delivers them before it returns, then hands the turn on.
    @usableFromInline var turnWork = 0
    /// Whether the turn was handed on to a task that has not taken it up yet.
    @usableFromInline var isHandedOn = false
    /// Setters waiting for their change, oldest first.
    @usableFromInline var waiters: [Waiter] = []

    /// The number of deliveries waiting.
    @inlinable var pendingCount: Int { pending.count - pendingStart }

    /// Makes `thread` the deliverer, with `work` deliveries of the queue's to make.
    @inlinable mutating func giveTurn(to thread: UInt, work: Int, onAnActor: Bool = false) {
      deliverer = thread
      delivererIsAnActor = onAnActor
      turnWork = work
    }

    /// Queues a change set by `thread` while a delivery is under way, and says what that
    /// thread does next: made by a handler of that delivery, on the deliverer's thread, it is
    /// the deliverer's own work, with what was queued before it; made by a setter that finds
    /// the queue full while a thread delivers, that setter waits.
    @inlinable mutating func enqueue(
      _ change: Change<Value>, before: UInt64, by thread: UInt, mayWait: Bool
    ) -> Turn {
      defer { queuedTotal += 1 }
      if deliverer == thread {
        pending.append(.change(change, before: before, waiter: nil))
        turnWork = pendingCount
        return .queued
      }
      // A setter waits only for a thread that is delivering, never for an actor, which might
      // be waiting for it in turn; and only behind a queue that setters which wait have kept
      // within twice the limit: behind a longer one, filled by setters that never wait,
      // waiting would bound nothing, and would take as long as that queue.
      let threadDelivers = deliverer != 0 && !delivererIsAnActor || isHandedOn
      let isFull = (backlogLimit..<2 * backlogLimit).contains(pendingCount)
      guard mayWait, isFull, threadDelivers, !MainActorCheck.isCurrent else {
        pending.append(.change(change, before: before, waiter: nil))
        return .queued
      }
      if isHandedOn {
        // The turn is free for the taking: this setter takes it, and delivers up to its change.
        pending.append(.change(change, before: before, waiter: nil))
        isHandedOn = false
        giveTurn(to: thread, work: pendingCount)
        return .taken
      }
      let waiter = Waiter(thread: thread, position: queuedTotal)
      pending.append(.change(change, before: before, waiter: waiter))
      waiters.append(waiter)
      return .waiting(waiter)
    }

    /// Queues an initial value for `subscription`, asked for while a delivery is under way.
    @inlinable mutating func enqueueInitial(
      _ initial: Change<Value>, for subscription: Subscription<Value>, by thread: UInt
    ) {
      queuedTotal += 1
      pending.append(.initial(initial, subscription))
      if deliverer == thread { turnWork = pendingCount }
    }

    /// Adds `subscription` at the end of the list; call it inside ``withSlotsChanged(_:)``.
    @inlinable mutating func append(_ subscription: Subscription<Value>) {
      slots.append(subscription)
      ids.append(subscription.id)
      storedCount += 1
    }

    /// The subscription with this id, if it is still in the list.
    ///
    /// - Complexity: O(log *n*).
    @inlinable func subscription(withID id: UInt64) -> Subscription<Value>? {
      var low = 0
      var high = ids.count
      while low < high {
        let middle = low + (high - low) / 2
        if ids[middle] < id { low = middle + 1 } else { high = middle }
      }
      guard low < ids.count, ids[low] == id else { return nil }
      return slots[low]
    }

    /// Takes `subscription` out of the list, if it is still there; call it inside
    /// ``withSlotsChanged(_:)``. The caller holds its own reference, so the subscription is
    /// never released here.
    ///
    /// - Complexity: O(log *n*) amortized.
    @inlinable mutating func remove(_ subscription: Subscription<Value>) -> Bool {
      subscription.isActive.store(false, ordering: .releasing)
      var low = 0
      var high = ids.count
      while low < high {
        let middle = low + (high - low) / 2
        if ids[middle] < subscription.id { low = middle + 1 } else { high = middle }
      }
      guard low < ids.count, slots[low] === subscription else { return false }
      slots[low] = nil
      storedCount -= 1
      if let ownerID = subscription.ownerID, subscriptionByOwner[ownerID] === subscription {
        subscriptionByOwner[ownerID] = nil
      }
      // Compacting once half the slots are empty keeps removal O(1) amortized, beside the
      // search. Only empty slots are dropped, so nothing is released.
      if slots.count >= 16 && storedCount < slots.count / 2 {
        slots.removeAll { $0 == nil }
        ids = slots.map { $0!.id }
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
  /// The id of the subscription whose handler the delivering thread calls now, or called
  /// last; written and read only by the thread that has the turn. Unchecked for exclusivity
  /// at run time: the turn already makes every access exclusive, and the check cost a few
  /// nanoseconds a callback.
  @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var callingID = UInt64.max

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
      subscription?.finish()
    }
  }

  /// The current value; get and set it from any thread.
  ///
  /// Setting it delivers a ``Change`` to every live observer, in subscription order:
  ///
  /// - If no delivery is under way, the setting thread takes the turn and delivers this change,
  ///   and those its handlers set meanwhile, before the setter returns; except to a handler
  ///   isolated to an actor this thread is not on (see ``observe(_:options:isolation:_:)``):
  ///   the rest continues there, later.
  /// - If a delivery is under way, the change is queued and the setter returns at once; it is
  ///   delivered in order by whoever has the turn, or by a task the turn is handed on to.
  /// - If ``backlogLimit`` changes are queued already while a thread delivers, the setter waits
  ///   until its change is delivered, delivering those before it itself if the turn comes to
  ///   it; so setters faster than their observers slow down rather than fill the memory. A
  ///   setter never waits on the main actor, nor in a handler of this observable, nor while the
  ///   delivery waits for an actor (a handler isolated to the main actor, say), which might be
  ///   waiting for that setter: the queue then grows until the actor has delivered it.
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
      var turn = Turn.taken
      let thread = CurrentThread.id
      let mustDeliver = state.withLock { state in
        _ = handoff.load(ordering: .acquiring)
        change = Change(kind: .update, oldValue: state.value, newValue: newValue)
        state.value = newValue
        before = state.nextID
        snapshot = state.slots
        // No delivery under way: nobody else can change the count now (it is raised only
        // under the lock, and only a deliverer lowers it), so a plain store takes the turn,
        // one locked instruction fewer than the add below. It comes after every access
        // above, so that it also shows ThreadSanitizer where they end.
        if deliveries.load(ordering: .acquiring) == 0 {
          deliveries.store(1, ordering: .releasing)
        } else if deliveries.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
          // A delivery is under way (unless it ended just now, between the load and the add).
          turn = state.enqueue(change, before: before, by: thread, mayWait: true)
          handoff.wrappingAdd(1, ordering: .releasing)
          return false
        }
        // This thread takes the turn, for its own change only.
        state.giveTurn(to: thread, work: 0)
        return true
      }
      guard mustDeliver else {
        take(turn, by: thread)
        return
      }
      deliver(change, before: before, to: snapshot, from: 0, here: nil)
    }
  }

  /// How many changes may wait in the queue before a setter waits for its change to be
  /// delivered: see ``value``.
  public static var backlogLimit: Int { 256 }

  /// Does what `turn` says, for a change queued while a delivery was under way: delivers,
  /// waits, or nothing.
  @usableFromInline
  func take(_ turn: Turn, by thread: UInt) {
    switch turn {
    case .taken:
      deliverQueued(here: nil)
    case .queued:
      break
    case .waiting(let waiter):
      waiter.wakeUp.wait()
      // Woken because its change was delivered, or because the turn was handed to it.
      if withState({ $0.deliverer == thread }) { deliverQueued(here: nil) }
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

  /// Observes the value until the returned token is cancelled or deinitialized, with a handler
  /// isolated to the caller's actor.
  ///
  /// Call it from code isolated to an actor: a `@MainActor` type, say. The handler may touch
  /// that actor's state, and it is called only there; see ``observe(_:options:isolation:_:)``
  /// for when. From code outside any actor, call ``observeOnAnyThread(options:_:)`` instead.
  ///
  /// - Parameters:
  ///   - options: `.initial` to receive the current value once, when subscribing.
  ///   - isolation: The caller's actor; leave it to its default. Swift 6 refuses any other; a
  ///     caller in the Swift 5 language mode can pass another actor, and the handler then runs
  ///     there, whatever it was written for, with no diagnostic.
  ///   - handler: Called with each change.
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observe(
    options: ObservableOptions = [], isolation: isolated any Actor = #isolation,
    _ handler: @escaping (Change<Value>) -> Void
  ) -> ObservationToken {
    // Isolated to `isolation`, and called only there: the delivery loop checks it first.
    let subscription = subscribe(isolation: isolation, options: options, handler: handler)
    return token(for: subscription)
  }

  /// Observes the value for as long as `owner` lives, with a handler isolated to the caller's
  /// actor, which is handed the owner.
  ///
  /// The owner is held weakly, and the handler receives it as a parameter, so the handler has
  /// no reason to capture it. Observing again with the same owner replaces its subscription.
  /// Call it from code isolated to an actor (a `@MainActor` type, say); the handler runs only
  /// there:
  ///
  /// - **Isolated to the main actor**: a change set on the main actor while no other delivery
  ///   is under way reaches it before the setter returns, unless a handler before it, in
  ///   subscription order, is isolated to another actor (the rest of the delivery then moves
  ///   there, and it gets the change a moment later). A change set on another thread
  ///   reaches it later, on the main actor: the rest of that delivery moves there, so every
  ///   change arrives in the order set, each once, and never while another handler of this
  ///   observable runs. Once a cancel or ``removeObserver(_:)`` returns on the main actor, or
  ///   the owner is gone, it is not called again.
  /// - **Isolated to another actor**: the same, except that every change reaches it later, on
  ///   that actor, since no thread can tell that it already is on that actor.
  ///
  /// With ``ObservableOptions/initial``, the current value reaches the handler before this
  /// method returns, when no delivery is under way. Otherwise it comes later, but always
  /// before any change set after this call.
  ///
  /// - Parameters:
  ///   - owner: The object whose lifetime bounds the subscription.
  ///   - options: `.initial` to receive the current value once, when subscribing.
  ///   - isolation: The caller's actor; leave it to its default. Swift 6 refuses any other; a
  ///     caller in the Swift 5 language mode can pass another actor, and the handler then runs
  ///     there, whatever it was written for, with no diagnostic.
  ///   - handler: Called with the owner and each change.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observe<Owner: AnyObject & Sendable>(
    _ owner: Owner, options: ObservableOptions = [], isolation: isolated any Actor = #isolation,
    _ handler: @escaping (Owner, Change<Value>) -> Void
  ) {
    // Isolated to `isolation`, and called only there: the delivery loop checks it first.
    nonisolated(unsafe) let handler = handler
    _ = subscribe(
      isolation: isolation, options: options,
      extra: .init(owner: owner, finish: nil),
      ownerHandler: { [weak owner] change in
        guard let owner else { return false }
        handler(owner, change)
        return true
      })
  }

  /// Observes the value until the returned token is cancelled or deinitialized, with a handler
  /// that may run on any thread.
  ///
  /// The handler is called on the thread that delivers, as soon as the change is set, so it
  /// must be `@Sendable`: the compiler checks that it captures only what any thread may use.
  ///
  /// ```swift
  /// let token = score.observeOnAnyThread { print("score is \($0.newValue)") }
  /// ```
  ///
  /// - Parameters:
  ///   - options: `.initial` to receive the current value once, when subscribing.
  ///   - handler: Called with each change.
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observeOnAnyThread(
    options: ObservableOptions = [], _ handler: @escaping @Sendable (Change<Value>) -> Void
  ) -> ObservationToken {
    let subscription = subscribe(isolation: nil, options: options, handler: handler)
    return token(for: subscription)
  }

  /// Observes the value for as long as `owner` lives, with a handler that may run on any
  /// thread, which is handed the owner.
  ///
  /// - Parameters:
  ///   - owner: The object whose lifetime bounds the subscription.
  ///   - options: `.initial` to receive the current value once, when subscribing.
  ///   - handler: Called on the delivering thread with the owner and each change.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func observeOnAnyThread<Owner: AnyObject & Sendable>(
    _ owner: Owner, options: ObservableOptions = [],
    _ handler: @escaping @Sendable (Owner, Change<Value>) -> Void
  ) {
    _ = subscribe(
      isolation: nil, options: options,
      extra: .init(owner: owner, finish: nil),
      ownerHandler: { [weak owner] change in
        guard let owner else { return false }
        handler(owner, change)
        return true
      })
  }

  /// Ends the subscription of `owner`; an owner with none is ignored.
  ///
  /// - Parameter owner: The object passed to ``observe(_:options:isolation:_:)``.
  /// - Complexity: O(1) amortized.
  @inlinable
  public func removeObserver(_ owner: AnyObject) {
    let id = ObjectIdentifier(owner)
    let thread = CurrentThread.id
    let (removed, releasesAtOnce) = withSlotsChanged { state -> (Subscription<Value>?, Bool) in
      // In the owner's `deinit`, its weak references already read `nil`: then its identity
      // alone finds it. Otherwise `owner` is alive (the caller holds it), so loading the
      // subscription's owner here never releases the last reference to it.
      guard let subscription = state.subscriptionByOwner[id],
        subscription.extra?.owner == nil || subscription.extra?.owner === owner,
        state.remove(subscription)
      else { return (nil, false) }
      return (subscription, mayReleaseAtOnce(subscription, state, thread: thread))
    }
    finish(removed, releasesAtOnce: releasesAtOnce)
  }

  /// The current value, then every change, as an asynchronous sequence that keeps every
  /// value until it is read.
  ///
  /// The sequence ends when the observable is deinitialized; cancelling the task that consumes
  /// it, or dropping it, ends its subscription. A consumer slower than the setters makes its
  /// buffer grow: when the latest value is enough, use ``values(bufferingPolicy:)`` with
  /// `.bufferingNewest(1)`.
  public var values: AsyncStream<Value> { values(bufferingPolicy: .unbounded) }

  /// The current value, then every change, as an asynchronous sequence that keeps, while its
  /// consumer is busy, what `bufferingPolicy` says.
  ///
  /// ```swift
  /// for await score in score.values(bufferingPolicy: .bufferingNewest(1)) {
  ///   label.text = "\(score)"  // the latest score; those set meanwhile are skipped
  /// }
  /// ```
  ///
  /// - Parameter bufferingPolicy: `.unbounded` keeps every value; `.bufferingNewest(1)` only
  ///   the latest, as the Observation framework's `Observations` does; `.bufferingOldest(n)`
  ///   the first *n*, dropping those after.
  /// - Returns: A stream that ends when the observable is deinitialized.
  public func values(
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Value.self, bufferingPolicy: bufferingPolicy)
    let id = subscribe(
      isolation: nil, options: .initial,
      extra: .init(owner: nil, finish: { continuation.finish() }),
      handler: { continuation.yield($0.newValue) }
    ).id
    continuation.onTermination = { [weak self] _ in self?.endSubscription(id: id) }
    return stream
  }

  /// The number of subscriptions stored, ended ones that are not cleaned away yet included:
  /// what a grader counts to see whether dead entries are kept. ``observerCount`` counts the
  /// live ones only.
  ///
  /// A subscription ended by its token or by ``removeObserver(_:)`` leaves at once. One whose
  /// owner is gone stays stored until a delivery reaches it and removes it, so once the
  /// deliveries of the sets made so far are done, this equals ``observerCount``. A set made on
  /// one thread may be delivered later, on another (see ``value``).
  ///
  /// ```swift
  /// let observable = Observable(0)
  /// var screen: Screen? = Screen()
  /// observable.observeOnAnyThread(screen!) { _, _ in }
  /// screen = nil
  /// observable.storedSubscriptionCount  // 1: the ended subscription is still stored
  /// observable.value = 1
  /// observable.storedSubscriptionCount  // 0
  /// ```
  ///
  /// - Complexity: O(1).
  public var storedSubscriptionCount: Int { _storedSubscriptionCount }

  /// The number of subscriptions stored, ended ones not yet cleaned away included.
  ///
  /// For tests and the comparison's scenarios only.
  package var _storedSubscriptionCount: Int { withState { $0.storedCount } }

  /// The number of deliveries queued.
  ///
  /// For tests only.
  package var _queuedCount: Int { withState { $0.pendingCount } }

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

  /// The token that ends `subscription`.
  @inlinable
  func token(for subscription: Subscription<Value>) -> ObservationToken {
    ObservationToken(observable: self, id: subscription.id)
  }

  /// Handed to a subscription with an owner, whose ``Subscription/Extra/ownerHandler`` is
  /// called instead.
  @inlinable static var ownerHandlerInstead: (Change<Value>) -> Void { { _ in } }

  @inlinable
  func subscribe(
    isolation: (any Actor)?, options: ObservableOptions, extra: Subscription<Value>.Extra? = nil,
    handler: @escaping (Change<Value>) -> Void = ownerHandlerInstead,
    ownerHandler: (@Sendable (Change<Value>) -> Bool)? = nil
  ) -> Subscription<Value> {
    let thread = CurrentThread.id
    var releasesAtOnce = false
    let (subscription, replaced, initial) = withSlotsChanged {
      state -> (Subscription<Value>, Subscription<Value>?, Change<Value>?) in
      let subscription = Subscription(
        id: state.nextID, isolation: isolation, extra: extra, handler: handler,
        ownerHandler: ownerHandler)
      state.nextID += 1
      var replaced: Subscription<Value>?
      if let ownerID = extra?.ownerID {
        // The earlier entry leaves the map and the list with the caller, to be released
        // outside the lock; even when it had already ended and only the map still held it.
        replaced = state.subscriptionByOwner.updateValue(subscription, forKey: ownerID)
        if let replaced {
          _ = state.remove(replaced)
          releasesAtOnce = mayReleaseAtOnce(replaced, state, thread: thread)
        }
      }
      state.append(subscription)
      guard options.contains(.initial) else { return (subscription, replaced, nil) }
      let initial = Change(kind: .initial, oldValue: nil, newValue: state.value)
      guard deliveries.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else {
        state.enqueueInitial(initial, for: subscription, by: thread)
        return (subscription, replaced, nil)
      }
      state.giveTurn(to: thread, work: 0)
      return (subscription, replaced, initial)
    }
    finish(replaced, releasesAtOnce: releasesAtOnce)
    if let initial {
      self.deliver(
        initial, before: subscription.id + 1, to: [subscription], from: 0, here: isolation)
    }
    return subscription
  }

  /// Whether `thread` may let go at once of the handlers of `subscription`, just ended under
  /// the lock: no thread can be calling them, because no delivery is under way, or the turn
  /// waits for an actor or a task, or `thread` itself has the turn and is not inside that
  /// subscription's handler. Otherwise its `deinit` lets go of them, once the delivery that
  /// holds it is done.
  @inlinable
  func mayReleaseAtOnce(_ subscription: Subscription<Value>, _ state: State, thread: UInt) -> Bool {
    deliveries.load(ordering: .acquiring) == 0 || state.deliverer == 0
      || (state.deliverer == thread && callingID != subscription.id)
  }

  /// Ends `removed`, taken out of the list under the lock: finishes its stream, and lets go of
  /// its handlers if `releasesAtOnce`. Call it with the lock let go.
  @inlinable
  func finish(_ removed: Subscription<Value>?, releasesAtOnce: Bool) {
    guard let removed else { return }
    removed.finish()
    if releasesAtOnce { removed.releaseHandlers() }
  }

  @inlinable
  func end(_ subscription: Subscription<Value>) {
    let thread = CurrentThread.id
    let (removed, releasesAtOnce) = withSlotsChanged { state in
      (state.remove(subscription), mayReleaseAtOnce(subscription, state, thread: thread))
    }
    if removed { finish(subscription, releasesAtOnce: releasesAtOnce) }
  }

  @usableFromInline
  func endSubscription(id: UInt64) {
    // The subscription leaves the list under the lock and is released here, outside it, with
    // its handler, unless a delivery's snapshot still holds it.
    let thread = CurrentThread.id
    let (removed, releasesAtOnce) = withSlotsChanged { state -> (Subscription<Value>?, Bool) in
      guard let subscription = state.subscription(withID: id), state.remove(subscription) else {
        return (nil, false)
      }
      return (subscription, mayReleaseAtOnce(subscription, state, thread: thread))
    }
    finish(removed, releasesAtOnce: releasesAtOnce)
  }

  /// Delivers one change, then whatever is queued behind it, one at a time and in order, as
  /// the thread whose turn it is.
  ///
  /// Ends the turn when nothing is left, unless a handler isolated to an actor that this code
  /// is not running on comes up: then the turn moves to that actor, which goes on from that
  /// handler, and this thread returns.
  ///
  /// - Parameters:
  ///   - change: The change to deliver.
  ///   - before: Only subscriptions made before the change, with smaller ids, receive it.
  ///   - snapshot: The list of subscriptions when the change was set.
  ///   - start: The slot to start from.
  ///   - here: The actor this code runs on, if known.
  @inlinable
  func deliver(
    _ change: Change<Value>, before: UInt64, to snapshot: [Subscription<Value>?], from start: Int,
    here: (any Actor)?
  ) {
    if let slot = Self.deliver(
      change, before: before, to: snapshot, from: start, here: here, endingIn: self)
    {
      handOver(change, before: before, to: snapshot, from: slot)
      return
    }
    // The snapshot is dropped only after the turn ends (see withSlotsChanged(_:)).
    withExtendedLifetime(snapshot) { deliverQueued(here: here) }
  }

  /// Delivers what was queued behind the delivery this thread just made and is this turn's
  /// work, one at a time and in order; then ends the turn if nothing else is queued, or hands
  /// it on to a task if something is, unless the turn moves to an actor on the way.
  @inlinable
  func deliverQueued(here: (any Actor)?) {
    // Each snapshot is dropped only after this thread's next release: the lock's, when the
    // next one is taken, or the end of the turn (see withSlotsChanged(_:)).
    var snapshot: [Subscription<Value>?] = []
    defer { withExtendedLifetime(snapshot) {} }
    // Nothing queued: the turn ends without the lock.
    while !deliveries.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing)
      .exchanged
    {
      var handedTo: Waiter?
      let next = withState { state -> (Pending, [Subscription<Value>?])? in
        // What others queued is not this turn's work: it goes on to the setter that has waited
        // longest, or else to a task.
        guard state.turnWork > 0 else {
          if state.waiters.isEmpty {
            state.deliverer = 0
            state.isHandedOn = true
          } else {
            let waiter = state.waiters.removeFirst()
            state.giveTurn(to: waiter.thread, work: waiter.position - state.takenTotal + 1)
            handedTo = waiter
          }
          return nil
        }
        state.turnWork -= 1
        state.takenTotal += 1
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
      guard let (item, slots) = next else {
        if let handedTo {
          handedTo.wakeUp.signal()
        } else {
          Task { self.takeUpTurn() }
        }
        return
      }
      snapshot = slots
      let (change, before): (Change<Value>, UInt64)
      var waiter: Waiter?
      switch item {
      case .initial(let initial, let subscription):
        (change, before, snapshot) = (initial, subscription.id + 1, [subscription])
      case .change(let queued, let queuedBefore, let queuedWaiter):
        (change, before, waiter) = (queued, queuedBefore, queuedWaiter)
      }
      if let slot = Self.deliver(
        change, before: before, to: snapshot, from: 0, here: here, endingIn: self)
      {
        handOver(change, before: before, to: snapshot, from: slot)
        return
      }
      if let waiter { delivered(waiter) }
    }
  }

  /// Lets the setter that waits for a change just delivered go, unless it is this thread, or
  /// it was let go already.
  @usableFromInline
  func delivered(_ waiter: Waiter) {
    let isWaiting = withState { state in
      guard state.waiters.first?.wakeUp === waiter.wakeUp else { return false }
      state.waiters.removeFirst()
      return true
    }
    if isWaiting { waiter.wakeUp.signal() }
  }

  /// Takes up a turn handed on, unless a waiting setter took it first: its work is what is
  /// queued now, and what its handlers set.
  @usableFromInline
  func takeUpTurn() {
    let thread = CurrentThread.id
    let takesTurn = withState { state in
      guard state.isHandedOn else { return false }
      state.isHandedOn = false
      state.giveTurn(to: thread, work: state.pendingCount)
      return true
    }
    if takesTurn { deliverQueued(here: nil) }
  }

  /// Moves the turn to the actor of the handler in `slot`, which goes on from there.
  @usableFromInline
  func handOver(
    _ change: Change<Value>, before: UInt64, to snapshot: [Subscription<Value>?], from slot: Int
  ) {
    let isolation = snapshot[slot]!.isolation!
    // Until that actor takes the turn up, no thread delivers, and setters that wait go, since
    // that actor might be waiting for one of them.
    let woken = withState { state -> [Waiter] in
      state.deliverer = 0
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in woken { waiter.wakeUp.signal() }
    Task {
      await self.continueDelivery(change, before: before, to: snapshot, from: slot, on: isolation)
    }
  }

  /// Goes on with a delivery on the actor its next handler is isolated to.
  @usableFromInline
  func continueDelivery(
    _ change: Change<Value>, before: UInt64, to snapshot: [Subscription<Value>?], from start: Int,
    on actor: isolated any Actor
  ) {
    // The turn is taken up here, and its work is what is queued now, up to the backlog limit,
    // so that the actor's other work is never kept waiting for long.
    let thread = CurrentThread.id
    withState { state in
      state.giveTurn(
        to: thread, work: min(state.pendingCount, Self.backlogLimit), onAnActor: true)
    }
    deliver(change, before: before, to: snapshot, from: start, here: actor)
  }

  /// Delivers one change to the subscriptions in `snapshot`, from `start` on, made before it
  /// was set.
  ///
  /// - Returns: The slot of a handler that must run on an actor this code is not running on,
  ///   where the delivery stopped; `nil` once every subscription has been reached.
  @inlinable @inline(__always)
  static func deliver(
    _ change: Change<Value>, before: UInt64, to snapshot: [Subscription<Value>?], from start: Int,
    here: (any Actor)?, endingIn observable: Observable
  ) -> Int? {
    // Whether this thread is the main actor's: asked once a delivery, when a handler isolated
    // to the main actor first comes up, since a thread cannot change actors in the middle of a
    // synchronous loop.
    var onMainActor: Bool?
    // The snapshot keeps every subscription alive for the whole loop, so each one is borrowed
    // from it, not retained and released around its call: that halves the cost of a delivery.
    return snapshot.withUnsafeBufferPointer { snapshot -> Int? in
      for slot in start..<snapshot.count {
        guard let entry = snapshot[slot].map(Unmanaged.passUnretained) else { continue }
        switch entry._withUnsafeGuaranteedRef({ subscription in
          observable.callingID = subscription.id
          return deliver(
            change, to: subscription, before: before, here: here, onMainActor: &onMainActor)
        }) {
        case .delivered: continue
        case .subscribedLater: return nil
        case .ownerGone: observable.end(entry.takeUnretainedValue())
        case .elsewhere: return slot
        }
      }
      return nil
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
    /// The handler is isolated to an actor this code is not running on.
    case elsewhere
  }

  @inlinable @inline(__always)
  static func deliver(
    _ change: Change<Value>, to subscription: Subscription<Value>, before: UInt64,
    here: (any Actor)?, onMainActor: inout Bool?
  ) -> DeliveryOutcome {
    guard subscription.id < before else { return .subscribedLater }
    guard subscription.isActive.load(ordering: .acquiring) else { return .delivered }
    // A handler that may run anywhere, with no owner: called as it was passed, one indirect
    // call.
    if subscription.isPlain {
      subscription.handlers._withUnsafeGuaranteedRef { $0.handler(change) }
      return .delivered
    }
    if let isolation = subscription.isolation, isolation !== here {
      guard subscription.isMainActor else { return .elsewhere }
      if onMainActor == nil { onMainActor = MainActorCheck.isCurrent }
      guard onMainActor == true else { return .elsewhere }
    }
    return subscription.handlers._withUnsafeGuaranteedRef { handlers in
      guard let ownerHandler = handlers.ownerHandler else {
        handlers.handler(change)
        return .delivered
      }
      return ownerHandler(change) ? .delivered : .ownerGone
    }
  }
}
