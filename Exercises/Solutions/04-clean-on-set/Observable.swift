/// A value whose observers are held weakly, and whose dead entries go at the next set.
///
/// Each closure is stored beside a weak reference to the object that bound it. Setting
/// ``value`` first drops the entries whose object is gone, then calls the others, so a released
/// observer is no longer called, and its entry does not outlive the next set.
/// ``bindObserver(_:closure:)`` still cleans too.
///
/// ```swift
/// let message = Observable("")
/// message.bindObserver(label) { [weak label] in label?.text = $0 }
/// message.value = "Hello"  // sets the label's text while the label lives
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
package final class Observable<Value> {
  private struct Entry {
    weak var observer: AnyObject?
    let closure: (Value) -> Void
  }

  private var entries: [Entry] = []

  /// The current value. Setting it calls the closure of each entry whose observer is alive,
  /// with the value read again at its turn, as stage 3 does.
  ///
  /// The entries whose observer is gone are dropped first; the others are visited in binding
  /// order.
  ///
  /// - Complexity: O(*n*), where *n* is ``observerCount``, dead entries included.
  package var value: Value {
    get { storedValue }
    set {
      storedValue = newValue
      // The fix: clean where every set goes, not only where a bind goes. An observable that
      // nobody binds to again no longer keeps its dead entries for ever.
      entries.removeAll { $0.observer == nil }
      notifyObservers()
    }
  }

  private var storedValue: Value

  /// The number of entries stored, those of deallocated observers included until the next set
  /// or bind.
  package var observerCount: Int { entries.count }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value. Observers are not called for it.
  package init(_ value: Value) {
    storedValue = value
  }

  /// Drops the entries of deallocated observers, then stores `closure` for `observer`.
  ///
  /// The observer is held weakly; the closure strongly. Once the observer is deallocated, its
  /// closure no longer runs. Binding the same observer again stores a second entry.
  ///
  /// - Parameters:
  ///   - observer: The object whose lifetime bounds the subscription.
  ///   - closure: Called with the current value after every set, while `observer` lives. Capture
  ///     `observer` weakly in it, or it never dies.
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  package func bindObserver(_ observer: AnyObject, closure: @escaping (Value) -> Void) {
    entries.removeAll { $0.observer == nil }
    entries.append(Entry(observer: observer, closure: closure))
  }

  private func notifyObservers() {
    for entry in entries where entry.observer != nil {
      entry.closure(value)
    }
  }
}
