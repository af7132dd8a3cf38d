/// A value whose observers are held weakly: the information age of the observer pattern.
///
/// Each closure is stored beside a weak reference to the object that bound it. Setting
/// ``value`` skips the entries whose object is gone, so a released observer is no longer
/// called, and no string key is needed: the object itself is the identity.
///
/// Its flaws: the dead entries are skipped but stay stored until the next
/// ``bindObserver(_:closure:)``, the only place that cleans; there is no way to leave except by
/// being deallocated; binding the same object twice stores two entries; and a closure that
/// captures its observer strongly keeps it alive for ever, weak entry or not. And, as in the
/// original article, each closure is handed ``value`` read again at its turn: a closure that
/// sets the value starts a new round at once, and the closures after it in the old round then
/// receive the newer value a second time and never the one it started with.
///
/// ```swift
/// let message = Observable("")
/// message.bindObserver(label) { [weak label] in label?.text = $0 }
/// message.value = "Hello"  // sets the label's text while the label lives
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
public final class Observable<Value> {
  @usableFromInline struct Entry {
    @usableFromInline weak var observer: AnyObject?
    @usableFromInline let closure: (Value) -> Void

    @inlinable init(observer: AnyObject, closure: @escaping (Value) -> Void) {
      self.observer = observer
      self.closure = closure
    }
  }

  @usableFromInline var entries: [Entry] = []

  /// The current value. Setting it calls the closure of each entry whose observer is alive,
  /// with the value read again at its turn: a closure before it may have set another.
  ///
  /// Entries are visited in binding order. Those whose observer is gone are skipped, but stay
  /// stored.
  ///
  /// - Complexity: O(*n*), where *n* is ``observerCount``, dead entries included.
  @inlinable public var value: Value {
    get { storedValue }
    set {
      storedValue = newValue
      notifyObservers()
    }
  }

  @usableFromInline var storedValue: Value

  /// The number of entries stored, those of deallocated observers included.
  public var observerCount: Int { entries.count }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value. Observers are not called for it.
  public init(_ value: Value) {
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
  @inlinable public func bindObserver(_ observer: AnyObject, closure: @escaping (Value) -> Void) {
    entries.removeAll { $0.observer == nil }
    entries.append(Entry(observer: observer, closure: closure))
  }

  @inlinable func notifyObservers() {
    for entry in entries where entry.observer != nil {
      entry.closure(value)
    }
  }
}
