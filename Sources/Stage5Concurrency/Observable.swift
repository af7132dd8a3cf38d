import Dispatch
import Foundation

/// A value that any thread may read, set and observe: the concurrency age.
///
/// It answers the rows of the comparison that every earlier stage fails, and keeps what stage 4
/// got right:
///
/// - **Thread-safe.** Its state sits behind a `Mutex`, and the compiler checks that it is
///   `Sendable`. No lock is held while a handler runs, or while anything of yours (a value, a
///   handler and what it captured, an owner) is released, so a handler, or a `deinit`, may
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
/// - **Immediate removal.** Once ``ObservationToken/cancel()`` or ``removeObserver(_:)``
///   returns where the handler runs, the handler is not called again. It is released before
///   the call returns, unless another thread is running a handler of this observable at that
///   moment: then as soon as that handler returns.
/// - **No reason to capture the owner.** ``observe(_:options:isolation:_:)`` holds its owner
///   weakly and hands it to the handler; the subscription ends with the owner.
/// - **Handlers run where they were written.** A handler written in a `@MainActor` type runs
///   on the main actor. One that may run on any thread is passed to
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
public final class Observable<Value: Sendable>: Sendable {
  /// One change on its way to the subscriptions made before it was set.
  struct Delivery: Sendable {
    let change: Change<Value>
    /// The list as it was when the change was set; `nil` where a subscription had been removed.
    let subscriptions: [Subscription<Value>?]
    /// The turn in which a handler set it, for a change set inside a delivery of this
    /// observable; `nil` for one set outside.
    let setInTurn: Int?
    /// The next subscription to call.
    var next = 0
  }

  struct State {
    var value: Value
    /// In subscription order; `nil` where one was removed, until the list is compacted.
    var subscriptions: [Subscription<Value>?] = []
    /// Where each stored subscription sits in `subscriptions`: removing one needs no search.
    var slots: [ObjectIdentifier: Int] = [:]
    /// Each owner's subscription: finding it needs no search either.
    var subscriptionByOwner: [ObjectIdentifier: Subscription<Value>] = [:]
    /// Deliveries not begun yet, oldest first.
    var queue = Queue<Delivery>()
    /// How many deliveries were ever queued, begun and done.
    var queuedCount = 0
    var takenCount = 0
    var deliveredCount = 0
    /// Whether somebody has the turn: a thread or an actor delivers, or a task is about to.
    var isDelivering = false
    /// The thread that has the turn and is delivering now; `nil` while the turn waits for an
    /// actor or a task to take it up.
    var deliverer: ObjectIdentifier?
    /// Whether the turn was handed on to the dispatch queue, which has not taken it up yet: a
    /// setter about to wait takes it up instead.
    var isHandedOn = false
    /// Counts the turns taken: a change set in the current one came from its own handlers.
    var turn = 0
    /// What the current turn still delivers: changes that were queued when it was taken, then
    /// changes its own handlers set.
    var queuedWork = 0
    var ownWork = 0
    /// Setters waiting, oldest first: no more than there are threads.
    var waiters: [Waiter] = []
    /// How many waits ended at ``longestWait``, with their change still queued.
    var waitsOutOfTime = 0
    /// Callers of ``waitUntilDelivered()``, in the order they called.
    var deliveryWaits = Queue<DeliveryWait>()

    /// Takes the next delivery out of the queue, and wakes the setters that now have fewer
    /// than ``backlogLimit`` changes ahead of their own.
    mutating func takeNext(wakingUp wakeUps: inout [DispatchSemaphore]) -> Delivery? {
      takenCount += 1
      while let waiter = waiters.first, waiter.position - takenCount < backlogLimit {
        wakeUps.append(waiters.removeFirst().wakeUp)
      }
      return queue.popFirst()
    }

    /// Adds `subscription` at the end of the list.
    mutating func append(_ subscription: Subscription<Value>) {
      slots[ObjectIdentifier(subscription)] = subscriptions.count
      subscriptions.append(subscription)
      if let id = subscription.ownerID { subscriptionByOwner[id] = subscription }
    }

