/// What an observer of an ``Observable`` asks to be told, after KVO's `NSKeyValueObservingOptions`.
///
/// Combine them in an array literal: `[.initial, .new]`.
package struct ObservableOptions: OptionSet, Hashable, Sendable {
  /// Call the closure once, at once, with the current value, when the observer is added.
  package static let initial = ObservableOptions(rawValue: 1 << 0)
  /// On every set, call the closure with the value being replaced.
  package static let old = ObservableOptions(rawValue: 1 << 1)
  /// On every set, call the closure with the new value.
  package static let new = ObservableOptions(rawValue: 1 << 2)

  /// The options as bits: `initial` is 1, `old` is 2, `new` is 4.
  package let rawValue: Int

  /// Creates options from their bits.
  ///
  /// - Parameter rawValue: Bits as in ``rawValue``.
  package init(rawValue: Int) {
    self.rawValue = rawValue
  }
}
