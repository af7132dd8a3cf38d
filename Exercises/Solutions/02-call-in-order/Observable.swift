/// A value that calls closures stored under string keys, in the order the keys were bound.
///
/// Keying each closure by a string makes removal possible: an observer that goes away calls
/// ``removeObserver(forKey:)`` with the key it bound under. The closures live in a dictionary,
/// which finds a key at once but has no order; beside it, an array keeps the keys in the order
/// they were first bound, and setting ``value`` walks that array.
///
/// ```swift
/// let message = Observable("")
/// message.bindObserver(forKey: "title") { print("title shows \($0)") }
/// message.bindObserver(forKey: "badge") { print("badge shows \($0)") }
/// message.value = "Hello"  // prints the title's line, then the badge's
/// message.removeObserver(forKey: "title")
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
package final class Observable<Value> {
  private var observers: [String: (Value) -> Void] = [:]
  // The fix: a dictionary has no order, an array does. The keys sit here in the order they
  // were first bound; the dictionary still finds each key's closure in O(1).
  private var keysInBindingOrder: [String] = []

  /// The current value. Setting it calls every stored closure, each with the value read again
  /// at its turn, as stage 2 does.
  ///
  /// The closures run in the order their keys were first bound. A key bound again keeps its
  /// place; a key removed and then bound again goes last.
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
  /// runs again, and the new one takes its place in the order. Nothing tells either observer.
  ///
  /// - Parameters:
  ///   - key: The name to remove the closure by later. Choose one no other observer uses.
  ///   - observer: Called with the current value after every set.
  /// - Complexity: O(1) amortized.
  package func bindObserver(forKey key: String, _ observer: @escaping (Value) -> Void) {
    if observers.updateValue(observer, forKey: key) == nil {
      keysInBindingOrder.append(key)
    }
  }

  /// Removes the closure stored under `key`; an unknown key is ignored.
  ///
  /// - Parameter key: The key the closure was bound under.
  /// - Complexity: O(*n*), where *n* is ``observerCount``: the key leaves the order too.
  package func removeObserver(forKey key: String) {
    if observers.removeValue(forKey: key) != nil {
      keysInBindingOrder.removeAll { $0 == key }
    }
  }

  private func notifyObservers() {
    for key in keysInBindingOrder {
      observers[key]?(value)
    }
  }
}