    /// Takes `subscription` out of the list, if it is still there. The caller holds its own
    /// reference, so nothing is released here.
    ///
    /// - Complexity: O(1) amortized.
    mutating func remove(_ subscription: Subscription<Value>) -> Bool {
      guard let slot = slots.removeValue(forKey: ObjectIdentifier(subscription)) else {
        return false
      }
      subscriptions[slot] = nil
      if let id = subscription.ownerID, subscriptionByOwner[id] === subscription {
        subscriptionByOwner[id] = nil
      }
      // Compacting once half the slots are empty keeps removal O(1) amortized.
      if subscriptions.count >= 16 && slots.count < subscriptions.count / 2 {
        subscriptions.removeAll { $0 == nil }
        for (slot, subscription) in subscriptions.enumerated() {
          slots[ObjectIdentifier(subscription!)] = slot
        }
      }
      return true
    }

    /// Gives the turn to `thread` (`nil` for one that will be taken up later): its work is
    /// what is queued now, up to the backlog limit, then up to as many changes its own
    /// handlers set.
    mutating func takeTurn(by thread: ObjectIdentifier?) {
      isDelivering = true
      isHandedOn = false
      deliverer = thread
      turn += 1
      queuedWork = min(queue.count, backlogLimit)
      ownWork = backlogLimit
    }

    /// Queues `change` for `subscriptions`, made by `thread`, and says what that thread does
    /// next.
    ///
    /// - Parameters:
    ///   - change: The change to deliver.
    ///   - subscriptions: Whom it goes to: the list as it is now.
    ///   - thread: The thread that made it: if it is the deliverer's, a handler did.
    ///   - mayWait: Whether the caller is a setter outside any delivery and off the main actor,
    ///     which waits behind a full queue; asked only when the queue is full.
    /// - Returns: Whether the caller delivers, waits, or goes.
    mutating func enqueue(
      _ change: Change<Value>, for subscriptions: [Subscription<Value>?],
      by thread: ObjectIdentifier, mayWait: () -> Bool
    ) -> Turn {
      let setByHandler = isDelivering && deliverer == thread
      queue.append(
        Delivery(change: change, subscriptions: subscriptions, setInTurn: setByHandler ? turn : nil)
      )
      queuedCount += 1
      if !isDelivering {
        takeTurn(by: thread)
        return .taken
      }
      guard queue.count > backlogLimit, mayWait() else { return .queued }
      if isHandedOn {
        // The queue the turn was handed to has not started it: this setter delivers instead,
        // rather than wait for it.
        takeTurn(by: thread)
        return .taken
      }
      let waiter = Waiter(thread: thread, position: queuedCount - 1)
      waiters.append(waiter)
      return .waiting(waiter)
    }
  }

  /// Everything that changes, behind the lock.
  let state: Locked<State>

  /// How many changes may wait in the queue before a setter waits, and how many a call
  /// delivers at most, of those queued and of those its handlers set: see ``value``.
  public static var backlogLimit: Int { 256 }

  /// The longest a setter waits behind a full queue before it queues its change and returns.
  public static var longestWait: Duration { .milliseconds(100) }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value.
  public init(_ value: Value) {
    state = Locked(State(value: value))
  }

  deinit {
    let (subscriptions, deliveryWaits) = state.withLock { state in
      var waits: [DeliveryWait] = []
      while let wait = state.deliveryWaits.popFirst() { waits.append(wait) }
      return (state.subscriptions, waits)
    }
    for subscription in subscriptions {
      subscription?.end()
    }
    for wait in deliveryWaits { wait.continuation.resume() }
  }

