/// A value with weakly held observers, option sets and immediate removal: exercise 6's answer,
/// which is yours to make `Sendable`.
///
/// Each observer is an object, held weakly, with the options it asked for and a closure.
/// Setting ``value`` first drops the callbacks whose observer is gone, then calls the others
/// from a snapshot, a copy of the list taken before the first call. A callback removed during
/// a notification is still in the snapshot, but is not called: each callback is looked up in
/// the list just before its turn. An observer can leave with ``removeObserver(_:)``, and by
/// default adding an observer again replaces its earlier callbacks.
///
/// The values, the observers and the closures are already `Sendable`, so that they may cross
/// threads. The observable itself is not: its state is plain stored properties, with no lock,
/// and two threads using it at once would corrupt it.
///
/// ```swift
/// let name = Observable("Madeline")
/// name.addObserver(observer, options: [.initial, .new]) { name, _ in
///   print("User's name is \(name)")
/// }  // prints "User's name is Madeline"
/// name.value = "Amelia"  // prints "User's name is Amelia"
/// ```
///
/// `Observable` is not `Sendable`: use it from one thread only.
package final class Observable<Value: Sendable> {
  // TODO: Make `Observable` `Sendable`, so that threads may share it: guard its state with a
  // `Mutex` from the Synchronization module. Never hold the lock while a closure runs: a
  // closure may read the value, add or remove observers, or set the value. Nor while the
  // `.initial` call runs, or a removed callback is freed: what its closure captured may use the
  // observable in its deinit. A callback removed during a notification must still not be called
  // for it.

  private struct Callback {
    /// Tells this callback apart from every other, even another of the same observer.
    let id: Int
    weak var observer: (AnyObject & Sendable)?
    let options: ObservableOptions
    let closure: @Sendable (Value, ObservableOptions) -> Void
  }

  private var callbacks: [Callback] = []
  private var lastID = 0

  /// The current value.
  ///
  /// Setting it first drops the callbacks whose observer is gone, then calls
  /// `closure(oldValue, .old)` on the callbacks that asked for `.old`, then
  /// `closure(newValue, .new)` on those that asked for `.new`, each in the order they were added.
  /// A callback removed during the notification is not called for the rest of it.
  ///
  /// - Complexity: O(*n*²), where *n* is ``observerCount``: each callback is looked up in the
  ///   list before its call.
  package var value: Value {
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

  private var storedValue: Value

  /// The number of callbacks stored, those of deallocated observers included until the next set.
  package var observerCount: Int { callbacks.count }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value.
  package init(_ value: Value) {
    storedValue = value
  }

  /// Adds a callback for `observer`, held weakly, with the options it asks for.
  ///
  /// With `.initial` in `options`, `closure` is called at once with `(value, .initial)`.
  ///
  /// - Parameters:
  ///   - observer: The object whose lifetime bounds the callback. Its callbacks go with the
  ///     first set after it is deallocated. It must be `Sendable`: the observable keeps a weak
  ///     reference to it, which other threads may read.
  ///   - removeIfExists: Whether to remove the observer's earlier callbacks first.
  ///   - options: Which values to receive: `.initial`, `.old`, `.new`.
  ///   - closure: Called with a value and the option it answers, on the thread that sets the
  ///     value. Capture `observer` weakly in it, or it never dies.
  /// - Complexity: O(*n*), where *n* is ``observerCount``, when `removeIfExists` is `true`.
  package func addObserver(
    _ observer: AnyObject & Sendable,
    removeIfExists: Bool = true,
    options: ObservableOptions = [.new],
    closure: @escaping @Sendable (Value, ObservableOptions) -> Void
  ) {
    if removeIfExists {
      removeObserver(observer)
    }
    lastID += 1
    callbacks.append(
      Callback(id: lastID, observer: observer, options: options, closure: closure))
    if options.contains(.initial) {
      closure(value, .initial)
    }
  }

  /// Removes every callback of `observer`; an observer with none is ignored.
  ///
  /// Once it returns, those callbacks are not called again, not even later in a notification
  /// that is under way.
  ///
  /// - Parameter observer: The object the callbacks were added for.
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  package func removeObserver(_ observer: AnyObject & Sendable) {
    callbacks = callbacks.filter { $0.observer !== observer }
  }

  private func removeCallbacksOfReleasedObservers() {
    callbacks = callbacks.filter { $0.observer != nil }
  }

  private func notify(_ snapshot: [Callback], of value: Value, option: ObservableOptions) {
    // Removing from `callbacks` does not change the snapshot, a copy: each callback is looked
    // up in `callbacks` when its turn comes, and skipped once it is gone.
    for callback in snapshot where callback.options.contains(option) && isStored(callback) {
      callback.closure(value, option)
    }
  }

  private func isStored(_ callback: Callback) -> Bool {
    callbacks.contains { $0.id == callback.id }
  }
}
