/// Keeps a subscription alive: cancel it, or let it go, and the handler is called no more.
///
/// Like KVO's `NSKeyValueObservation`, a token cancels its subscription when it is
/// deinitialized, so store it for as long as you want to observe.
///
/// ```swift
/// let token = score.observeOnAnyThread { print("score is \($0.newValue)") }
/// score.value = 1  // prints "score is 1"
/// token.cancel()
/// score.value = 2  // prints nothing
/// ```
public final class ObservationToken: Sendable {
  /// The observable, held weakly: a token never keeps it alive.
  private weak let observable: (any SubscriptionEnding)?
  /// The subscription's id, by which the observable finds it. The token holds no reference to
  /// the subscription: once it ends, the observable's list lets go of it, and with it of the
  /// handler and what the handler captured, even while the token lives on. (A weak reference
  /// would do the same, at the cost of a side table per subscription: one weak reference to
  /// the observable makes one side table per observable.)
  private let id: UInt64

  @usableFromInline
  init(observable: any SubscriptionEnding, id: UInt64) {
    self.observable = observable
    self.id = id
  }

  deinit {
    cancel()
  }

  /// Ends the subscription and lets go of its handler. Calling it again does nothing.
  ///
  /// Once it returns where the handler runs (inside a handler, or on the handler's actor), the
  /// handler is not called again, even later in a delivery that is under way; from another
  /// thread, only a call that had already begun may still finish. The handler, with
  /// everything it captured, is released before this returns, unless another thread is
  /// running a handler of this observable at that moment: then as soon as that handler returns.
  public func cancel() {
    observable?.endSubscription(id: id)
  }
}

/// What a token needs of its observable, whatever the observable's value type.
@usableFromInline
protocol SubscriptionEnding: AnyObject, Sendable {
  /// Ends the subscription with this id, if there is one and it has not ended yet.
  func endSubscription(id: UInt64)
}
