/// A value with named listeners and a setter action, after `Listenable` in the Yep app.
///
/// The listeners live in a `Set` whose members are equal when their names are equal. That
/// gives the opposite collision to ``Observable``: binding a name that is already bound leaves
/// the first listener in place and silently drops the new one, because `Set.insert` keeps the
/// member it already has. That is today's `Set.insert`: Swift 2's, which Yep was written for,
/// replaced an equal member, so there the newcomer won, as in the dictionary.
///
/// Every set first runs the setter action, which the blog post this port follows used to
/// persist the logged-in user, and then every listener, in the set's unspecified order.
///
/// Listeners that set the value they listen to, directly or through each other, call each
/// other for ever: nothing here stops such a loop. As in Yep's `didSet`, each listener is handed
/// ``value`` read again at its turn, so after a listener sets the value, the listeners the old
/// round had still to call receive the newer value a second time and never the one it started
/// with.
///
/// ```swift
/// let score = Listenable(0) { saved = $0 }
/// score.bindAndFireListener(name: "ScoreLabel") { print("score: \($0)") }  // prints "score: 0"
/// score.value = 3  // saves 3, then prints "score: 3"
/// ```
///
/// `Listenable` is not `Sendable`: use it from one thread only.
public final class Listenable<Value> {
  private struct Listener: Hashable {
    let name: String
    let action: (Value) -> Void

    static func == (lhs: Listener, rhs: Listener) -> Bool { lhs.name == rhs.name }

    func hash(into hasher: inout Hasher) { hasher.combine(name) }
  }

  private let setterAction: (Value) -> Void
  private var listeners: Set<Listener> = []

  /// The current value. Setting it runs the setter action, then every listener, each with the
  /// value read again at its turn.
  ///
  /// - Complexity: O(*n*), where *n* is ``listenerCount``.
  public var value: Value {
    didSet {
      setterAction(value)
      for listener in listeners {
        listener.action(value)
      }
    }
  }

  /// The number of listeners bound.
  public var listenerCount: Int { listeners.count }

  /// Creates a listenable holding `value`.
  ///
  /// - Parameters:
  ///   - value: The initial value. Neither the setter action nor any listener runs for it.
  ///   - setterAction: Runs with the new value on every set, before the listeners.
  public init(_ value: Value, setterAction: @escaping (Value) -> Void = { _ in }) {
    self.value = value
    self.setterAction = setterAction
  }

  /// Binds a listener under `name`; it runs whenever the value is set.
  ///
  /// If `name` is already bound, the new listener is silently dropped and the old one stays.
  ///
  /// - Parameters:
  ///   - name: The listener's name, used to remove it later.
  ///   - action: Called with the new value after every set.
  /// - Complexity: O(1) on average.
  public func bindListener(name: String, action: @escaping (Value) -> Void) {
    listeners.insert(Listener(name: name, action: action))
  }

  /// Binds a listener under `name`, then calls `action` at once with the current value.
  ///
  /// The action is called even when `name` was already bound and the listener was dropped.
  ///
  /// - Parameters:
  ///   - name: The listener's name, used to remove it later.
  ///   - action: Called now with the current value, and after every set.
  public func bindAndFireListener(name: String, action: @escaping (Value) -> Void) {
    bindListener(name: name, action: action)
    action(value)
  }

  /// Removes the listener bound under `name`; an unknown name is ignored.
  ///
  /// - Parameter name: The name the listener was bound under.
  /// - Complexity: O(1) on average.
  public func removeListener(name: String) {
    listeners.remove(Listener(name: name, action: { _ in }))
  }

  /// Removes every listener.
  public func removeAllListeners() {
    listeners.removeAll()
  }
}
