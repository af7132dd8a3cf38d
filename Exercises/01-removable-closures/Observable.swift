/// A ticket for one bound closure, handed out by ``Observable/bindObserver(_:)``.
///
/// Keep it, and pass it to ``Observable/removeObserver(_:)`` when the closure should stop
/// running. Its number means nothing outside the observable that made it.
package struct ObserverID: Hashable, Sendable {
  /// The number behind the ticket: 1 for the first closure bound, 2 for the second, and so on.
  let rawValue: Int
}

/// A value that calls every bound closure whenever it is set: stage 1, with a way out to add.
///
/// As in stage 1, the closures sit in one array, and setting ``value`` calls them in binding
/// order. Binding now also hands out an ``ObserverID``, so that the closure can be removed later
/// with ``removeObserver(_:)``. Removing is what this exercise asks you to write.
///
/// ```swift
/// let message = Observable("")
/// let id = message.bindObserver { print("label shows \($0)") }
/// message.value = "Hello"  // prints "label shows Hello"
/// message.removeObserver(id)
/// message.value = "Bye"  // should print nothing
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
package final class Observable<Value> {
  private var observers: [(Value) -> Void] = []
  private var lastID = 0

  /// The current value. Setting it calls every bound closure, in binding order, each with the
  /// value read again at its turn, as stage 1 does.
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

  /// The number of closures stored.
  package var observerCount: Int { observers.count }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value. Observers are not called for it.
  package init(_ value: Value) {
    storedValue = value
  }

  /// Registers a closure that runs whenever the value is set, until it is removed.
  ///
  /// Anything the closure captures strongly stays alive for as long as the closure is stored.
  ///
  /// - Parameter observer: Called with the current value after every set.
  /// - Returns: The ticket to pass to ``removeObserver(_:)``. A fresh one on every call.
  /// - Complexity: O(1) amortized.
  @discardableResult
  package func bindObserver(_ observer: @escaping (Value) -> Void) -> ObserverID {
    observers.append(observer)
    lastID += 1
    return ObserverID(rawValue: lastID)
  }

  /// Removes the closure bound under `id`; an id that is not bound is ignored.
  ///
  /// Once it returns, the closure is never called again, and the observable no longer holds it,
  /// nor anything it captured.
  ///
  /// - Parameter id: The ticket ``bindObserver(_:)`` returned.
  package func removeObserver(_ id: ObserverID) {
    // TODO: This does nothing yet. Remove the closure that was bound under `id`, and only that
    // one; the others must still be called, in binding order.
  }

  private func notifyObservers() {
    for observer in observers {
      observer(value)
    }
  }
}
