/// What an observer of an ``Observable`` asks for beyond the changes themselves.
///
/// Old and new values come in every ``Change``, so the only option left from stage 4 is
/// ``initial``.
public struct ObservableOptions: OptionSet, Hashable, Sendable {
  /// Deliver the current value once, as a ``Change/Kind/initial`` change, when subscribing.
  public static let initial = ObservableOptions(rawValue: 1 << 0)

  /// The options as bits.
  public let rawValue: Int

  /// Creates options from their bits.
  ///
  /// - Parameter rawValue: Bits as in ``rawValue``.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }
}
