import Support

/// The result of one game: how many answers were right, out of how many questions.
package struct Score: Codable, Equatable, Sendable, CustomStringConvertible {
  package var correct: Int
  package var total: Int

  package init(correct: Int, total: Int) {
    self.correct = correct
    self.total = total
  }

  /// Whether the numbers can be a real score: none negative, no more right answers than
  /// questions.
  package var isPlausible: Bool { correct >= 0 && total >= 0 && correct <= total }

  /// "2 of 3"
  package var description: String { "\(correct) of \(total)" }
}

/// The latest score of each question group, by the group's number.
package struct Scores: Equatable, Sendable {
  package var byGroup: [TutorialChapter.Number: Score]

  package init(_ byGroup: [TutorialChapter.Number: Score] = [:]) {
    self.byGroup = byGroup
  }

  /// The latest score of group `number`, or `nil` if it was never played to the end.
  package subscript(group number: TutorialChapter.Number) -> Score? {
    get { byGroup[number] }
    set { byGroup[number] = newValue }
  }
}