  /// The current value; get and set it from any thread.
  ///
  /// Setting it queues a ``Change`` for every live observer, in subscription order, and then:
  ///
  /// - If nobody is delivering, the setter takes the turn and delivers its change, and those
  ///   its handlers set meanwhile, before it returns; except to a handler isolated to an actor
  ///   this thread is not on: the rest continues there, later.
  /// - If a delivery is under way, the setter returns at once, and the change is delivered in
  ///   order by whoever has the turn, or by one it is handed on to.
  /// - If more than ``backlogLimit`` changes are queued, a setter outside any delivery and off
  ///   the main actor waits until fewer than ``backlogLimit`` are ahead of its own, delivering
  ///   itself if the turn is handed to it, but never longer than ``longestWait``: setters
  ///   faster than their observers slow down rather than fill the memory. Inside a Swift
  ///   concurrency task, such a wait holds one of the shared threads.
  public var value: Value {
    get { state.withLock { $0.value } }
    set {
      let thread = Self.currentThread
      let turn = state.withLock { state in
        // The old value moves into the change: it is released with the change, not here.
        let change = Change(kind: .update, oldValue: state.value, newValue: newValue)
        state.value = newValue
        return state.enqueue(change, for: state.subscriptions, by: thread) {
          !DeliveringThread.isCurrent && !MainQueue.isCurrent
        }
      }
      take(turn, by: thread, here: nil)
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
      let isDone = state.withLock { state in
        let position = state.queuedCount
        guard state.deliveredCount < position else { return true }
        state.deliveryWaits.append(DeliveryWait(position: position, continuation: continuation))
        return false
      }
      if isDone { continuation.resume() }
    }
  }

  /// The number of live subscriptions: not ended, and whose owner, if any, is alive.
  public var observerCount: Int {
    // Counted with the lock let go: checking an owner holds it for a moment.
    state.withLock { $0.subscriptions }.count { $0?.isLive == true }
  }

  /// The number of subscriptions stored, ended ones that are not cleaned away yet included:
  /// what a grader counts to see whether dead entries are kept. ``observerCount`` counts the
  /// live ones only.
  ///
  /// A subscription ended by its token or by ``removeObserver(_:)`` leaves at once. One whose
  /// owner is gone stays stored until a delivery reaches it and removes it, so once the
  /// deliveries of the sets made so far are done (``waitUntilDelivered()``), this equals
  /// ``observerCount``.
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
  public var storedSubscriptionCount: Int { state.withLock { $0.slots.count } }

  // MARK: - Observing

