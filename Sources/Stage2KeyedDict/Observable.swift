/// A value that calls closures stored under string keys: the iron age of the observer pattern.
///
/// Keying each closure by a string makes removal possible: an observer that goes away calls
/// ``removeObserver(forKey:)`` with the key it bound under. Two new flaws come with the
/// dictionary. Keys are strings the caller invents, so two observers that pick the same key
/// collide, and the second silently replaces the first. And a dictionary has no order, so
/// observers are called in an order that is unspecified and changes from run to run.
///
/// As in the original article, each closure is handed ``value`` read again at its turn, not the
/// value that started the round: a closure that sets the value starts a new round at once, and
/// the closures the old round had still to call then receive the newer value a second time and
/// never the one it started with.
///
/// ```swift
/// let message = Observable("")
/// message.bindObserver(forKey: "label") { print("label shows \($0)") }
/// message.value = "Hello"  // prints "label shows Hello"
/// message.removeObserver(forKey: "label")
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
public final class Observable<Value> {
  @usableFromInline var observers: [String: (Value) -> Void] = [:]

  /// The current value. Setting it calls every stored closure, each with the value read again
  /// at its turn: a closure before it may have set another.
  ///
  /// The closures run in the dictionary's order, which is unspecified: it differs between
  /// observables and between runs of the same program.
  ///
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  @inlinable public var value: Value {
    get { storedValue }
    set {
      storedValue = newValue
      notifyObservers()
    }
  }

  @usableFromInline var storedValue: Value

  /// The number of closures stored, one per key.
  public var observerCount: Int { observers.count }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value. Observers are not called for it.
  public init(_ value: Value) {
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
  @inlinable public func bindObserver(forKey key: String, _ observer: @escaping (Value) -> Void) {
    observers[key] = observer
  }

  /// Removes the closure stored under `key`; an unknown key is ignored.
  ///
  /// - Parameter key: The key the closure was bound under.
  /// - Complexity: O(1) on average.
  @inlinable public func removeObserver(forKey key: String) {
    observers[key] = nil
  }

  @inlinable func notifyObservers() {
    for observer in observers.values {
      observer(value)
    }
  }
}
