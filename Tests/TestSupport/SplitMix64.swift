/// A small, seeded pseudo-random generator (SplitMix64), so that every run of a generated test
/// checks the same cases and a failure names the seed that reproduces it.
package struct SplitMix64: RandomNumberGenerator {
  package var state: UInt64

  /// A generator that starts from `state`, the seed.
  package init(state: UInt64) { self.state = state }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
