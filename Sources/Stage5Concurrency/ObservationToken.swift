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
  private let cancelling: @Sendable () -> Void

  init(cancelling: @escaping @Sendable () -> Void) {
    self.cancelling = cancelling
  }

  deinit {
    cancelling()
  }

  /// Ends the subscription and lets go of its handler. Calling it again does nothing.
  ///
  /// Once it returns where the handler runs (inside a handler, or on the handler's actor), the
  /// handler is not called again, even later in a delivery that is under way; from another
  /// thread, only a call that had already begun may still finish. The handler, with
  /// everything it captured, is released before this returns, unless another thread is
  /// running a handler of this observable at that moment: then as soon as that handler returns.
  public func cancel() {
    cancelling()
  }
}
