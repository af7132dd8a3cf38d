/// A value with weakly held observers, option sets and automatic removal, whose nested sets
/// wait their turn.
///
/// Each observer is an object, held weakly, with the options it asked for and a closure.
/// Setting ``value`` first drops the callbacks whose observer is gone, then calls the others
/// from a snapshot, a copy of the list taken before the first call. An observer can leave with
/// ``removeObserver(_:)``, and by default adding an observer again replaces its earlier
/// callbacks.
///
/// A closure may set the value during a notification. That set is queued, and delivered once
/// every observer has been told of the value before it, so every observer is told of the
/// values in the order they were set, and ends on the latest.
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
    weak var observer: AnyObject?
    let options: ObservableOptions
    let closure: (Value, ObservableOptions) -> Void
  }

  private var callbacks: [Callback] = []
  /// The changes waiting to be delivered, oldest first, each with the value it replaced.
  private var pendingChanges: [(oldValue: Value, newValue: Value)] = []
  private var isNotifying = false

  /// The current value.
  ///
  /// Setting it first drops the callbacks whose observer is gone, then calls
  /// `closure(oldValue, .old)` on the callbacks that asked for `.old`, then
  /// `closure(newValue, .new)` on those that asked for `.new`, each in the order they were added,
  /// over the callbacks stored before the first call. A value set by a closure while this is
  /// under way waits until every observer has been told of this one, then is delivered the same
  /// way.
  ///
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  package var value: Value {
    get { storedValue }
    set {
      // The fix: every set queues its change. A set made while a notification is under way
      // (from inside a closure) stops there; the loop further up the stack reaches its change
      // once every observer has been told of the one before. Breadth first, not depth first.
      pendingChanges.append((oldValue: storedValue, newValue: newValue))
      storedValue = newValue
      guard !isNotifying else { return }
      isNotifying = true
      while !pendingChanges.isEmpty {
        let change = pendingChanges.removeFirst()
        removeCallbacksOfReleasedObservers()
        let snapshot = callbacks
        notify(snapshot, of: change.oldValue, option: .old)
        notify(snapshot, of: change.newValue, option: .new)
      }
      isNotifying = false
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
    callbacks.append(Callback(observer: observer, options: options, closure: closure))
    if options.contains(.initial) {
      closure(value, .initial)
    }
  }

  /// Removes every callback of `observer`; an observer with none is ignored.
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
    let callbacksToNotify = snapshot.filter { $0.options.contains(option) }
    for callback in callbacksToNotify {
      callback.closure(value, option)
    }
  }
}