  /// Observes the value until the returned token is cancelled or deinitialized, with a handler
  /// isolated to the caller's actor.
  ///
  /// Call it from code isolated to an actor: a `@MainActor` type, say. The handler may touch
  /// that actor's state, and it is called only there. From code outside any actor, call
  /// ``observeOnAnyThread(options:_:)`` instead.
  ///
  /// - Parameters:
  ///   - options: `.initial` to receive the current value once, when subscribing.
  ///   - isolation: The caller's actor; leave it to its default. Swift 6 refuses any other; a
  ///     caller in the Swift 5 language mode can pass another actor, and the handler then runs
  ///     there, whatever it was written for, with no diagnostic.
  ///   - handler: Called with each change.
  /// - Returns: The token that keeps the subscription alive.
  public func observe(
    options: ObservableOptions = [], isolation: isolated any Actor = #isolation,
    _ handler: @escaping (Change<Value>) -> Void
  ) -> ObservationToken {
    // Isolated to `isolation`, and called only there: see deliver(_:here:).
    nonisolated(unsafe) let handler = handler
    let subscription = subscribe(owner: nil, isolation: isolation, options: options) {
      handler($0)
      return true
    }
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
  /// - A change set on that actor, when no delivery is under way, reaches the handler before
  ///   the setter returns, unless a handler before it, in subscription order, is isolated to
  ///   another actor: the rest of the delivery then moves there, and this handler gets the
  ///   change a moment later, still in order. (Only the main actor can be recognised this way;
  ///   a handler isolated to another actor always gets its changes a moment later.)
  /// - A change set elsewhere reaches it later, on its actor: every change, in order, once.
  ///
  /// With ``ObservableOptions/initial``, the current value reaches the handler before this
  /// method returns when no delivery is under way, and otherwise later, but always before any
  /// change set after this call.
  ///
  /// - Parameters:
  ///   - owner: The object whose lifetime bounds the subscription.
  ///   - options: `.initial` to receive the current value once, when subscribing.
  ///   - isolation: The caller's actor; leave it to its default. Swift 6 refuses any other; a
  ///     caller in the Swift 5 language mode can pass another actor, and the handler then runs
  ///     there, whatever it was written for, with no diagnostic.
  ///   - handler: Called with the owner and each change.
  public func observe<Owner: AnyObject & Sendable>(
    _ owner: Owner, options: ObservableOptions = [], isolation: isolated any Actor = #isolation,
    _ handler: @escaping (Owner, Change<Value>) -> Void
  ) {
    // Isolated to `isolation`, and called only there: see deliver(_:here:).
    nonisolated(unsafe) let handler = handler
    _ = subscribe(owner: owner, isolation: isolation, options: options) { [weak owner] change in
      guard let owner else { return false }
      handler(owner, change)
      return true
    }
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
  public func observeOnAnyThread(
    options: ObservableOptions = [], _ handler: @escaping @Sendable (Change<Value>) -> Void
  ) -> ObservationToken {
    token(
      for: subscribe(owner: nil, isolation: nil, options: options) {
        handler($0)
        return true
      })
  }

  /// Observes the value for as long as `owner` lives, with a handler that may run on any
  /// thread, which is handed the owner.
  ///
  /// - Parameters:
  ///   - owner: The object whose lifetime bounds the subscription.
  ///   - options: `.initial` to receive the current value once, when subscribing.
  ///   - handler: Called on the delivering thread with the owner and each change.
  public func observeOnAnyThread<Owner: AnyObject & Sendable>(
    _ owner: Owner, options: ObservableOptions = [],
    _ handler: @escaping @Sendable (Owner, Change<Value>) -> Void
  ) {
    _ = subscribe(owner: owner, isolation: nil, options: options) { [weak owner] change in
      guard let owner else { return false }
      handler(owner, change)
      return true
    }
  }

  /// Ends the subscription of `owner` and lets go of its handler; an owner with none is
  /// ignored.
  ///
  /// It works from the owner's own `deinit` too, as `NotificationCenter`'s habit has it,
  /// though there is no need: a subscription ends with its owner.
  ///
  /// - Parameter owner: The object passed to ``observe(_:options:isolation:_:)``.
  /// - Complexity: O(1) amortized.
  public func removeObserver(_ owner: AnyObject) {
    let id = ObjectIdentifier(owner)
    let removed = state.withLock { state -> Subscription<Value>? in
      // In the owner's `deinit`, its weak references already read `nil`: then its identity
      // alone finds it. Otherwise the caller holds `owner`, so loading it never releases it.
      guard let subscription = state.subscriptionByOwner[id],
        subscription.owner == nil || subscription.owner === owner, state.remove(subscription)
      else { return nil }
      return subscription
    }
    removed?.end()
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
  ///   the first *n*, dropping those after: the one observer that may not end on the latest
  ///   value.
  /// - Returns: A stream that ends when the observable is deinitialized.
  public func values(
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Value.self, bufferingPolicy: bufferingPolicy)
    let subscription = subscribe(
      owner: nil, isolation: nil, options: .initial, onEnd: { continuation.finish() },
      handler: { change in
        continuation.yield(change.newValue)
        return true
      })
    continuation.onTermination = { [weak self, weak subscription] _ in
      if let self, let subscription { self.end(subscription) }
    }
    return stream
  }

  // MARK: - Subscribing and delivering

  private func subscribe(
    owner: (AnyObject & Sendable)?, isolation: (any Actor)?, options: ObservableOptions,
    onEnd: (@Sendable () -> Void)? = nil, handler: @escaping Subscription<Value>.Handler
  ) -> Subscription<Value> {
    let subscription = Subscription(
      isolation: isolation, owner: owner, onEnd: onEnd, handler: handler)
    let thread = Self.currentThread
    let (replaced, turn) = state.withLock { state -> (Subscription<Value>?, Turn) in
      // The owner's earlier subscription leaves the lock with this thread, to be ended here.
      let replaced = subscription.ownerID.flatMap { state.subscriptionByOwner[$0] }
      if let replaced { _ = state.remove(replaced) }
      state.append(subscription)
      guard options.contains(.initial) else { return (replaced, .queued) }
      let initial = Change(kind: .initial, oldValue: nil, newValue: state.value)
      return (replaced, state.enqueue(initial, for: [subscription], by: thread) { false })
    }
    replaced?.end()
    take(turn, by: thread, here: isolation)
    return subscription
  }

  private func token(for subscription: Subscription<Value>) -> ObservationToken {
    ObservationToken { [weak self] in
      if let self {
        self.end(subscription)
      } else {
        subscription.end()
      }
    }
  }

  /// Takes `subscription` out of the list, then ends it with the lock let go.
  private func end(_ subscription: Subscription<Value>) {
    _ = state.withLock { $0.remove(subscription) }
    subscription.end()
  }

  /// Does what `turn` says: delivers, waits, or nothing.
  private func take(_ turn: Turn, by thread: ObjectIdentifier, here: (any Actor)?) {
    switch turn {
    case .taken:
      deliver(nil, here: here)
    case .queued:
      break
    case .waiting(let waiter):
      let longestWait = Self.longestWait.components
      let nanoseconds =
        Int(longestWait.seconds) * 1_000_000_000
        + Int(longestWait.attoseconds / 1_000_000_000)
      _ = waiter.wakeUp.wait(timeout: .now() + .nanoseconds(nanoseconds))
      // Woken because there is room or because the turn was handed to it; or out of time:
      // then it leaves the line, and its change stays queued for whoever delivers next.
      let isHandedTheTurn = state.withLock { state in
        guard state.deliverer != thread else { return true }
        if let index = state.waiters.firstIndex(where: { $0.wakeUp === waiter.wakeUp }) {
          state.waiters.remove(at: index)
          state.waitsOutOfTime += 1
        }
        return false
      }
      if isHandedTheTurn { deliver(nil, here: here) }
    }
  }

  /// Delivers `delivery`, then the rest of this turn's work, one delivery at a time; called
  /// only by whoever has the turn, so handlers never run two at a time.
  ///
  /// When a handler isolated to an actor comes up and this code is not running on that actor,
  /// the turn moves there: a task continues the delivery on that actor, and this thread
  /// returns.
  ///
  /// - Parameters:
  ///   - delivery: A delivery to continue, or `nil` to take the next from the queue.
  ///   - here: The actor this code runs on, if known.
  private func deliver(_ delivery: Delivery?, here: (any Actor)?) {
    DeliveringThread.inside {
      var current = delivery ?? nextDelivery(after: nil)
      while var delivery = current {
        while delivery.next < delivery.subscriptions.count {
          guard let subscription = delivery.subscriptions[delivery.next] else {
            delivery.next += 1
            continue
          }
          if let isolation = subscription.isolation, !Self.isRunning(on: isolation, here: here) {
            // The turn waits for that actor: no thread delivers until it takes the turn up.
            state.withLock { $0.deliverer = nil }
            Task { [delivery] in await self.continueDelivery(delivery, on: isolation) }
            return
          }
          delivery.next += 1
          if !subscription.call(delivery.change) { end(subscription) }
        }
        current = nextDelivery(after: delivery)
      }
    }
  }

  /// Continues a delivery on `actor`, where its next handler must run: the actor takes the
  /// turn up, with the same work as any other taker.
  private func continueDelivery(_ delivery: Delivery, on actor: isolated any Actor) {
    let thread = Self.currentThread
    state.withLock { $0.takeTurn(by: thread) }
    deliver(delivery, here: actor)
  }

  /// Takes up a turn handed on to the dispatch queue, unless a setter took it up first.
  private func takeUpTurn() {
    let thread = Self.currentThread
    let takesTurn = state.withLock { state in
      guard state.isHandedOn else { return false }
      state.takeTurn(by: thread)
      return true
    }
    if takesTurn { deliver(nil, here: nil) }
  }

  /// Counts `finished` as delivered, waking whoever waited for it, and takes the next delivery
  /// of this turn's work out of the queue. Once the work is done, ends the turn if nothing is
  /// queued; if something is, hands the turn on: to the setter that has waited longest, or
  /// else to the dispatch queue.
  private func nextDelivery(after finished: Delivery?) -> Delivery? {
    var wakeUps: [DispatchSemaphore] = []
    var deliveryWaits: [DeliveryWait] = []
    var startsTask = false
    let next = state.withLock { state -> Delivery? in
      if finished != nil {
        state.deliveredCount += 1
        while let wait = state.deliveryWaits.first, wait.position <= state.deliveredCount {
          deliveryWaits.append(state.deliveryWaits.popFirst()!)
        }
      }
      if state.queuedWork > 0 {
        state.queuedWork -= 1
        return state.takeNext(wakingUp: &wakeUps)
      }
      if state.ownWork > 0, state.queue.count > 0, state.queue.first?.setInTurn == state.turn {
        state.ownWork -= 1
        return state.takeNext(wakingUp: &wakeUps)
      }
      if state.queue.count == 0 {
        state.isDelivering = false
        state.deliverer = nil
      } else if !state.waiters.isEmpty {
        let waiter = state.waiters.removeFirst()
        state.takeTurn(by: waiter.thread)
        wakeUps.append(waiter.wakeUp)
      } else {
        state.deliverer = nil
        state.isHandedOn = true
        startsTask = true
      }
      return nil
    }
    for wakeUp in wakeUps { wakeUp.signal() }
    for wait in deliveryWaits { wait.continuation.resume() }
    if startsTask { HandedOnTurns.queue.async { self.takeUpTurn() } }
    return next
  }

  /// The thread running this code: a set from the deliverer's thread comes from a handler.
  private static var currentThread: ObjectIdentifier { ObjectIdentifier(Thread.current) }

  /// Whether code running here runs on `actor`: `actor` is `here`, or it is the main actor and
  /// this is the main actor's thread.
  private static func isRunning(on actor: any Actor, here: (any Actor)?) -> Bool {
    if let here, here === actor { return true }
    return actor === MainActor.shared && MainQueue.isCurrent
  }
}

// What a setter does once its change is queued, and who waits: none of them holds a value, so
// they live outside the generic class, where using them costs no run-time look-up of a
// generic type (measured: about a fifth of a set, in a package product).

/// What a caller that queued a delivery does next.
enum Turn: Sendable {
  /// It has the turn: it delivers.
  case taken
  /// Somebody else delivers it.
  case queued
  /// It waits until its delivery is made, until the turn is handed to it, or until
  /// ``Observable/longestWait`` has passed.
  case waiting(Waiter)
}

/// A setter that found the queue full and waits: until fewer than ``Observable/backlogLimit``
/// changes are ahead of its own, until the turn is handed to it, or until
/// ``Observable/longestWait`` has passed.
struct Waiter: Sendable {
  let thread: ObjectIdentifier
  /// Where its change is in the order of all deliveries ever queued.
  let position: Int
  let wakeUp = DispatchSemaphore(value: 0)
}

/// A caller of ``Observable/waitUntilDelivered()``, resumed once the deliveries before
/// `position` are done.
struct DeliveryWait: Sendable {
  let position: Int
  let continuation: CheckedContinuation<Void, Never>
}

/// Tells, without hopping, whether code runs on the main actor: what `MainActor.assumeIsolated`
/// checks, answered instead of enforced.
enum MainQueue {
  /// A mark on the main dispatch queue, which runs the main actor's jobs.
  private static let mark = Mark()

  /// Whether this is the main thread, or work of the main queue. Both are the main actor's:
  /// on Linux a test runner drains the main queue from another thread.
  static var isCurrent: Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mark.key) != nil
  }

