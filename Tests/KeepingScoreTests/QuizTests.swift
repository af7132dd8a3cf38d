import Foundation
import KeepingScore
import Synchronization
import Testing

/// What a snippet printed, line by line.
private final class Printed: Sendable {
  private let lines = Mutex<[String]>([])

  /// The `print` a snippet calls.
  var print: @Sendable (Any) -> Void { { item in self.lines.withLock { $0.append("\(item)") } } }

  /// The lines joined as the quiz's choices join them.
  var joined: String { lines.withLock { $0.joined(separator: " / ") } }
}

/// Each chapter's compiled snippet: its file in QuizCode/, and the function to run.
private let snippets:
  [String: (file: String, run: @Sendable (@escaping @Sendable (Any) -> Void) -> Void)] = [
    "1": ("Chapter1.swift", QuizCode.chapter1), "2": ("Chapter2.swift", QuizCode.chapter2),
    "3": ("Chapter3.swift", QuizCode.chapter3), "4": ("Chapter4.swift", QuizCode.chapter4),
    "5": ("Chapter5.swift", QuizCode.chapter5), "5c": ("Chapter5c.swift", QuizCode.chapter5c),
    "6": ("Chapter6.swift", QuizCode.chapter6), "7": ("Chapter7.swift", QuizCode.chapter7),
    "8": ("Chapter8.swift", QuizCode.chapter8), "9": ("Chapter9.swift", QuizCode.chapter9),
  ]

/// The body of the one function in `file`, as written, its indentation removed.
private func body(of file: String) throws -> String {
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("QuizCode").appendingPathComponent(file)
  let lines = try String(contentsOf: url, encoding: .utf8).split(
    separator: "\n", omittingEmptySubsequences: false)
  let start = try #require(lines.firstIndex { $0.hasPrefix("  static func chapter") })
  let end = try #require(lines[start...].firstIndex { $0 == "  }" })
  return lines[(start + 1)..<end].map { String($0.dropFirst(4)) }.joined(separator: "\n")
}

@Suite("Keeping score: the quiz tells nothing but the answer")
struct QuizTests {
  @Test("length tells nothing: the right answer is the longest in ≤ 1 question in 3")
  func lengthTellsNothing() {
    let questions = QuestionGroup.all.flatMap(\.questions)
    // A question's rank: how many of its wrong answers are shorter than the right one, from 0
    // (the right one is the shortest, or tied for it) to all (it is strictly the longest).
    var byRank: [Int: [String]] = [:]
    for question in questions {
      let rank = question.wrongAnswers.filter { $0.count < question.rightAnswer.count }.count
      byRank[rank, default: []].append(question.rightAnswer)
    }
    let longest = questions.filter { question in
      question.wrongAnswers.allSatisfy { $0.count < question.rightAnswer.count }
    }.map(\.rightAnswer)
    #expect(
      longest.count * 3 <= questions.count, "\(longest.count) of \(questions.count): \(longest)")
    for (rank, answers) in byRank {
      #expect(
        answers.count * 5 <= questions.count * 2,
        "rank \(rank): \(answers.count) of \(questions.count): \(answers)")
    }
  }

  @Test("a shuffle shows every choice once, and points at the right one")
  func shuffleIsAPermutation() {
    let shuffler = ChoiceShuffler(seed: testSeed)
    for question in QuestionGroup.all.flatMap(\.questions) {
      let (choices, answer) = shuffler.shuffle(question)
      #expect(choices.sorted() == question.choices.sorted())
      #expect(choices[answer] == question.rightAnswer)
    }
  }

  @Test("in one game the right answer sits at every position, and each question's moves")
  func positionsVary() {
    let questions = QuestionGroup.all.flatMap(\.questions)
    let shuffler = ChoiceShuffler(seed: testSeed)
    let positions = questions.map { shuffler.shuffle($0).answer }
    for position in 0..<3 {
      #expect(positions.contains(position), "never at position \(position): \(positions)")
    }
    for question in questions {
      let seen = Set(
        (0..<64 as Range<UInt64>).map { ChoiceShuffler(seed: $0).shuffle(question).answer })
      #expect(seen.count == question.choices.count, "\(question.prompt): only at \(seen.sorted())")
    }
  }

  @Test("the same seed gives the same order; no seed, orders that differ")
  func seedRepeats() {
    let questions = QuestionGroup.all.flatMap(\.questions)
    let first = ChoiceShuffler(seed: 42)
    let second = ChoiceShuffler(seed: 42)
    #expect(
      questions.map { first.shuffle($0).choices } == questions.map { second.shuffle($0).choices })
    // Two random games order every question alike with odds of 1 in 6 per question, multiplied.
    let random = (ChoiceShuffler(), ChoiceShuffler())
    #expect(
      questions.map { random.0.shuffle($0).choices }
        != questions.map { random.1.shuffle($0).choices })
  }

  @Test("every chapter's group asks what a piece of code prints", arguments: QuestionGroup.all)
  func codeQuestion(group: QuestionGroup) throws {
    let withCode = group.questions.filter { $0.code != nil }
    try #require(withCode.count == 1, "chapter \(group.number)")
    let question = withCode[0]
    let snippet = try #require(snippets[group.number.description])
    #expect(
      try body(of: snippet.file) == question.code,
      "QuizCode/\(snippet.file) and the question's code differ")
    let printed = Printed()
    snippet.run(printed.print)
    #expect(printed.joined == question.rightAnswer, "what chapter \(group.number)'s code prints")
    #expect(!question.wrongAnswers.contains(printed.joined))
  }
}
