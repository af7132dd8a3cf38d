/// The result of one game: how many answers were right, out of how many questions.
public struct Score: Codable, Equatable, Sendable, CustomStringConvertible {
  /// Answers that were right.
  public var correct: Int
  /// Questions asked.
  public var total: Int

  /// Creates a score.
  ///
  /// - Parameters:
  ///   - correct: Answers that were right.
  ///   - total: Questions asked.
  public init(correct: Int, total: Int) {
    self.correct = correct
    self.total = total
  }

  /// Whether the numbers can be a real score: none negative, no more right answers than
  /// questions.
  public var isPlausible: Bool { correct >= 0 && total >= 0 && correct <= total }

  /// "2 of 3"
  public var description: String { "\(correct) of \(total)" }
}
