/// The same numbers from the same seed, on every platform and toolchain: SplitMix64.
///
/// What the workshop's generated programs, the quiz's shuffle and the generated tests draw
/// from. The standard library's own algorithms over a generator (`shuffled(using:)`,
/// `Int.random(in:using:)`) are not promised to stay the same; ``pick(_:)`` is this type's own.
package struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator that draws from `seed`.
  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A number in `range`, drawn without the standard library's algorithm, which may change.
  package mutating func pick(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// Whether a draw with the odds `percent` in 100 came true.
  package mutating func chance(_ percent: Int) -> Bool { pick(1...100) <= percent }
}
