/// A value that calls closures stored under string keys, each key chosen by an owner.
///
/// This is stage 2 with one more argument: every bind and every removal names its owner, the
/// object that binds. Keys are strings the caller invents, so two owners may well pick the same
/// one, `"label"` say. A key should only have to be unique for its owner: two owners binding
/// `"label"` should each keep their closure. As written, the owner is ignored, and the second
/// bind silently replaces the first.
///
/// ```swift
/// let score = Observable(0)
/// score.bindObserver(homeScreen, forKey: "label") { print("home shows \($0)") }
/// score.bindObserver(detailScreen, forKey: "label") { print("detail shows \($0)") }
/// score.value = 3  // should print both lines
/// score.removeObserver(homeScreen, forKey: "label")
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
package final class Observable<Value> {
  private var observers: [String: (Value) -> Void] = [:]

  /// The current value. Setting it calls every stored closure, each with the value read again
  /// at its turn, as stage 2 does.
  ///
  /// The closures run in the dictionary's order, which is unspecified: it differs between
  /// observables and between runs of the same program.
  ///
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  package var value: Value {
    get { storedValue }
    set {
      storedValue = newValue
      notifyObservers()
    }
  }

  private var storedValue: Value

  /// The number of closures stored: one for each owner and key bound together.
  package var observerCount: Int { observers.count }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value. Observers are not called for it.
  package init(_ value: Value) {
    storedValue = value
  }

  /// Stores a closure for `owner` under `key`; it runs whenever the value is set.
  ///
  /// The same owner binding the same key again replaces its earlier closure. Another owner
  /// using the same key should not. The observable does not keep `owner` alive.
  ///
  /// - Parameters:
  ///   - owner: The object that binds. It need only pick keys that it does not use itself.
  ///   - key: The name to remove the closure by later.
  ///   - observer: Called with the current value after every set.
  /// - Complexity: O(1) amortized.
  package func bindObserver(
    _ owner: AnyObject, forKey key: String, _ observer: @escaping (Value) -> Void
  ) {
    // TODO: The owner is ignored, so a second owner binding the same key replaces the first
    // one's closure. Make each key belong to its owner: two owners may use one key, and
    // removeObserver(_:forKey:) removes only the closure of the owner it is given.
    observers[key] = observer
  }

  /// Removes the closure `owner` stored under `key`; an unknown pair is ignored.
  ///
  /// - Parameters:
  ///   - owner: The object that bound the closure.
  ///   - key: The key it bound the closure under.
  /// - Complexity: O(1) on average.
  package func removeObserver(_ owner: AnyObject, forKey key: String) {
    observers[key] = nil
  }

  private func notifyObservers() {
    for observer in observers.values {
      observer(value)
    }
  }
}
