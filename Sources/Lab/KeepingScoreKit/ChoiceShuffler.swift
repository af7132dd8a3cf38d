import Support

/// Shuffles each question's choices, so that the right answer's place changes from game to
/// game and tells nothing.
///
/// Each group is shuffled from a generator of its own, seeded with the seed mixed with the
/// group's number: with one seed, the right letters of chapter 3 tell nothing of chapter 5's
/// (drawn from one stream started afresh for every game, every group began with the same
/// letters). The shuffle is this file's own Fisher–Yates over ``SeededRandom``, not the standard
/// library's `shuffled(using:)`, whose algorithm is not promised to stay the same: with a seed,
/// the same order comes back on every platform and toolchain, which the tutorial's transcript
/// and the tests rely on.
package struct ChoiceShuffler: Sendable {
  private let seed: UInt64?

  /// A shuffler that repeats its orders when given the same `seed`; without one, random.
  package init(seed: UInt64? = nil) { self.seed = seed }

  /// The choices of each question of `group` in the order a game shows them, and where the
  /// right one is.
  package func shuffle(_ group: QuestionGroup) -> [(choices: [String], answer: Int)] {
    var system = SystemRandomNumberGenerator()
    var random = SeededRandom(seed: seed.map { Self.mix($0, with: group.number) } ?? system.next())
    return group.questions.map { question in
      var order = Array(question.choices.indices)
      for last in order.indices.dropFirst().reversed() {
        // A modulo of at most 6 choices from 64 bits: its bias is below 1 in 2⁶⁰.
        order.swapAt(last, Int(random.next() % UInt64(last + 1)))
      }
      return (order.map { question.choices[$0] }, order.firstIndex(of: 0) ?? 0)
    }
  }

  /// `seed` mixed with the group's number as it is written ("5c"), through FNV-1a and one step
  /// of ``SeededRandom``: seeds and groups next to each other give unrelated numbers.
  package static func mix(_ seed: UInt64, with number: TutorialChapter.Number) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in number.description.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
    }
    var mixer = SeededRandom(seed: seed ^ hash)
    return mixer.next()
  }
}
