import Synchronization

/// A value with weakly held observers, option sets and immediate removal, that threads may
/// share.
///
/// Each observer is an object, held weakly, with the options it asked for and a closure.
/// Setting ``value`` first drops the callbacks whose observer is gone, then calls the others
/// from a snapshot, a copy of the list taken before the first call. A callback removed during
/// a notification is still in the snapshot, but is not called: each callback is looked up in
/// the list just before its turn. An observer can leave with ``removeObserver(_:)``, and by
/// default adding an observer again replaces its earlier callbacks.
///
/// Its state sits behind a `Mutex`, so any thread may read and set the value, add and remove
/// observers. No closure runs while the lock is held, so a closure may do all of that too.
/// What it does not do: two threads that set the value at once notify at once, so closures may
/// run on two threads at a time, and an observer may be told of the two values in either
/// order. Chapter 5's stage 5 adds a queue for that.
///
/// ```swift
/// let name = Observable("Madeline")
/// name.addObserver(observer, options: [.initial, .new]) { name, _ in
///   print("User's name is \(name)")
/// }  // prints "User's name is Madeline"
/// name.value = "Amelia"  // prints "User's name is Amelia"
/// ```
package final class Observable<Value: Sendable>: Sendable {
  private struct Callback: Sendable {
    /// Tells this callback apart from every other, even another of the same observer.
    let id: Int
    weak var observer: (AnyObject & Sendable)?
    let options: ObservableOptions
    let closure: @Sendable (Value, ObservableOptions) -> Void
  }

  // The fix: everything that changes lives in one struct, and the `Mutex` hands it out only
  // while it is locked, to one thread at a time. Each method takes what it needs under the
  // lock, lets go, and only then calls closures: a closure that reads the value, or sets it,
  // asks for the lock again, and `Mutex` stops the program on a lock its thread already holds.
  private struct State {
    var value: Value
    var callbacks: [Callback] = []
    var lastID = 0

    /// Takes the callbacks of `observer` out of the list, and returns them, so that the caller
    /// releases them once the lock is let go.
    mutating func removeCallbacks(of observer: AnyObject & Sendable) -> [Callback] {
      let removed = callbacks.filter { $0.observer === observer }
      callbacks.removeAll { $0.observer === observer }
      return removed
    }
  }

  private let state: Mutex<State>

  /// The current value; get and set it from any thread.
  ///
  /// Setting it first drops the callbacks whose observer is gone, then calls
  /// `closure(oldValue, .old)` on the callbacks that asked for `.old`, then
  /// `closure(newValue, .new)` on those that asked for `.new`, each in the order they were added,
  /// on the setting thread. A callback removed during the notification is not called for the
  /// rest of it.
  ///
  /// - Complexity: O(*n*²), where *n* is ``observerCount``: each callback is looked up in the
  ///   list before its call.
  package var value: Value {
    get { state.withLock { $0.value } }
    set {
      let (oldValue, snapshot) = state.withLock { state in
        let oldValue = state.value
        state.value = newValue
        // Taken before the dead callbacks are dropped, so that they leave with the snapshot,
        // once the lock is let go: releasing a closure may run a deinit, which may use this
        // observable. No longer stored, they are skipped all the same.
        let snapshot = state.callbacks
        state.callbacks.removeAll { $0.observer == nil }
        return (oldValue, snapshot)
      }
      notify(snapshot, of: oldValue, option: .old)
      notify(snapshot, of: newValue, option: .new)
    }
  }

  /// The number of callbacks stored, those of deallocated observers included until the next set.
  package var observerCount: Int { state.withLock { $0.callbacks.count } }

  /// Creates an observable holding `value`, with no observers.
  ///
  /// - Parameter value: The initial value.
  package init(_ value: Value) {
    state = Mutex(State(value: value))
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
    // The callbacks this replaces come out of the lock, and are dropped here, after it.
    let (currentValue, _) = state.withLock { state in
      let replaced = removeIfExists ? state.removeCallbacks(of: observer) : []
      state.lastID += 1
      state.callbacks.append(
        Callback(id: state.lastID, observer: observer, options: options, closure: closure))
      return (state.value, replaced)
    }
    if options.contains(.initial) {
      closure(currentValue, .initial)
    }
  }

  /// Removes every callback of `observer`; an observer with none is ignored.
  ///
  /// Once it returns, those callbacks are not called again by this thread, not even later in a
  /// notification that is under way on it.
  ///
  /// - Parameter observer: The object the callbacks were added for.
  /// - Complexity: O(*n*), where *n* is ``observerCount``.
  package func removeObserver(_ observer: AnyObject & Sendable) {
    // The removed callbacks come out of the lock, and are dropped here, after it.
    _ = state.withLock { $0.removeCallbacks(of: observer) }
  }

  private func notify(_ snapshot: [Callback], of value: Value, option: ObservableOptions) {
    // Each callback is looked up under the lock just before its turn; the lock is let go
    // before its closure runs.
    for callback in snapshot where callback.options.contains(option) && isStored(callback) {
      callback.closure(value, option)
    }
  }

  private func isStored(_ callback: Callback) -> Bool {
    state.withLock { state in state.callbacks.contains { $0.id == callback.id } }
  }
}
