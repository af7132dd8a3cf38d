/// A value whose observers are held weakly: stage 3, whose dead entries are yours to clean.
///
/// Each closure is stored beside a weak reference to the object that bound it. Setting
/// ``value`` skips the entries whose object is gone, so a released observer is no longer
/// called. But those dead entries stay stored until the next ``bindObserver(_:closure:)``, the
/// only place that cleans: an observable that nobody binds to again keeps them for ever, and
/// walks past them on every set. This exercise asks for the set to clean them too.
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
  /// Entries are visited in binding order. Those whose observer is gone are skipped, and should
  /// also be dropped, so that none is left stored once the set is done.
  ///
  /// - Complexity: O(*n*), where *n* is ``observerCount``, dead entries included.
  package var value: Value {
    get { storedValue }
    set {
      storedValue = newValue
      // TODO: Dead entries are skipped here but stay stored until someone binds. Drop the
      // entries whose observer is gone on every set as well.
      notifyObservers()
    }
  }

  private var storedValue: Value

  /// The number of entries stored, those of deallocated observers included until they are
  /// cleaned.
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
