/// A value with weakly held observers, option sets and automatic removal, after the `Observable`
/// wrapper of *Design Patterns by Tutorials*.
///
/// Each observer is an object, held weakly, with the options it asked for and a closure.
/// Setting ``value`` first drops the callbacks whose observer is gone, so dead entries never
/// outlive the next set. An observer can leave explicitly with ``removeObserver(_:)``, and by
/// default adding an observer again replaces its earlier callbacks.
///
/// ```swift
/// let name = Observable("Madeline")
/// name.addObserver(observer, options: [.initial, .new]) { name, _ in
///   print("User's name is \(name)")
/// }  // prints "User's name is Madeline"
/// name.value = "Amelia"  // prints "User's name is Amelia"
/// ```
///
/// What it still gets wrong: a closure that captures its observer strongly keeps it alive, and
/// so its callback, for ever; callbacks run over a snapshot, so one removed during a
/// notification is still called for it; a value set inside a callback reaches the later
/// observers before the value that caused it; and every set, add and remove copies the
/// callback array.
///
/// `Observable` is not `Sendable`: use it from one thread only.
public final class Observable<Value> {
  @usableFromInline struct Callback {
    @usableFromInline weak var observer: AnyObject?
    @usableFromInline let options: ObservableOptions
    @usableFromInline let closure: (Value, ObservableOptions) -> Void

    @inlinable init(
      observer: AnyObject, options: ObservableOptions,
      closure: @escaping (Value, ObservableOptions) -> Void
    ) {
      self.observer = observer
      self.options = options
      self.closure = closure
    }
  }

  @usableFromInline var callbacks: [Callback] = []

  /// The current value.
  ///
  /// Setting it first drops the callbacks whose observer is gone, then calls
  /// `closure(oldValue, .old)` on the callbacks that asked for `.old`, then
  /// `closure(newValue, .new)` on those that asked for `.new`, each in the order they were added,
  /// over the callbacks stored before the first call.
  ///
  /// - Complexity: O(*n*), where *n* is ``observerCount``; it allocates new arrays on every set.
  @inlinable public var value: Value {
    get { storedValue }
    set {
      let oldValue = storedValue
      storedValue = newValue
      removeCallbacksOfReleasedObservers()
      let snapshot = callbacks
      notify(snapshot, of: oldValue, option: .old)
      notify(snapshot, of: newValue, option: .new)
    }
  }

  @usableFromInline var storedValue: Value

  /// The number of callbacks stored, those of deallocated observers included until the next set.
  public var observerCount: Int { callbacks.count }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value.
  public init(_ value: Value) {
    storedValue = value
  }

  /// Adds a callback for `observer`, held weakly, with the options it asks for.
  ///
  /// With `.initial` in `options`, `closure` is called at once with `(value, .initial)`.
  ///
  /// - Parameters:
  ///   - observer: The object whose lifetime bounds the callback. Its callbacks go with the
  ///     first set after it is deallocated.
  ///   - removeIfExists: Whether to remove the observer's earlier callbacks first.
  ///   - options: Which values to receive: `.initial`, `.old`, `.new`.
  ///   - closure: Called with a value and the option it answers. Capture `observer` weakly in
  ///     it, or it never dies.
  /// - Complexity: O(*n*), where *n* is ``observerCount``, when `removeIfExists` is `true`.
  @inlinable public func addObserver(
    _ observer: AnyObject,
    removeIfExists: Bool = true,
    options: ObservableOptions = [.new],
    closure: @escaping (Value, ObservableOptions) -> Void
  ) {
    if removeIfExists {
      removeObserver(observer)
    }
    callbacks.append(Callback(observer: observer, options: options, closure: closure))
    if options.contains(.initial) {
      closure(value, .initial)
    }
  }

  /// Removes every callback of `observer`; an observer with none is ignored.
  ///
  /// - Parameter observer: The object the callbacks were added for.
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  @inlinable public func removeObserver(_ observer: AnyObject) {
    callbacks = callbacks.filter { $0.observer !== observer }
  }

  @inlinable func removeCallbacksOfReleasedObservers() {
    callbacks = callbacks.filter { $0.observer != nil }
  }

  @inlinable func notify(_ snapshot: [Callback], of value: Value, option: ObservableOptions) {
    let callbacksToNotify = snapshot.filter { $0.options.contains(option) }
    for callback in callbacksToNotify {
      callback.closure(value, option)
    }
  }
}
