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
///   read, set, subscribe or cancel.
/// - **One handler at a time, in order.** Handlers of one observable never run two at a time:
///   one delivery runs at a time, and a value set meanwhile, from a handler or from another
///   thread, is queued and delivered after it. Every observer sees every value, in the order
///   set, once, and ends on the latest. The cost: a setter may return before its observers
///   have run.
/// - **No call held up by other threads.** A set, a subscription with `.initial` or a read of
///   ``values`` delivers at most its own change, and those its own handlers set meanwhile
///   (with any queued before them). What other threads set meanwhile is handed on, to a setter
///   that waits or to a task, and delivered next, in order, once each. Cancelling delivers
///   nothing.
/// - **Bounded.** When setters outpace their observers, a setter waits once ``backlogLimit``
///   changes are queued while a thread delivers (see ``value``); a stream from ``values`` keeps
///   what its buffering policy says.
/// - **Immediate removal.** Once ``ObservationToken/cancel()`` or ``removeObserver(_:)``
///   returns where the handler runs, the handler is not called again. It is released before
///   the call returns, unless another thread is delivering a change at that moment: then once
///   that delivery is done with it.
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
    /// The next subscription to call.
    var next = 0
    /// The setter that waits until this change is delivered, if one does.
    var waiter: Waiter?
  }

  /// A setter that found the queue full and waits: until its change is delivered, or until
  /// the turn is handed to it, to deliver up to its change itself.
  struct Waiter: Sendable {
    let thread: ObjectIdentifier
    /// Where its change is in the order of all deliveries ever queued.
    let position: Int
    let wakeUp = DispatchSemaphore(value: 0)
  }

  struct State {
    var value: Value
    /// In subscription order; `nil` where one was removed, until the list is compacted.
    var subscriptions: [Subscription<Value>?] = []
    /// Where each stored subscription sits in `subscriptions`: removing one needs no search.
    var slots: [ObjectIdentifier: Int] = [:]
    /// Each owner's subscription: finding it needs no search either.
    var subscriptionByOwner: [ObjectIdentifier: Subscription<Value>] = [:]
    /// Deliveries waiting for the one under way, oldest first.
    var queue = Queue<Delivery>()
    /// How many deliveries were ever queued, and taken out of the queue.
    var queuedCount = 0
    var takenCount = 0
    /// Whether a delivery is under way: somebody has the turn.
    var isDelivering = false
    /// The thread that has the turn and is delivering now; `nil` while the turn waits for an
    /// actor or a task to take it up.
    var deliverer: ObjectIdentifier?
    /// How many deliveries at the front of the queue are the deliverer's own work: it delivers
    /// them before it returns, then hands the turn on.
    var turnWork = 0
    /// Whether the deliverer is an actor, on which handlers isolated to it run.
    var delivererIsAnActor = false
    /// Whether the turn was handed on to a task that has not taken it up yet.
    var isHandedOn = false
    /// Setters waiting for their change, oldest first.
    var waiters = Queue<Waiter>()

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

    /// Makes `thread` the deliverer, with `work` deliveries of the queue's to make.
    mutating func giveTurn(to thread: ObjectIdentifier?, work: Int, onAnActor: Bool = false) {
      deliverer = thread
      delivererIsAnActor = onAnActor
      turnWork = work
    }
  }

  /// Everything that changes, behind the lock.
  let state: Locked<State>

  /// How many changes may wait in the queue before a setter waits for its change to be
  /// delivered: see ``value``.
  public static var backlogLimit: Int { 256 }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value.
  public init(_ value: Value) {
    state = Locked(State(value: value))
  }

  deinit {
    for subscription in state.withLock({ $0.subscriptions }) {
      subscription?.end()
    }
  }

  /// The current value; get and set it from any thread.
  ///
  /// Setting it delivers a ``Change`` to every live observer, in subscription order:
  ///
  /// - If no delivery is under way, the setting thread takes the turn and delivers this change,
  ///   and those its handlers set meanwhile, before the setter returns; except to a handler
  ///   isolated to an actor this thread is not on: the rest continues there, later.
  /// - If a delivery is under way, the change is queued and the setter returns at once; it is
  ///   delivered in order by whoever has the turn, or by a task the turn is handed on to.
  /// - If ``backlogLimit`` changes are queued already while a thread delivers, the setter waits
  ///   until its change is delivered, delivering those before it itself if the turn comes to
  ///   it; so setters faster than their observers slow down rather than fill the memory. A
  ///   setter never waits on the main actor, nor in a handler of this observable, nor while the
  ///   delivery waits for an actor (a handler isolated to the main actor, say), which might be
  ///   waiting for that setter: the queue then grows until the actor has delivered it.
  public var value: Value {
    get { state.withLock { $0.value } }
    set {
      let thread = Self.currentThread
      let turn = state.withLock { state in
        // The old value moves into the change: it is released with the change, not here.
        let change = Change(kind: .update, oldValue: state.value, newValue: newValue)
        state.value = newValue
        let delivery = Delivery(change: change, subscriptions: state.subscriptions)
        return Self.enqueue(delivery, by: thread, mayWait: true, &state)
      }
      take(turn, by: thread, here: nil)
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
  ///   the first *n*, dropping those after.
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
      let delivery = Delivery(change: initial, subscriptions: [subscription])
      return (replaced, Self.enqueue(delivery, by: thread, mayWait: false, &state))
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

  /// What a caller that queued a delivery does next.
  private enum Turn: Sendable {
    /// It has the turn: it delivers.
    case taken
    /// Somebody else delivers it.
    case queued
    /// It waits until its delivery is made, or until the turn is handed to it.
    case waiting(Waiter)
  }

  /// Queues `delivery`, made by `thread`, and says what that thread does next.
  ///
  /// - Parameters:
  ///   - delivery: The change, and whom it goes to.
  ///   - thread: The thread that queues it.
  ///   - mayWait: Whether the caller is a setter, which may wait behind a full queue.
  ///   - state: The state, locked.
  /// - Returns: Whether the caller delivers, waits, or goes.
  private static func enqueue(
    _ delivery: Delivery, by thread: ObjectIdentifier, mayWait: Bool, _ state: inout State
  ) -> Turn {
    var delivery = delivery
    defer { state.queuedCount += 1 }
    if !state.isDelivering {
      // Nobody is delivering: this thread takes the turn, for this one delivery.
      state.queue.append(delivery)
      state.isDelivering = true
      state.giveTurn(to: thread, work: state.queue.count)
      return .taken
    }
    if state.deliverer == thread {
      // Made by a handler of the delivery under way: the deliverer's own work, with what was
      // queued before it.
      state.queue.append(delivery)
      state.turnWork = state.queue.count
      return .queued
    }
    // A setter waits only for a thread that is delivering, never for an actor, which might be
    // waiting for it in turn; and only behind a queue that setters which wait have kept within
    // twice the limit: behind a longer one, filled by setters that never wait, waiting would
    // bound nothing, and would take as long as that queue.
    let threadDelivers = state.deliverer != nil && !state.delivererIsAnActor || state.isHandedOn
    let isFull = (backlogLimit..<2 * backlogLimit).contains(state.queue.count)
    guard mayWait, isFull, threadDelivers, Self.mayWait else {
      state.queue.append(delivery)
      return .queued
    }
    if state.isHandedOn {
      // The turn is free for the taking: this setter takes it, and delivers up to its change.
      state.queue.append(delivery)
      state.isHandedOn = false
      state.giveTurn(to: thread, work: state.queue.count)
      return .taken
    }
    let waiter = Waiter(thread: thread, position: state.queuedCount)
    delivery.waiter = waiter
    state.queue.append(delivery)
    state.waiters.append(waiter)
    return .waiting(waiter)
  }

  /// Does what `turn` says: delivers, waits, or nothing.
  private func take(_ turn: Turn, by thread: ObjectIdentifier, here: (any Actor)?) {
    switch turn {
    case .taken:
      deliver(nil, here: here)
    case .queued:
      break
    case .waiting(let waiter):
      waiter.wakeUp.wait()
      // Woken because its change was delivered, or because the turn was handed to it.
      if state.withLock({ $0.deliverer == thread }) { deliver(nil, here: here) }
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
    var current = delivery ?? nextDelivery(after: nil)
    while var delivery = current {
      while delivery.next < delivery.subscriptions.count {
        guard let subscription = delivery.subscriptions[delivery.next] else {
          delivery.next += 1
          continue
        }
        if let isolation = subscription.isolation, !Self.isRunning(on: isolation, here: here) {
          moveTurn(to: isolation)
          Task { [delivery] in await self.continueDelivery(delivery, on: isolation) }
          return
        }
        delivery.next += 1
        if !subscription.call(delivery.change) { end(subscription) }
      }
      current = nextDelivery(after: delivery)
    }
  }

  /// Lets the turn wait for `actor`: no thread delivers until it takes the turn up. Setters
  /// that wait are woken and go, since that actor might be waiting for one of them.
  private func moveTurn(to actor: any Actor) {
    let woken = state.withLock { state -> [Waiter] in
      state.deliverer = nil
      var woken: [Waiter] = []
      while let waiter = state.waiters.popFirst() { woken.append(waiter) }
      return woken
    }
    for waiter in woken { waiter.wakeUp.signal() }
  }

  /// Continues a delivery on `actor`, where its next handler must run: the turn is taken up
  /// there, and its work is what is queued now, up to ``backlogLimit`` deliveries, so that the
  /// actor's other work is never kept waiting for long.
  private func continueDelivery(_ delivery: Delivery, on actor: isolated any Actor) {
    let thread = Self.currentThread
    state.withLock { state in
      state.giveTurn(to: thread, work: min(state.queue.count, Self.backlogLimit), onAnActor: true)
    }
    deliver(delivery, here: actor)
  }

  /// Wakes the setter waiting for `finished`, if any, and takes the next delivery of this
  /// turn's work out of the queue. Once the work is done, ends the turn if nothing is queued;
  /// if something is, hands the turn on: to the setter that has waited longest, or else to a
  /// task.
  private func nextDelivery(after finished: Delivery?) -> Delivery? {
    var wakeUp: DispatchSemaphore?
    var startsTask = false
    let next = state.withLock { state -> Delivery? in
      if let waiter = finished?.waiter, state.waiters.first?.wakeUp === waiter.wakeUp {
        // Delivered by another: its setter may go.
        _ = state.waiters.popFirst()
        wakeUp = waiter.wakeUp
      }
      if state.turnWork > 0 {
        state.turnWork -= 1
        state.takenCount += 1
        return state.queue.popFirst()
      }
      state.deliverer = nil
      if state.queue.count == 0 {
        state.isDelivering = false
      } else if let waiter = state.waiters.popFirst() {
        state.giveTurn(to: waiter.thread, work: waiter.position - state.takenCount + 1)
        wakeUp = waiter.wakeUp
      } else {
        state.isHandedOn = true
        startsTask = true
      }
      return nil
    }
    wakeUp?.signal()
    if startsTask { Task { self.takeUpTurn() } }
    return next
  }

  /// Takes up a turn handed on, unless a waiting setter took it first: its work is what is
  /// queued now, and what its handlers set.
  private func takeUpTurn() {
    let thread = Self.currentThread
    let takesTurn = state.withLock { state in
      guard state.isHandedOn else { return false }
      state.isHandedOn = false
      state.giveTurn(to: thread, work: state.queue.count)
      return true
    }
    if takesTurn { deliver(nil, here: nil) }
  }

  /// The thread running this code: a set from the deliverer's thread comes from a handler.
  private static var currentThread: ObjectIdentifier { ObjectIdentifier(Thread.current) }

  /// Whether a setter may wait here for its change: not on the main actor, which the delivery
  /// may need.
  private static var mayWait: Bool { !MainQueue.isCurrent }

  /// Whether code running here runs on `actor`: `actor` is `here`, or it is the main actor and
  /// this is the main actor's thread.
  private static func isRunning(on actor: any Actor, here: (any Actor)?) -> Bool {
    if let here, here === actor { return true }
    return actor === MainActor.shared && MainQueue.isCurrent
  }
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
