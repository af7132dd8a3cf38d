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
///   read, set, subscribe or cancel, on this observable or any other.
/// - **One handler at a time, in order.** Every change joins one queue, in the order set, and
///   one thread or actor at a time delivers from it: handlers of one observable never run two
///   at a time. Every observer sees every value, in the order set, once, and ends on the
///   latest; a stream from ``values(bufferingPolicy:)`` keeps what its policy says, so
///   `.bufferingOldest(_:)` may drop the latest. The cost: a setter may return before its
///   observers have run, when another delivery is under way.
/// - **No call held up by others.** A call that delivers (a set, a subscription with
///   `.initial`, a read of ``values``) delivers what was queued when it began, its own change
///   included, at most ``backlogLimit`` changes, then those its own handlers set while no other
///   thread's change is ahead of them, at most ``backlogLimit`` more. The rest is handed on, to
///   a setter that waits or to a dispatch queue. The same holds on the main actor. Cancelling
///   delivers nothing.
/// - **Nothing waits for ever.** The only wait is a setter's: one that finds more than
///   ``backlogLimit`` changes queued waits for room, outside any delivery and off the main
///   actor only, and never longer than ``longestWait``. So no combination of observables,
///   threads and actors can deadlock, and a handler may set this or any other observable, or
///   wait for a thread that does.
/// - **Bounded.** Setters faster than their observers, the main actor's included, slow down
///   rather than fill the memory: the queue holds about ``backlogLimit`` changes, plus those
///   set on the main actor or in handlers and the initial values subscribers ask for (which
///   never wait), plus one a thread for every ``longestWait`` the deliveries stand still.
///   ``waitUntilDelivered()`` waits until what was set has been delivered.
/// - **Immediate removal.** Once ``ObservationToken/cancel()`` or ``removeObserver(_:)`` returns
///   where the handler runs, that handler is not called again, even later in the same
///   delivery. It is released before the call returns, unless another thread is running a
///   handler of this observable at that moment: then as soon as that handler returns.
/// - **No reason to capture the owner.** ``observe(_:options:isolation:_:)`` holds its owner
///   weakly and hands it to the handler, so the handler never needs to capture it; the
///   subscription ends with the owner.
/// - **Handlers run where they were written.** A handler written in a `@MainActor` type runs on
///   the main actor. One that may run on any thread is passed to
///   ``observeOnAnyThread(_:options:_:)``, which requires it to be `@Sendable`.
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
    /// A set, to deliver to the subscriptions made before it; with the turn whose handlers set
    /// it, if they did (0 if not).
    case change(Change<Value>, before: UInt64, ownTurn: Int)
    /// The current value, for one new subscription that asked for it.
    case initial(Change<Value>, Subscription<Value>, ownTurn: Int)
    /// A caller of ``waitUntilDelivered()``: resumed when its turn comes, every change before
    /// it delivered.
    case mark(CheckedContinuation<Void, Never>)

    /// The turn whose handlers queued it, or 0.
    @inlinable var ownTurn: Int {
      switch self {
      case .change(_, _, let ownTurn), .initial(_, _, let ownTurn): ownTurn
      case .mark: 0
      }
    }
  }

  /// A setter that found the queue full and waits: until fewer than ``backlogLimit`` changes
  /// are ahead of its own, until the turn is handed to it, or until ``longestWait`` has
  /// passed.
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
    /// It waits until its delivery is made, until the turn is handed to it, or until
    /// ``longestWait`` has passed.
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
    /// the lock: it is read only while a turn is under way, and every turn sets it.
    @usableFromInline var deliverer: UInt = 0
    /// Whether the turn was handed on to the dispatch queue, which has not taken it up yet: a
    /// setter about to wait takes it up instead.
    @usableFromInline var isHandedOn = false
    /// Counts the turns taken: a change queued with the current one's number came from its
    /// own handlers.
    @usableFromInline var turn = 0
    /// What the current turn still delivers: deliveries that were queued when it was taken,
    /// then deliveries its own handlers queued.
    @usableFromInline var queuedWork = 0
    @usableFromInline var ownWork = 0
    /// Setters waiting, oldest first: no more than there are threads.
    @usableFromInline var waiters: [Waiter] = []
    /// The setter the turn was handed to, until it takes it up.
    @usableFromInline var handedTo: ObjectIdentifier?
    /// How many waits ended at ``longestWait``, with their change still queued.
    @usableFromInline var waitsOutOfTime = 0
    /// Subscriptions ended while another thread delivered: the deliverer releases their
    /// handlers as soon as the handler it is calling returns.
    @usableFromInline var endedDuringDelivery: [Subscription<Value>] = []

    /// The number of deliveries waiting.
    @inlinable var pendingCount: Int { pending.count - pendingStart }

    /// Gives the turn to `thread` (0 for one that takes it up later): its work is what is
    /// queued now, up to the backlog limit, then up to as many deliveries its own handlers
    /// queue.
    @inlinable mutating func takeTurn(by thread: UInt) {
      deliverer = thread
      isHandedOn = false
      turn &+= 1
      queuedWork = min(pendingCount, backlogLimit)
      ownWork = backlogLimit
    }

    /// Queues a change set by `thread` while a delivery is under way, and says what that
    /// thread does next: made by a handler of that delivery, on the deliverer's thread, it is
    /// the deliverer's own work; made by a setter outside any delivery and off the main actor
    /// that finds the queue full, that setter waits.
    @inlinable mutating func enqueue(
      _ change: Change<Value>, before: UInt64, by thread: UInt, mayWait: () -> Bool
    ) -> Turn {
      defer { queuedTotal += 1 }
      let ownTurn = deliverer == thread ? turn : 0
      pending.append(.change(change, before: before, ownTurn: ownTurn))
      guard ownTurn == 0, pendingCount > backlogLimit, mayWait() else { return .queued }
      if isHandedOn {
        // The queue the turn was handed to has not started it: this setter delivers instead,
        // rather than wait for it.
        takeTurn(by: thread)
        return .taken
      }
      let waiter = Waiter(thread: thread, position: queuedTotal)
      waiters.append(waiter)
      return .waiting(waiter)
    }

    /// Queues an initial value for `subscription`, asked for while a delivery is under way.
    @inlinable mutating func enqueueInitial(
      _ initial: Change<Value>, for subscription: Subscription<Value>, by thread: UInt
    ) {
      queuedTotal += 1
      pending.append(.initial(initial, subscription, ownTurn: deliverer == thread ? turn : 0))
    }

    /// Takes the next delivery of the current turn's work out of the queue, or `nil` once the
    /// work is done, and wakes the setters that now have fewer than ``backlogLimit`` changes
    /// ahead of their own.
    @inlinable mutating func nextOfTurn(wakingUp wakeUps: inout [DispatchSemaphore]) -> Pending? {
      if queuedWork > 0 {
        queuedWork -= 1
      } else if ownWork > 0, pendingCount > 0, pending[pendingStart]!.ownTurn == turn {
        ownWork -= 1
      } else {
        return nil
      }
      let item = pending[pendingStart].take()!
      pendingStart += 1
      if pendingStart == pending.count {
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
      } else if pendingStart >= 16 && pendingStart * 2 >= pending.count {
        // A queue that never empties, under setters that keep it near the limit, would grow by
        // a slot a set: the taken slots in front go once they are half the array. Only empty
        // slots are dropped, so nothing is released here.
        pending.removeFirst(pendingStart)
        pendingStart = 0
      }
      takenTotal += 1
      while let waiter = waiters.first, waiter.position - takenTotal < backlogLimit {
        wakeUps.append(waiters.removeFirst().wakeUp)
      }
      return item
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
  /// How many subscriptions ended while another thread delivered: read by the deliverer after
  /// each handler, a plain load, so that it lets go of them at once (see
  /// ``mayReleaseAtOnce(_:_:thread:)``).
  @usableFromInline let endedDuringDeliveryCount = Atomic(0)
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
    let (subscriptions, pending) = withState { ($0.slots, $0.pending) }
    for subscription in subscriptions {
      subscription?.isActive.store(false, ordering: .releasing)
      subscription?.finish()
    }
    for case .mark(let continuation)? in pending { continuation.resume() }
  }

  /// The current value; get and set it from any thread.
  ///
  /// Setting it queues a ``Change`` for every live observer, in subscription order, and then:
  ///
  /// - If nobody is delivering, the setter takes the turn and delivers its change, and those
  ///   its handlers set meanwhile, before it returns; except to a handler isolated to an actor
  ///   this thread is not on (see ``observe(_:options:isolation:_:)``): the rest continues
  ///   there, later.
  /// - If a delivery is under way, the setter returns at once, and the change is delivered in
  ///   order by whoever has the turn, or by one it is handed on to.
  /// - If more than ``backlogLimit`` changes are queued, a setter outside any delivery and off
  ///   the main actor waits until fewer than ``backlogLimit`` are ahead of its own, delivering
  ///   itself if the turn is handed to it, but never longer than ``longestWait``: setters
  ///   faster than their observers slow down rather than fill the memory. Inside a Swift
  ///   concurrency task, such a wait holds one of the shared threads.
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
          turn = state.enqueue(change, before: before, by: thread) {
            !DeliveringThread.isCurrent && !MainActorCheck.isCurrent
          }
          handoff.wrappingAdd(1, ordering: .releasing)
          return false
        }
        // This thread takes the turn, for its own change and what its handlers set.
        state.takeTurn(by: thread)
        return true
      }
      guard mustDeliver else {
        take(turn, by: thread)
        return
      }
      DeliveringThread.inside {
        deliver(change, before: before, to: snapshot, from: 0, here: nil)
      }
    }
  }

  /// How many changes may wait in the queue before a setter waits, and how many a call
  /// delivers at most, of those queued and of those its handlers set: see ``value``.
  public static var backlogLimit: Int { 256 }

  /// The longest a setter waits behind a full queue before it queues its change and returns.
  public static var longestWait: Duration { .milliseconds(100) }

  /// Does what `turn` says, for a change queued while a delivery was under way: delivers,
  /// waits, or nothing.
  @usableFromInline
  func take(_ turn: Turn, by thread: UInt) {
    switch turn {
    case .taken:
      DeliveringThread.inside { deliverQueued(here: nil) }
    case .queued:
      break
    case .waiting(let waiter):
      let longestWait = Self.longestWait.components
      let nanoseconds =
        Int(longestWait.seconds) * 1_000_000_000 + Int(longestWait.attoseconds / 1_000_000_000)
      _ = waiter.wakeUp.wait(timeout: .now() + .nanoseconds(nanoseconds))
      // Woken because there is room or because the turn was handed to it; or out of time:
      // then it leaves the line, and its change stays queued for whoever delivers next.
      let isHandedTheTurn = withState { state in
        if state.handedTo == ObjectIdentifier(waiter.wakeUp) {
          state.handedTo = nil
          return true
        }
        if let index = state.waiters.firstIndex(where: { $0.wakeUp === waiter.wakeUp }) {
          state.waiters.remove(at: index)
          state.waitsOutOfTime += 1
        }
        return false
      }
      if isHandedTheTurn { DeliveringThread.inside { deliverQueued(here: nil) } }
    }
  }

  /// Suspends until every change set before this call has been delivered to every observer it
  /// was set for, those isolated to an actor included.
  ///
  /// For a test, or a command-line program, that sets from several threads and then checks
  /// what its observers saw: a set may return before its observers have run.
  ///
  /// ```swift
  /// await withTaskGroup { group in
  ///   for n in 1...4 { group.addTask { score.value = n } }
  /// }
  /// await score.waitUntilDelivered()
  /// #expect(label.text == "\(score.value)")
  /// ```
  ///
  /// Never call it from a task that a handler of this observable waits for: the delivery it
  /// waits for could not finish.
  public func waitUntilDelivered() async {
    await withCheckedContinuation { continuation in
      let isDone = withState { state -> Bool in
        // Nothing under way: nobody else raises the count now (see the setter's fast path).
        if deliveries.load(ordering: .acquiring) == 0 { return true }
        if deliveries.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 {
          // The last delivery ended just now: this call took the turn, and gives it back.
          deliveries.store(0, ordering: .releasing)
          return true
        }
        state.queuedTotal += 1
        state.pending.append(.mark(continuation))
        return false
      }
      if isDone { continuation.resume() }
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
      return (subscription, mayReleaseAtOnce(subscription, &state, thread: thread))
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

  /// The number of slots the queue keeps, taken ones not yet dropped included.
  ///
  /// For tests only.
  package var _queueSlotCount: Int { withState { $0.pending.count } }

  /// How many setters' waits ended at ``longestWait``, their change still queued: each may
  /// leave the queue one change over the backlog limit.
  ///
  /// For tests only.
  package var _waitsOutOfTime: Int { withState { $0.waitsOutOfTime } }

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
          releasesAtOnce = mayReleaseAtOnce(replaced, &state, thread: thread)
        }
      }
      state.append(subscription)
      guard options.contains(.initial) else { return (subscription, replaced, nil) }
      let initial = Change(kind: .initial, oldValue: nil, newValue: state.value)
      guard deliveries.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else {
        state.enqueueInitial(initial, for: subscription, by: thread)
        return (subscription, replaced, nil)
      }
      state.takeTurn(by: thread)
      return (subscription, replaced, initial)
    }
    finish(replaced, releasesAtOnce: releasesAtOnce)
    if let initial {
      DeliveringThread.inside {
        self.deliver(
          initial, before: subscription.id + 1, to: [subscription], from: 0, here: isolation)
      }
    }
    return subscription
  }

  /// Whether `thread` may let go at once of the handlers of `subscription`, just ended under
  /// the lock: no thread can be calling them, because no delivery is under way, or the turn
  /// waits for an actor or a task, or `thread` itself has the turn and is not inside that
  /// subscription's handler. Otherwise it is put aside for the deliverer, which lets go of it
  /// as soon as the handler it is calling returns.
  ///
  /// It puts the subscription aside first, and only then reads whether a turn is under way;
  /// the deliverer ends a turn without the lock, and only then reads
  /// ``endedDuringDeliveryCount``. Each writes before it reads, sequentially consistent, so one
  /// of them sees the other: either this call sees the turn ended, and takes the subscription
  /// back to let go of it itself, or the deliverer sees it put aside.
  @inlinable
  func mayReleaseAtOnce(
    _ subscription: Subscription<Value>, _ state: inout State, thread: UInt
  ) -> Bool {
    if state.deliverer == 0 || (state.deliverer == thread && callingID != subscription.id) {
      return true
    }
    state.endedDuringDelivery.append(subscription)
    endedDuringDeliveryCount.wrappingAdd(1, ordering: .sequentiallyConsistent)
    guard deliveries.load(ordering: .sequentiallyConsistent) == 0 else { return false }
    state.endedDuringDelivery.removeLast()
    endedDuringDeliveryCount.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    return true
  }

  /// Takes the subscriptions put aside out of the state, for the deliverer to let go of with
  /// the lock let go.
  @inlinable
  func takeEndedDuringDelivery(_ state: inout State) -> [Subscription<Value>] {
    guard !state.endedDuringDelivery.isEmpty else { return [] }
    endedDuringDeliveryCount.store(0, ordering: .relaxed)
    defer { state.endedDuringDelivery = [] }
    return state.endedDuringDelivery
  }

  /// Lets go of the handlers of the subscriptions ended while this thread delivered; called
  /// by the deliverer between two handlers, so none of them is running.
  @usableFromInline
  func releaseEndedDuringDelivery() {
    let ended = withState { takeEndedDuringDelivery(&$0) }
    for subscription in ended { subscription.releaseHandlers() }
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
      guard state.remove(subscription) else { return (false, false) }
      return (true, mayReleaseAtOnce(subscription, &state, thread: thread))
    }
    if removed { finish(subscription, releasesAtOnce: releasesAtOnce) }
  }

  @usableFromInline
  func endSubscription(id: UInt64) {
    // The subscription leaves the list under the lock and is released here, outside it, with
    // its handler, unless another thread is running a handler: then as soon as it returns.
    let thread = CurrentThread.id
    let (removed, releasesAtOnce) = withSlotsChanged { state -> (Subscription<Value>?, Bool) in
      guard let subscription = state.subscription(withID: id), state.remove(subscription) else {
        return (nil, false)
      }
      return (subscription, mayReleaseAtOnce(subscription, &state, thread: thread))
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
  /// it on, to the setter that has waited longest or else to the dispatch queue, unless the turn
  /// moves to an actor on the way.
  @inlinable
  func deliverQueued(here: (any Actor)?) {
    // Each snapshot is dropped only after this thread's next release: the lock's, when the
    // next one is taken, or the end of the turn (see withSlotsChanged(_:)).
    var snapshot: [Subscription<Value>?] = []
    defer { withExtendedLifetime(snapshot) {} }
    // Nothing queued: the turn ends without the lock. Sequentially consistent, as is the read
    // after it: see mayReleaseAtOnce(_:_:thread:).
    while !deliveries.compareExchange(expected: 1, desired: 0, ordering: .sequentiallyConsistent)
      .exchanged
    {
      var handedTo: Waiter?
      var ended: [Subscription<Value>] = []
      var wakeUps: [DispatchSemaphore] = []
      let next = withState { state -> (Pending, [Subscription<Value>?])? in
        ended = takeEndedDuringDelivery(&state)
        // Someone raised the count under the lock and queued in the same breath, so there is
        // an item; the one this thread finished is counted off, and this one is now under way.
        if let item = state.nextOfTurn(wakingUp: &wakeUps) {
          deliveries.wrappingSubtract(1, ordering: .relaxed)
          return (item, state.slots)
        }
        // What is left is not this turn's work: it goes on to the setter that has waited
        // longest, or else to the dispatch queue.
        if state.waiters.isEmpty {
          state.deliverer = 0
          state.isHandedOn = true
        } else {
          let waiter = state.waiters.removeFirst()
          state.takeTurn(by: waiter.thread)
          state.handedTo = ObjectIdentifier(waiter.wakeUp)
          handedTo = waiter
        }
        return nil
      }
      for subscription in ended { subscription.releaseHandlers() }
      for wakeUp in wakeUps { wakeUp.signal() }
      guard let (item, slots) = next else {
        if let handedTo {
          handedTo.wakeUp.signal()
        } else {
          HandedOnTurns.queue.async { self.takeUpTurn() }
        }
        return
      }
      snapshot = slots
      let (change, before): (Change<Value>, UInt64)
      switch item {
      case .initial(let initial, let subscription, _):
        (change, before, snapshot) = (initial, subscription.id + 1, [subscription])
      case .change(let queued, let queuedBefore, _):
        (change, before) = (queued, queuedBefore)
      case .mark(let continuation):
        continuation.resume()
        continue
      }
      if let slot = Self.deliver(
        change, before: before, to: snapshot, from: 0, here: here, endingIn: self)
      {
        handOver(change, before: before, to: snapshot, from: slot)
        return
      }
    }
    // The turn has ended: what a canceller put aside before it saw that is let go here; unless
    // a new turn has begun meanwhile, whose holder may be inside one of those handlers, and
    // lets go of them itself.
    if endedDuringDeliveryCount.load(ordering: .sequentiallyConsistent) != 0 {
      let ended = withState { state in
        deliveries.load(ordering: .acquiring) == 0 || state.deliverer == 0
          ? takeEndedDuringDelivery(&state) : []
      }
      for subscription in ended { subscription.releaseHandlers() }
    }
  }

  /// Takes up a turn handed on to the dispatch queue, unless a setter took it up first: its
  /// work is what is queued now, and what its handlers set.
  @usableFromInline
  func takeUpTurn() {
    let thread = CurrentThread.id
    let takesTurn = withState { state in
      guard state.isHandedOn else { return false }
      state.takeTurn(by: thread)
      return true
    }
    if takesTurn { DeliveringThread.inside { deliverQueued(here: nil) } }
  }

  /// Moves the turn to the actor of the handler in `slot`, which goes on from there.
  @usableFromInline
  func handOver(
    _ change: Change<Value>, before: UInt64, to snapshot: [Subscription<Value>?], from slot: Int
  ) {
    let isolation = snapshot[slot]!.isolation!
    // Until that actor takes the turn up, no thread delivers; setters that wait go on
    // waiting, never longer than longestWait.
    var ended: [Subscription<Value>] = []
    withState { state in
      state.deliverer = 0
      ended = takeEndedDuringDelivery(&state)
    }
    for subscription in ended { subscription.releaseHandlers() }
    Task {
      await self.continueDelivery(change, before: before, to: snapshot, from: slot, on: isolation)
    }
  }

  /// Goes on with a delivery on the actor its next handler is isolated to: the actor takes
  /// the turn up, with the same work as any other taker.
  @usableFromInline
  func continueDelivery(
    _ change: Change<Value>, before: UInt64, to snapshot: [Subscription<Value>?], from start: Int,
    on actor: isolated any Actor
  ) {
    let thread = CurrentThread.id
    withState { state in state.takeTurn(by: thread) }
    DeliveringThread.inside {
      deliver(change, before: before, to: snapshot, from: start, here: actor)
    }
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
        case .delivered:
          // Ended by another thread while a handler ran: let go of as soon as it returns.
          if observable.endedDuringDeliveryCount.load(ordering: .relaxed) != 0 {
            observable.releaseEndedDuringDelivery()
          }
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
