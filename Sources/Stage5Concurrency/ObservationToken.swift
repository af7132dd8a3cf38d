/// Keeps a subscription alive: cancel it, or let it go, and the handler is called no more.
///
/// Like KVO's `NSKeyValueObservation`, a token cancels its subscription when it is
/// deinitialized, so store it for as long as you want to observe.
///
/// ```swift
/// let token = score.observe { print("score is \($0.newValue)") }
/// score.value = 1  // prints "score is 1"
/// token.cancel()
/// score.value = 2  // prints nothing
/// ```
public final class ObservationToken: Sendable {
  /// The observable, held weakly: a token never keeps it alive.
  private weak let observable: (any SubscriptionEnding)?
  private let subscription: AnyObject & Sendable

  @usableFromInline
  init(observable: any SubscriptionEnding, subscription: AnyObject & Sendable) {
    self.observable = observable
    self.subscription = subscription
  }

  deinit {
    cancel()
  }

  /// Ends the subscription. Calling it again does nothing.
  ///
  /// Once it returns, the handler is not called again by the thread that called it, even later
  /// in a delivery that is under way on that thread.
  public func cancel() {
    observable?.endSubscription(subscription)
  }
}

/// What a token needs of its observable, whatever the observable's value type.
@usableFromInline
protocol SubscriptionEnding: AnyObject, Sendable {
  /// Ends `subscription`, if it belongs here and has not ended yet.
  func endSubscription(_ subscription: AnyObject)
}
