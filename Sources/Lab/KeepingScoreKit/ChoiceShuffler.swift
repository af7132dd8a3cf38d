import Support

/// Shuffles each question's choices, so that the right answer's place changes from game to
/// game and tells nothing.
///
/// The shuffle is this file's own Fisher–Yates over ``SeededRandom``, not the standard library's
/// `shuffled(using:)`, whose algorithm is not promised to stay the same: with a seed, the same
/// order comes back on every platform and toolchain, which the tutorial's transcript and the
/// tests rely on.
package final class ChoiceShuffler {
  private var random: SeededRandom

  /// A shuffler that repeats its orders when given the same `seed`; without one, random.
  package init(seed: UInt64? = nil) {
    var system = SystemRandomNumberGenerator()
    random = SeededRandom(seed: seed ?? system.next())
  }

  /// The choices of `question` in the order a game shows them, and where the right one is.
  package func shuffle(_ question: Question) -> (choices: [String], answer: Int) {
    var order = Array(question.choices.indices)
    for last in order.indices.dropFirst().reversed() {
      // A modulo of at most 6 choices from 64 bits: its bias is below 1 in 2⁶⁰.
      order.swapAt(last, Int(random.next() % UInt64(last + 1)))
    }
    return (order.map { question.choices[$0] }, order.firstIndex(of: 0) ?? 0)
  }
}
