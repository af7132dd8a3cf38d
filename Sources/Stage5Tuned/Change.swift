/// One delivery to an observer: the value it is told about, and the one before it.
public struct Change<Value: Sendable>: Sendable {
  /// Why the observer is told.
  public enum Kind: Sendable, Hashable {
    /// The value when the observer subscribed, because it asked for ``ObservableOptions/initial``.
    case initial
    /// The value was set.
    case update
  }

  /// Why the observer is told.
  public let kind: Kind
  /// The value that was replaced; `nil` for an ``Kind/initial`` delivery.
  public let oldValue: Value?
  /// The value now.
  public let newValue: Value

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - kind: Why the observer is told.
  ///   - oldValue: The value that was replaced, or `nil` for an initial delivery.
  ///   - newValue: The value now.
  public init(kind: Kind, oldValue: Value?, newValue: Value) {
    self.kind = kind
    self.oldValue = oldValue
    self.newValue = newValue
  }
}

extension Change: Equatable where Value: Equatable {}

extension Change: Hashable where Value: Hashable {}
