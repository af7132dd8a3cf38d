/// A value that calls every bound closure whenever it is set: the stone age of the observer pattern.
///
/// The observable keeps its observers in a plain array of closures. Binding appends to the array,
/// setting ``value`` walks it in binding order. That is all there is, and that is the flaw this
/// stage teaches: nothing can ever be removed. A closure bound by a screen that has long been
/// closed keeps running on every set, and the array only grows.
///
/// ```swift
/// let message = Observable("")
/// message.bindObserver { print("label shows \($0)") }
/// message.value = "Hello"  // prints "label shows Hello"
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
public final class Observable<Value> {
  @usableFromInline var observers: [(Value) -> Void] = []

  /// The current value. Setting it calls every bound closure with the new value, in binding order.
  ///
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  @inlinable public var value: Value {
    get { storedValue }
    set {
      storedValue = newValue
      notifyObservers(of: newValue)
    }
  }

  @usableFromInline var storedValue: Value

  /// The number of closures stored. It only ever grows.
  public var observerCount: Int { observers.count }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value. Observers are not called for it.
  public init(_ value: Value) {
    storedValue = value
  }

  /// Registers a closure that runs whenever the value is set.
  ///
  /// The closure is stored for as long as the observable lives: there is no way to remove it.
  /// Anything it captures strongly stays alive just as long.
  ///
  /// - Parameter observer: Called with the new value after every set.
  /// - Complexity: O(1) amortized.
  @inlinable public func bindObserver(_ observer: @escaping (Value) -> Void) {
    observers.append(observer)
  }

  @inlinable func notifyObservers(of newValue: Value) {
    for observer in observers {
      observer(newValue)
    }
  }
}
