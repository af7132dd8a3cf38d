/// A value whose observers are held weakly, one entry per observer.
///
/// Each closure is stored beside a weak reference to the object that bound it. Setting
/// ``value`` skips the entries whose object is gone, so a released observer is no longer
/// called. An observer that binds again, as a screen whose setup code runs twice does,
/// replaces its earlier entry, so it is still called once per set.
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
  /// Entries are visited in binding order. Those whose observer is gone are skipped, but stay
  /// stored.
  ///
  /// - Complexity: O(*n*), where *n* is ``observerCount``, dead entries included.
  package var value: Value {
    get { storedValue }
    set {
      storedValue = newValue
      notifyObservers()
    }
  }

  private var storedValue: Value

  /// The number of entries stored, those of deallocated observers included.
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
  /// closure no longer runs. Binding the same observer again replaces its earlier entry: the
  /// new closure runs from then on, last in the order.
  ///
  /// - Parameters:
  ///   - observer: The object whose lifetime bounds the subscription.
  ///   - closure: Called with the current value after every set, while `observer` lives. Capture
  ///     `observer` weakly in it, or it never dies.
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  package func bindObserver(_ observer: AnyObject, closure: @escaping (Value) -> Void) {
    // The fix: the object is the observer's identity, so `===` finds its earlier entry. It goes
    // in the same pass that drops the dead ones, and the new entry is appended.
    entries.removeAll { $0.observer == nil || $0.observer === observer }
    entries.append(Entry(observer: observer, closure: closure))
  }

  private func notifyObservers() {
    for entry in entries where entry.observer != nil {
      entry.closure(value)
    }
  }
}
