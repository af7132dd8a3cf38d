import Foundation
import KeepingScoreKit
import Testing

/// A rule of thumb of a reader who answers from the question alone, without the chapter: a
/// number for each choice, and whether the reader takes the choice with the most or the fewest.
struct RuleOfThumb: Sendable, CustomStringConvertible {
  let description: String
  let measure: @Sendable (_ question: Question, _ choice: String) -> Int
  let takesMost: Bool

  /// How many questions of `questions` the rule answers right. A tie among the choices it would
  /// take counts as a guess among them: 1 in 2 for a tie of two.
  func score(_ questions: [Question]) -> Double {
    questions.reduce(0) { total, question in
      let measures = question.choices.map { measure(question, $0) }
      let best = takesMost ? measures.max()! : measures.min()!
      let taken = measures.indices.filter { measures[$0] == best }
      return total + (taken.contains(0) ? 1 / Double(taken.count) : 0)
    }
  }
}

/// The lowercased words of `text`, apostrophes kept ("screen's").
private func words(_ text: String) -> [String] {
  text.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init)
}

/// Words that soften a claim: a distractor is often the half-truth with a "but only".
private let hedges: Set<String> = [
  "only", "but", "may", "might", "can", "could", "some", "usually", "often", "perhaps", "unless",
  "until", "if", "except", "while", "once", "though", "as", "like",
]

/// Words that make a claim absolute: test-wise readers avoid "always" and "never".
private let absolutes: Set<String> = [
  "always", "never", "every", "all", "nothing", "none", "any", "whoever", "whichever", "no", "not",
  "ever",
]

/// Words of a choice that look like code: punctuation of Swift, a digit, or a camel-case name.
private func technicalWords(_ text: String) -> Int {
  text.split(separator: " ").filter { word in
    word.contains { "().@:_`[]{}<>=&$#\\/".contains($0) || $0.isNumber }
      || zip(word, word.dropFirst()).contains { $0.isLowercase && $1.isUppercase }
  }.count
}

/// The words a choice shares with the question as shown: its prompt, and its code.
private func echoes(_ question: Question, _ choice: String) -> Int {
  meaningfulWords(choice).intersection(
    meaningfulWords(question.prompt + " " + (question.code ?? ""))
  )
  .count
}

/// The words a choice shares with the other choices: the "right answer is the one the others
/// vary" rule.
private func sharedWithOthers(_ question: Question, _ choice: String) -> Int {
  question.choices.filter { $0 != choice }.map {
    meaningfulWords(choice).intersection(meaningfulWords($0)).count
  }.reduce(0, +)
}

/// What the rules measure, each named.
private let measures: [(name: String, measure: @Sendable (Question, String) -> Int)] = [
  ("characters", { _, choice in choice.count }),
  ("words shared with the question", { echoes($0, $1) }),
  ("hedging words", { _, choice in words(choice).filter(hedges.contains).count }),
  ("absolute words", { _, choice in words(choice).filter(absolutes.contains).count }),
  ("words that look like code", { _, choice in technicalWords(choice) }),
  ("words shared with the other choices", { sharedWithOthers($0, $1) }),
]

/// Each rule both ways: a rule that scores far below chance is a tell too, read backwards.
private let rules = measures.flatMap { name, measure in
  [
    RuleOfThumb(description: "the most \(name)", measure: measure, takesMost: true),
    RuleOfThumb(description: "the fewest \(name)", measure: measure, takesMost: false),
  ]
}

@Suite("Keeping score: a reader who reads only the question does no better than chance")
struct BlindReaderTests {
  /// Every question, and what a blind guess scores on them, with its standard deviation.
  private static let questions = QuestionGroup.all.flatMap(\.questions)
  private static let chance = questions.map { 1 / Double($0.choices.count) }.reduce(0, +)
  private static let deviation = questions.map {
    1 / Double($0.choices.count) * (1 - 1 / Double($0.choices.count))
  }.reduce(0, +).squareRoot()

  // A reader who guesses at random scores `chance`, give or take `deviation` in two games out of
  // three (62 questions of three choices: 20.7 ± 3.7). A rule of thumb may stray as far as that
  // luck, no further, either way: further up, it beats chance; further down, its opposite does.
  @Test("no rule of thumb strays from chance by more than a blind guesser's luck", arguments: rules)
  func ruleScoresChance(rule: RuleOfThumb) {
    let questions = Self.questions
    let score = rule.score(questions)
    let text = String(
      format: "%.1f of %d (chance %.1f ± %.1f)", score, questions.count, Self.chance,
      Self.deviation)
    #expect(abs(score - Self.chance) <= Self.deviation, "taking \(rule): \(text)")
  }

  @Test("the rules of thumb see what they are meant to")
  func rulesMeasure() {
    #expect(technicalWords("calls addObserver(_:) with .initial at 0") == 3)
    #expect(words("it stays, but only until the screen's gone").filter(hedges.contains).count == 3)
    let question = Question(
      prompt: "How does a handler reach its owner?", code: nil,
      rightAnswer: "the owner is a parameter",
      wrongAnswers: ["a weak capture", "a strong capture"],
      explanation: "")
    #expect(echoes(question, "the owner is a parameter") == 1)
    #expect(sharedWithOthers(question, "a weak capture") == 1)
    let longest = RuleOfThumb(description: "", measure: { $1.count }, takesMost: true)
    #expect(longest.score([question]) == 1)
    let tied = Question(
      prompt: "?", code: nil, rightAnswer: "ab", wrongAnswers: ["cd", "e"], explanation: "")
    #expect(longest.score([tied]) == 0.5)
  }
}
