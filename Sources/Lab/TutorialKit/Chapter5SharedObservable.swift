// Chapter 5's last step, whole: the observable a reader copies into an app. Its declarations
// are `public`, not `package`, so that the file compiles as it is in any target: a test
// compiles it alone, in Swift 6 mode, with no package name.

import Foundation
import Synchronization

/// An observable that any thread may set and observe: a `Mutex` never held while a handler
/// runs, and step 1's queue, shared by every thread. No actor, no task: a handler runs on the
/// thread that delivers.
///
/// Its promises:
/// - Every handler is called once for each value, in the order the values were set, even when
///   threads set at once; never two handlers of one observable at a time.
/// - A value set inside a handler is delivered once the value being delivered has reached
///   every handler.
/// - A cancelled handler is not called again once `cancel(_:)` returns (a call another thread
///   had already begun may finish), and is released then.
/// - Nothing of yours is released under the lock: old values and cancelled handlers are let
///   go after it.
/// - A set made outside a handler returns once its own value, and what its handlers set, are
///   delivered, even while other threads keep setting. A set made inside a handler returns at
///   once: the turn under way delivers it.
///
/// Only one thread at a time has the *turn*: it calls the handlers. A setter that finds another
/// thread delivering waits until the turn is handed to it, and delivers its own value itself.
/// So a handler must never wait for another thread that sets this observable.
public final class SharedObservable<Value: Sendable>: Sendable {
  /// What `observe` returns: pass it to `cancel(_:)` to stop the handler.
  public struct Subscription: Hashable, Sendable {
    fileprivate let id: Int
  }

  /// A value on its way to the handlers subscribed before it was set.
  private struct Delivery {
    let value: Value
    let subscribers: [Int]
    /// Its place among all the values ever set: 0, 1, 2…
    let number: Int
  }

  /// A setter that found another thread delivering, waiting for the turn.
  private struct Waiter {
    let thread: ObjectIdentifier
    /// The number of its value: its turn ends there.
    let number: Int
    let wakeUp = DispatchSemaphore(value: 0)
  }

  private struct State {
    var value: Value
    var handlers: [Int: @Sendable (Value) -> Void] = [:]
    /// The subscriptions, oldest first.
    var order: [Int] = []
    var nextID = 0
    var queue: [Delivery] = []
    var setCount = 0
    /// The thread that has the turn, if any.
    var deliverer: ObjectIdentifier?
    /// The number of the last value the turn delivers before it is handed on.
    var endOfTurn = 0
    /// Setters waiting for the turn, oldest first.
    var waiters: [Waiter] = []
  }

  private let state: Mutex<State>

  /// Makes an observable that holds `value`.
  ///
  /// - Parameter value: The value until the first set.
  public init(_ value: Value) {
    state = Mutex(State(value: value))
  }

  /// The latest value set.
  public var value: Value { state.withLock { $0.value } }

  /// Calls `handler` with every value set from now on, until the subscription is cancelled.
  ///
  /// - Parameter handler: Called on the thread that delivers, with each new value.
  /// - Returns: The subscription, for `cancel(_:)`.
  @discardableResult
  public func observe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription {
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      state.handlers[id] = handler
      state.order.append(id)
      return Subscription(id: id)
    }
  }

  /// Calls `handler` with `owner` and every value set from now on, while `owner` lives.
  ///
  /// - Parameters:
  ///   - owner: Held weakly, and handed to the handler, which need not capture it.
  ///   - handler: Called on the thread that delivers, with the owner and each new value.
  /// - Returns: The subscription, for `cancel(_:)`.
  @discardableResult
  public func observe<Owner: AnyObject & Sendable>(
    _ owner: Owner, _ handler: @escaping @Sendable (Owner, Value) -> Void
  ) -> Subscription {
    observe { [weak owner] value in
      if let owner { handler(owner, value) }
    }
  }

  /// Stops calling the subscription's handler, and lets go of it.
  ///
  /// - Parameter subscription: What `observe` returned.
  public func cancel(_ subscription: Subscription) {
    // The handler comes out of the lock, and is released here, with the lock let go.
    _ = state.withLock { state in
      state.order.removeAll { $0 == subscription.id }
      return state.handlers.removeValue(forKey: subscription.id)
    }
  }

  /// What a setter does once its value is queued.
  private enum Step {
    case queued
    case waitForTurn(DispatchSemaphore)
    case deliver
  }

  /// Sets the value, and delivers it to every handler, in turn.
  ///
  /// - Parameter newValue: The new value.
  public func set(_ newValue: Value) {
    let thread = ObjectIdentifier(Thread.current)
    let (_, step) = state.withLock { state -> (Value, Step) in
      // The old value leaves the lock, and is released by `_` above, with the lock let go.
      let oldValue = state.value
      state.value = newValue
      let number = state.setCount
      state.setCount += 1
      state.queue.append(Delivery(value: newValue, subscribers: state.order, number: number))
      if state.deliverer == thread {
        // Set by a handler: this thread delivers it, after the value it is delivering now.
        state.endOfTurn = number
        return (oldValue, .queued)
      }
      guard state.deliverer == nil else {
        let waiter = Waiter(thread: thread, number: number)
        state.waiters.append(waiter)
        return (oldValue, .waitForTurn(waiter.wakeUp))
      }
      state.deliverer = thread
      state.endOfTurn = number
      return (oldValue, .deliver)
    }
    switch step {
    case .queued:
      return
    case .waitForTurn(let wakeUp):
      wakeUp.wait()
    case .deliver:
      break
    }
    deliverTurn()
  }

  /// Delivers the queue, oldest first, up to the end of this thread's turn; then hands the
  /// turn to the setter that has waited longest, or to nobody.
  private func deliverTurn() {
    while true {
      let next = state.withLock { state -> Delivery? in
        if let first = state.queue.first, first.number <= state.endOfTurn {
          return state.queue.removeFirst()
        }
        if state.waiters.isEmpty {
          state.deliverer = nil
        } else {
          let waiter = state.waiters.removeFirst()
          state.deliverer = waiter.thread
          state.endOfTurn = waiter.number
          waiter.wakeUp.signal()
        }
        return nil
      }
      guard let delivery = next else { return }
      for id in delivery.subscribers {
        // Read just before the call: a handler cancelled meanwhile is gone.
        guard let handler = state.withLock({ $0.handlers[id] }) else { continue }
        handler(delivery.value)
      }
    }
  }
}
