/// A value that calls every bound closure whenever it is set: the stone age of the observer pattern.
///
/// The observable keeps its observers in a plain array of closures. Binding appends to the array,
/// setting ``value`` walks it in binding order and hands each closure ``value`` read again, as
/// the original article's `notify()` did. That is all there is, and that is the flaw this stage
/// teaches: nothing can ever be removed. A closure bound by a screen that has long been closed
/// keeps running on every set, and the array only grows.
///
/// Reading the value again for each closure has a flaw of its own. A closure that sets the value
/// starts a new round at once; when it returns, the old round goes on, handing the closures after
/// it the value as it is now. With closures A, B and C, where A sets 2 on seeing 1, setting 1
/// calls `A(1) A(2) B(2) C(2) B(2) C(2)`: everyone ends on 2, but B and C never see 1 and see 2
/// twice.
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

  /// The current value. Setting it calls every bound closure, in binding order, each with the
  /// value read again at its turn: a closure before it may have set another.
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
  /// - Parameter observer: Called with the current value after every set.
  /// - Complexity: O(1) amortized.
  @inlinable public func bindObserver(_ observer: @escaping (Value) -> Void) {
    observers.append(observer)
  }

  @inlinable func notifyObservers() {
    for observer in observers {
      observer(value)
    }
  }
}
