/// What an observer of an ``Observable`` asks to be told, after KVO's `NSKeyValueObservingOptions`.
///
/// Combine them in an array literal: `[.initial, .new]`.
public struct ObservableOptions: OptionSet, Hashable, Sendable {
  /// Call the closure once, at once, with the current value, when the observer is added.
  public static let initial = ObservableOptions(rawValue: 1 << 0)
  /// On every set, call the closure with the value being replaced.
  public static let old = ObservableOptions(rawValue: 1 << 1)
  /// On every set, call the closure with the new value.
  public static let new = ObservableOptions(rawValue: 1 << 2)

  /// The options as bits: `initial` is 1, `old` is 2, `new` is 4.
  public let rawValue: Int

  /// Creates options from their bits.
  ///
  /// - Parameter rawValue: Bits as in ``rawValue``.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }
}
