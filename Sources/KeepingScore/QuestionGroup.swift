/// A question with three choices, one of them right.
public struct Question: Sendable {
  /// The question asked.
  public var prompt: String
  /// The choices, shown as a), b) and c).
  public var choices: [String]
  /// The index in ``choices`` of the right answer.
  public var answer: Int

  /// Creates a question.
  ///
  /// - Parameters:
  ///   - prompt: The question asked.
  ///   - choices: The choices, shown as a), b) and c).
  ///   - answer: The index in `choices` of the right answer.
  public init(_ prompt: String, choices: [String], answer: Int) {
    self.prompt = prompt
    self.choices = choices
    self.answer = answer
  }
}

/// A named group of questions, played as one game, as on the book's "Select Question Group"
/// screen.
public struct QuestionGroup: Sendable {
  /// The group's title.
  public var title: String
  /// Its questions, asked in order.
  public var questions: [Question]

  /// Creates a group.
  ///
  /// - Parameters:
  ///   - title: The group's title.
  ///   - questions: Its questions, asked in order.
  public init(title: String, questions: [Question]) {
    self.title = title
    self.questions = questions
  }

  /// The questions the app asks: about the observer pattern itself.
  public static let observerPattern = QuestionGroup(
    title: "The observer pattern",
    questions: [
      Question(
        "Which object is being observed?", choices: ["the observer", "the subject", "the closure"],
        answer: 1),
      Question(
        "What does stage 1 have no way to do?",
        choices: ["call its observers", "store a closure", "remove an observer"], answer: 2),
      Question(
        "What keeps a weakly held observer alive for ever?",
        choices: ["a closure that captures it strongly", "a second observer", "the .new option"],
        answer: 0),
    ])
}
