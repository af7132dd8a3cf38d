import Synchronization

// Chapter 5 climbs three steps. These are their code, compiled so that the chapter's code is
// real; step 3 ends with `SharedObservable` (Chapter5SharedObservable.swift), and chapter 5c's
// step 4 is stage 5, whose handlers run on the main actor.

// MARK: - Step 1: one thread, a queue, a flag and an owner

/// Step 1: stage 4's delivery, fixed for one thread. Not thread-safe: step 2 puts it on one
/// actor, step 3 behind a lock.
///
/// A value set while a delivery is under way waits in a queue until the delivery ends, so every
/// observer sees the values in the order they were set. A cancelled subscription is skipped even
/// later in the delivery under way, because its flag is read just before each call. An owner is
/// held weakly and handed to its handler, which need not capture it.
package final class QueuedObservable<Value> {
  /// One observer's entry: its handler, and whether it still wants deliveries.
  package final class Subscription {
    let handler: (Value) -> Void
    var isActive = true

    init(handler: @escaping (Value) -> Void) {
      self.handler = handler
    }
  }

  package private(set) var value: Value
  private var subscriptions: [Subscription] = []
  private var pending: [Value] = []
  private var isDelivering = false

  package init(_ value: Value) {
    self.value = value
  }

  package func observe(_ handler: @escaping (Value) -> Void) -> Subscription {
    let subscription = Subscription(handler: handler)
    subscriptions.append(subscription)
    return subscription
  }

  @discardableResult
  package func observe<Owner: AnyObject>(
    _ owner: Owner, _ handler: @escaping (Owner, Value) -> Void
  ) -> Subscription {
    // The owner is held weakly and handed over: the handler has no reason to capture it.
    observe { [weak owner] value in
      if let owner { handler(owner, value) }
    }
  }

  package func cancel(_ subscription: Subscription) {
    subscription.isActive = false
    subscriptions.removeAll { $0 === subscription }
  }

  package func set(_ newValue: Value) {
    value = newValue
    pending.append(newValue)
    // A delivery is under way further up this thread's stack: it will reach this value next.
    guard !isDelivering else { return }
    isDelivering = true
    while !pending.isEmpty {
      let next = pending.removeFirst()
      for subscription in subscriptions where subscription.isActive {
        subscription.handler(next)
      }
    }
    isDelivering = false
  }
}

// MARK: - Step 2: the same observable, on the main actor

/// Step 2: step 1's observable on the main actor. `@MainActor` is the only change.
///
/// Every use of it must be on the main actor, and the compiler checks that; so no two threads
/// ever touch it at once, and it is `Sendable` with no lock. Its handlers, called by `set`,
/// run on the main actor too.
@MainActor package final class MainActorObservable<Value> {
  /// One observer's entry: its handler, and whether it still wants deliveries.
  package final class Subscription {
    let handler: (Value) -> Void
    var isActive = true

    init(handler: @escaping (Value) -> Void) {
      self.handler = handler
    }
  }

  package private(set) var value: Value
  private var subscriptions: [Subscription] = []
  private var pending: [Value] = []
  private var isDelivering = false

  package init(_ value: Value) {
    self.value = value
  }

  package func observe(_ handler: @escaping (Value) -> Void) -> Subscription {
    let subscription = Subscription(handler: handler)
    subscriptions.append(subscription)
    return subscription
  }

  @discardableResult
  package func observe<Owner: AnyObject>(
    _ owner: Owner, _ handler: @escaping (Owner, Value) -> Void
  ) -> Subscription {
    // The owner is held weakly and handed over: the handler has no reason to capture it.
    observe { [weak owner] value in
      if let owner { handler(owner, value) }
    }
  }

  package func cancel(_ subscription: Subscription) {
    subscription.isActive = false
    subscriptions.removeAll { $0 === subscription }
  }

  package func set(_ newValue: Value) {
    value = newValue
    pending.append(newValue)
    // A delivery is under way further up this thread's stack: it will reach this value next.
    guard !isDelivering else { return }
    isDelivering = true
    while !pending.isEmpty {
      let next = pending.removeFirst()
      for subscription in subscriptions where subscription.isActive {
        subscription.handler(next)
      }
    }
    isDelivering = false
  }
}

// MARK: - Step 3, the wrong way: calling handlers under the lock

/// What both versions of step 3 keep behind their lock.
private struct LockedState<Value: Sendable> {
  var value: Value
  var handlers: [@Sendable (Value) -> Void] = []
}

/// Step 3 done wrong: thread-safe, but it calls the handlers while holding its lock.
///
/// A handler that reads the value asks for the lock its own thread already holds. The
/// Synchronization module's `Mutex` stops the program then: on Linux, with
/// "Recursive call to lock Mutex" on standard error; on Apple platforms, where it is an
/// `os_unfair_lock`, with a trap whose message, "Trying to recursively lock an os_unfair_lock",
/// is in the crash report. A plain lock would wait for ever. Two observables whose handlers set
/// each other deadlock across threads the same way.
package final class LockedWhileCalling<Value: Sendable>: Sendable {
  private let state: Mutex<LockedState<Value>>

  package init(_ value: Value) {
    state = Mutex(LockedState(value: value))
  }

  package func observe(_ handler: @escaping @Sendable (Value) -> Void) {
    state.withLock { $0.handlers.append(handler) }
  }

  package var value: Value {
    get { state.withLock { $0.value } }
    set {
      state.withLock { state in
        state.value = newValue
        for handler in state.handlers {
          handler(newValue)  // still holding the lock: the mistake
        }
      }
    }
  }
}

// MARK: - Step 3, the right way: copy under the lock, call after

/// Step 3 done right: the lock guards the state, and is let go before any handler runs.
///
/// Each set copies the handlers under the lock and calls the copy afterwards, so a handler may
/// read or set the value. It still lacks step 1's queue: two threads that set at once deliver
/// at once, in no particular order. `SharedObservable` puts the two together: one thread
/// delivers at a time, and the others wait for their turn.
package final class CopyThenCall<Value: Sendable>: Sendable {
  private let state: Mutex<LockedState<Value>>

  package init(_ value: Value) {
    state = Mutex(LockedState(value: value))
  }

  package func observe(_ handler: @escaping @Sendable (Value) -> Void) {
    state.withLock { $0.handlers.append(handler) }
  }

  package var value: Value {
    get { state.withLock { $0.value } }
    set {
      let handlers = state.withLock { state in
        state.value = newValue
        return state.handlers
      }
      for handler in handlers {
        handler(newValue)  // the lock is free: a handler may use the observable
      }
    }
  }
}
