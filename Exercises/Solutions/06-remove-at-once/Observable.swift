/// A value with weakly held observers, option sets and automatic removal, whose removal takes
/// effect at once.
///
/// Each observer is an object, held weakly, with the options it asked for and a closure.
/// Setting ``value`` first drops the callbacks whose observer is gone, then calls the others
/// from a snapshot, a copy of the list taken before the first call. An observer can leave with
/// ``removeObserver(_:)``, and by default adding an observer again replaces its earlier
/// callbacks.
///
/// A callback removed during a notification, by the closure of a callback called before it, is
/// still in the snapshot; it is not called all the same, because each callback is looked up in
/// the list just before its turn.
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
package final class Observable<Value> {
  private struct Callback {
    /// Tells this callback apart from every other, even another of the same observer.
    let id: Int
    weak var observer: AnyObject?
    let options: ObservableOptions
    let closure: (Value, ObservableOptions) -> Void
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
  ///     first set after it is deallocated.
  ///   - removeIfExists: Whether to remove the observer's earlier callbacks first.
  ///   - options: Which values to receive: `.initial`, `.old`, `.new`.
  ///   - closure: Called with a value and the option it answers. Capture `observer` weakly in
  ///     it, or it never dies.
  /// - Complexity: O(*n*), where *n* is ``observerCount``, when `removeIfExists` is `true`.
  package func addObserver(
    _ observer: AnyObject,
    removeIfExists: Bool = true,
    options: ObservableOptions = [.new],
    closure: @escaping (Value, ObservableOptions) -> Void
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
  package func removeObserver(_ observer: AnyObject) {
    callbacks = callbacks.filter { $0.observer !== observer }
  }

  private func removeCallbacksOfReleasedObservers() {
    callbacks = callbacks.filter { $0.observer != nil }
  }

  private func notify(_ snapshot: [Callback], of value: Value, option: ObservableOptions) {
    // The fix: the snapshot is a copy, so removing from `callbacks` does not change it. Each
    // callback is looked up in `callbacks` when its turn comes, and skipped once it is gone.
    // (The `where` clause is evaluated just before each call, not all at once.) The look-up
    // costs O(n); chapter 5 does the same check in O(1), with a flag on each entry.
    for callback in snapshot where callback.options.contains(option) && isStored(callback) {
      callback.closure(value, option)
    }
  }

  private func isStored(_ callback: Callback) -> Bool {
    callbacks.contains { $0.id == callback.id }
  }
}
