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

/// The latest score of each question group, by the group's number.
public struct Scores: Equatable, Sendable {
  /// The latest score of each group played, by group number.
  public var byGroup: [Int: Score]

  /// Creates a set of scores.
  ///
  /// - Parameter byGroup: The latest score of each group played, by group number.
  public init(_ byGroup: [Int: Score] = [:]) {
    self.byGroup = byGroup
  }

  /// The latest score of group `number`, or `nil` if it was never played to the end.
  public subscript(group number: Int) -> Score? {
    get { byGroup[number] }
    set { byGroup[number] = newValue }
  }
}
