/// A ticket for one bound closure, handed out by ``Observable/bindObserver(_:)``.
///
/// Keep it, and pass it to ``Observable/removeObserver(_:)`` when the closure should stop
/// running. Its number means nothing outside the observable that made it.
package struct ObserverID: Hashable, Sendable {
  /// The number behind the ticket: 1 for the first closure bound, 2 for the second, and so on.
  let rawValue: Int
}

/// A value that calls every bound closure whenever it is set: stage 1, with a way out.
///
/// The closures sit in one array, each beside the ``ObserverID`` it was bound under, and
/// setting ``value`` calls them in binding order. ``removeObserver(_:)`` takes a closure out by
/// its id: it is never called again, and whatever it captured is released.
///
/// ```swift
/// let message = Observable("")
/// let id = message.bindObserver { print("label shows \($0)") }
/// message.value = "Hello"  // prints "label shows Hello"
/// message.removeObserver(id)
/// message.value = "Bye"  // prints nothing
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
package final class Observable<Value> {
  // The fix: each closure is stored with the id handed out for it, so that the id can find it
  // again. An array of entries, rather than a dictionary keyed by id, keeps the binding order.
  private struct Entry {
    let id: ObserverID
    let observer: (Value) -> Void
  }

  private var entries: [Entry] = []
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
  package var observerCount: Int { entries.count }

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
    lastID += 1
    let id = ObserverID(rawValue: lastID)
    entries.append(Entry(id: id, observer: observer))
    return id
  }

  /// Removes the closure bound under `id`; an id that is not bound is ignored.
  ///
  /// Once it returns, the closure is never called again, and the observable no longer holds it,
  /// nor anything it captured.
  ///
  /// - Parameter id: The ticket ``bindObserver(_:)`` returned.
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  package func removeObserver(_ id: ObserverID) {
    entries.removeAll { $0.id == id }
  }

  private func notifyObservers() {
    for entry in entries {
      entry.observer(value)
    }
  }
}