  /// Holds the key. Unchecked `Sendable`: it is made once and never changed.
  private final class Mark: @unchecked Sendable {
    let key = DispatchSpecificKey<Void>()

    init() { DispatchQueue.main.setSpecific(key: key, value: ()) }
  }
}

/// Where a turn handed on is taken up: a dispatch queue, whose threads are not the few that
/// Swift's tasks share, so that setters waiting on those (up to ``Observable/longestWait``)
/// never keep a handed-on turn from starting.
enum HandedOnTurns {
  /// Concurrent: one observable's turn never waits for another's.
  static let queue = DispatchQueue(
    label: "Stage5Concurrency.handed-on-turns", attributes: .concurrent)
}

/// Tells whether this thread is delivering a change, of any observable: such a thread never
/// waits behind a full queue, since the delivery it is in might be what another waits for.
enum DeliveringThread {
  /// A thread-local count of the deliveries this thread is inside: `nil` for none.
  private static let depth: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Whether this thread is inside a delivery.
  static var isCurrent: Bool { pthread_getspecific(depth) != nil }

  /// Runs `body` counted as a delivery of this thread.
  static func inside<Result>(_ body: () -> Result) -> Result {
    let outer = pthread_getspecific(depth)
    pthread_setspecific(depth, UnsafeRawPointer(bitPattern: Int(bitPattern: outer) + 1))
    defer { pthread_setspecific(depth, outer) }
    return body()
  }
}
