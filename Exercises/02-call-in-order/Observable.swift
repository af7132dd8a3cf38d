/// A value that calls closures stored under string keys: stage 2, whose order is yours to fix.
///
/// Keying each closure by a string makes removal possible: an observer that goes away calls
/// ``removeObserver(forKey:)`` with the key it bound under. But the closures live in a
/// dictionary, and a dictionary has no order: setting ``value`` calls them in an order that is
/// unspecified and changes from run to run. This exercise asks for binding order instead.
///
/// ```swift
/// let message = Observable("")
/// message.bindObserver(forKey: "title") { print("title shows \($0)") }
/// message.bindObserver(forKey: "badge") { print("badge shows \($0)") }
/// message.value = "Hello"  // should print the title's line, then the badge's
/// message.removeObserver(forKey: "title")
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
package final class Observable<Value> {
  private var observers: [String: (Value) -> Void] = [:]

  /// The current value. Setting it calls every stored closure, each with the value read again
  /// at its turn, as stage 2 does.
  ///
  /// The closures should run in the order their keys were first bound. A key bound again keeps
  /// its place; a key removed and then bound again goes last.
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

  /// The number of closures stored, one per key.
  package var observerCount: Int { observers.count }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value. Observers are not called for it.
  package init(_ value: Value) {
    storedValue = value
  }

  /// Stores a closure under `key`; it runs whenever the value is set.
  ///
  /// A key that is already bound is silently rebound: the earlier closure is dropped and never
  /// runs again. Nothing tells either observer.
  ///
  /// - Parameters:
  ///   - key: The name to remove the closure by later. Choose one no other observer uses.
  ///   - observer: Called with the current value after every set.
  /// - Complexity: O(1) amortized.
  package func bindObserver(forKey key: String, _ observer: @escaping (Value) -> Void) {
    observers[key] = observer
  }

  /// Removes the closure stored under `key`; an unknown key is ignored.
  ///
  /// - Parameter key: The key the closure was bound under.
  /// - Complexity: O(1) on average.
  package func removeObserver(forKey key: String) {
    observers[key] = nil
  }

  private func notifyObservers() {
    // TODO: The dictionary picks this order. Call the closures in the order their keys were
    // first bound instead: a key bound again keeps its place, a key removed and bound again
    // goes last.
    for observer in observers.values {
      observer(value)
    }
  }
}
