/// A value with weakly held observers and option sets, whose handlers are handed their
/// observer: stage 4, where the observer's lifetime is yours to fix.
///
/// Each observer is an object, held weakly, with the options it asked for and a handler.
/// Setting ``value`` first drops the callbacks whose observer is gone, then calls the others
/// from a snapshot, a copy of the list taken before the first call. An observer can leave with
/// ``removeObserver(_:)``, and by default adding an observer again replaces its earlier
/// callbacks.
///
/// A handler is handed its observer as a parameter, so it has no reason to capture it, and the
/// observer is held weakly. Yet an observer added here is never freed, and its handler runs
/// for ever: something the observable stores keeps it alive.
///
/// ```swift
/// let score = Observable(0)
/// score.addObserver(label, options: [.initial, .new]) { label, score, _ in
///   label.text = "\(score)"
/// }  // shows 0 at once
/// score.value = 3  // shows 3, while the label lives
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
package final class Observable<Value> {
  private struct Callback {
    weak var observer: AnyObject?
    let options: ObservableOptions
    let closure: (Value, ObservableOptions) -> Void
  }

  private var callbacks: [Callback] = []

  /// The current value.
  ///
  /// Setting it first drops the callbacks whose observer is gone, then calls
  /// `closure(oldValue, .old)` on the callbacks that asked for `.old`, then
  /// `closure(newValue, .new)` on those that asked for `.new`, each in the order they were added,
  /// over the callbacks stored before the first call.
  ///
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  package var value: Value {
    get { storedValue }
    set {
      let oldValue = storedValue
      storedValue = newValue
      removeCallbacksOfReleasedObservers()
      let snapshot = callbacks
      notify(snapshot, of: oldValue, option: .old)
      notify(snapshot, of: newValue, option: .new)
    }
  }

  private var storedValue: Value

  /// The number of callbacks stored, those of deallocated observers included until the next set.
  package var observerCount: Int { callbacks.count }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value.
  package init(_ value: Value) {
    storedValue = value
  }

  /// Adds a callback for `observer`, held weakly, with the options it asks for.
  ///
  /// The handler is handed `observer` on every call, so it need not capture it. With `.initial`
  /// in `options`, `handler` is called at once with `(observer, value, .initial)`.
  ///
  /// - Parameters:
  ///   - observer: The object whose lifetime bounds the callback. Once it is deallocated, its
  ///     handler is no longer called, and its callbacks go with the next set.
  ///   - removeIfExists: Whether to remove the observer's earlier callbacks first.
  ///   - options: Which values to receive: `.initial`, `.old`, `.new`.
  ///   - handler: Called with the observer, a value and the option it answers. Use the
  ///     observer it is handed rather than capturing it.
  /// - Complexity: O(*n*), where *n* is ``observerCount``, when `removeIfExists` is `true`.
  package func addObserver<Observer: AnyObject>(
    _ observer: Observer,
    removeIfExists: Bool = true,
    options: ObservableOptions = [.new],
    handler: @escaping (Observer, Value, ObservableOptions) -> Void
  ) {
    if removeIfExists {
      removeObserver(observer)
    }
    // TODO: An observer added here is never freed (`swift run workshop 8` shows it). Find
    // what keeps it alive, and decide where the observer should be kept instead, so that
    // `handler` is still handed it on every call while it lives.
    let closure: (Value, ObservableOptions) -> Void = { value, option in
      handler(observer, value, option)
    }
    callbacks.append(Callback(observer: observer, options: options, closure: closure))
    if options.contains(.initial) {
      closure(value, .initial)
    }
  }

  /// Removes every callback of `observer`; an observer with none is ignored.
  ///
  /// - Parameter observer: The object the callbacks were added for.
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  package func removeObserver(_ observer: AnyObject) {
    callbacks = callbacks.filter { $0.observer !== observer }
  }

  private func removeCallbacksOfReleasedObservers() {
    callbacks = callbacks.filter { $0.observer != nil }
  }

  private func notify(_ snapshot: [Callback], of value: Value, option: ObservableOptions) {
    let callbacksToNotify = snapshot.filter { $0.options.contains(option) }
    for callback in callbacksToNotify {
      callback.closure(value, option)
    }
  }
}
