import Foundation
import KeepingScoreKit
import Support
import Synchronization
import TestSupport
import Testing

/// What a snippet printed, line by line.
private final class Printed: Sendable {
  private let lines = Mutex<[String]>([])

  /// The `print` a snippet calls.
  var print: @Sendable (Any) -> Void { { item in self.lines.withLock { $0.append("\(item)") } } }

  /// The lines joined as the quiz's choices join them.
  var joined: String { lines.withLock { $0.joined(separator: " / ") } }
}

/// What a reader of chapter `number` has read: the chapters numbered up to it, and the
/// appendices of those (`05a-…` and `05b-…` count as chapter 5's), without their tables, whose
/// dashes are ranges of figures.
private func read(upTo number: TutorialChapter.Number) throws -> String {
  let folder = packageRoot.appendingPathComponent("Tutorial")
  let chapters = Set(TutorialChapter.all.map(\.path))
  return try FileManager.default.contentsOfDirectory(atPath: folder.path)
    .filter { file in
      guard file.hasSuffix(".md"), let chapter = Int(file.prefix(2)) else { return false }
      guard chapters.contains("Tutorial/\(file)") else { return chapter <= number.chapter }
      let fileNumber = TutorialChapter.all.first { $0.path == "Tutorial/\(file)" }!.number
      return fileNumber <= number
    }
    .map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
    .joined(separator: "\n").split(separator: "\n").filter { !$0.hasPrefix("|") }
    .joined(separator: "\n")
}

/// The chapter a group checks, as its reader sees it.
private func chapterText(_ number: TutorialChapter.Number) throws -> String {
  let chapter = try #require(TutorialChapter.numbered(number))
  return try String(
    contentsOf: packageRoot.appendingPathComponent(chapter.path), encoding: .utf8)
}

/// The words of `text` that carry meaning: four letters or more, lowercased, without the
/// commonest.
func meaningfulWords(_ text: String) -> Set<String> {
  let common: Set<String> = [
    "what", "does", "that", "this", "with", "from", "when", "which", "there", "their", "they",
    "them", "were", "will", "would", "your", "have", "into", "only", "each", "then", "than",
    "also", "every", "once",
  ]
  return Set(
    text.lowercased().split { !$0.isLetter }.map(String.init).filter {
      $0.count >= 4 && !common.contains($0)
    })
}

/// The names a question uses that a chapter must have shown first: the verdicts' symbols,
/// scenario names, calls (`removeObserver(forKey:)`), attributes (`@MainActor`), options
/// (`.initial`) and type names written in camel case (`AsyncStream`).
private func namedTerms(in text: String) -> Set<String> {
  let pattern =
    /[✓✗–]|[a-z]+(?:-[a-z]+){2,}|[.@]?[A-Za-z]+\([A-Za-z_:]*\)|@[A-Za-z]+|\.[a-z][A-Za-z]*|\b[A-Z][a-z]+[A-Z][A-Za-z0-9]*\b/
  return Set(text.matches(of: pattern).map { String($0.output) })
}

/// Whether `text` shows `term`: a symbol on its own, not inside a word (`min–max` shows no
/// verdict `–`), anything else anywhere.
private func shows(_ term: String, _ text: String) -> Bool {
  guard term.count == 1 else { return text.contains(term) }
  let characters = Array(text)
  return characters.indices.contains { index in
    characters[index] == term.first!
      && (index == 0 || !characters[index - 1].isLetter)
      && (index == characters.count - 1 || !characters[index + 1].isLetter)
  }
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
struct SelfCheckTests {
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

  @Test("wording tells nothing: the right answer echoes the prompt most in ≤ 1 question in 4")
  func wordingTellsNothing() {
    let questions = QuestionGroup.all.flatMap(\.questions)
    let echoing = questions.filter { question in
      let prompt = meaningfulWords(question.prompt)
      let shared = { (choice: String) in meaningfulWords(choice).intersection(prompt).count }
      return question.wrongAnswers.allSatisfy { shared($0) < shared(question.rightAnswer) }
    }.map(\.rightAnswer)
    #expect(
      echoing.count * 4 <= questions.count, "\(echoing.count) of \(questions.count): \(echoing)")
  }

  @Test(
    "a question names only what its chapter, or one before it, has shown",
    arguments: QuestionGroup.all.map(\.number))
  func asksOnlyWhatWasTaught(number: TutorialChapter.Number) throws {
    let group = try #require(QuestionGroup.numbered(number))
    let read = try read(upTo: group.number)
    for question in group.questions {
      let text = ([question.prompt, question.rightAnswer] + question.wrongAnswers).joined(
        separator: " ")
      for term in namedTerms(in: text) where !shows(term, read) {
        Issue.record(
          "chapter \(group.number): '\(term)' is not in the chapters up to it: \(question.prompt)")
      }
    }
  }

  @Test("a verdict's symbol inside a word, as in a range of figures, does not count as shown")
  func symbolInAWord() {
    #expect(!shows("–", "Spread: min–max nanoseconds"))
    #expect(shows("–", "A `–` means the idea does not apply"))
    #expect(shows("–", "a – in a column"))
  }

  @Test("the names a question uses are found: a symbol, a scenario, a call, an option")
  func termsAreFound() {
    let text =
      "What does a – mean in same-observer-twice after removeObserver(forKey:)? "
      + "@MainActor with .initial, or an AsyncStream"
    #expect(
      namedTerms(in: text) == [
        "–", "same-observer-twice", "removeObserver(forKey:)", "@MainActor", ".initial",
        "AsyncStream",
      ])
  }

  @Test(
    "no chapter shows its own group's questions or explanations",
    arguments: QuestionGroup.all.map(\.number))
  func chapterDoesNotPlayItsQuiz(number: TutorialChapter.Number) throws {
    let group = try #require(QuestionGroup.numbered(number))
    let chapter = try chapterText(group.number)
    for question in group.questions {
      if question.prompt != QuestionGroup.printsPrompt {
        #expect(!chapter.contains(question.prompt), "chapter \(group.number) shows it")
      }
      #expect(!chapter.contains(question.explanation), "chapter \(group.number) shows it")
    }
  }

  @Test("a shuffle shows every choice once, and points at the right one")
  func shuffleIsAPermutation() {
    let shuffler = ChoiceShuffler(seed: testSeed)
    for group in QuestionGroup.all {
      for (question, (choices, answer)) in zip(group.questions, shuffler.shuffle(group)) {
        #expect(choices.sorted() == question.choices.sorted())
        #expect(choices[answer] == question.rightAnswer)
      }
    }
  }

  @Test("in one game the right answer sits at every position, and each question's moves")
  func positionsVary() {
    let shuffler = ChoiceShuffler(seed: testSeed)
    let positions = QuestionGroup.all.flatMap { shuffler.shuffle($0).map(\.answer) }
    for position in 0..<3 {
      #expect(positions.contains(position), "never at position \(position): \(positions)")
    }
    for group in QuestionGroup.all {
      let orders = (0..<64 as Range<UInt64>).map { ChoiceShuffler(seed: $0).shuffle(group) }
      for (index, question) in group.questions.enumerated() {
        let seen = Set(orders.map { $0[index].answer })
        #expect(
          seen.count == question.choices.count, "\(question.prompt): only at \(seen.sorted())")
      }
    }
  }

  @Test("the same seed gives the same order; no seed, orders that differ")
  func seedRepeats() {
    let orders = { (shuffler: ChoiceShuffler) in
      QuestionGroup.all.flatMap { shuffler.shuffle($0).map(\.choices) }
    }
    #expect(orders(ChoiceShuffler(seed: 42)) == orders(ChoiceShuffler(seed: 42)))
    // Two random games order every question alike with odds of 1 in 6 per question, multiplied.
    #expect(orders(ChoiceShuffler()) != orders(ChoiceShuffler()))
  }

  @Test("with one seed, each chapter's right letters are drawn apart from the other chapters'")
  func lettersDifferAcrossChapters() {
    // The seeds the package plays with: these tests', the executable's test's, chapter 7's demo's.
    // Drawn from one stream restarted for each game, every chapter began with the same letters.
    for seed: UInt64 in [testSeed, 5, 12] {
      let letters = QuestionGroup.all.map { rightAnswers($0, seed: seed).joined() }
      #expect(Set(letters).count == letters.count, "seed \(seed): \(letters)")
      let firstFive = letters.map { $0.prefix(5) }
      #expect(Set(firstFive).count > 1, "seed \(seed): every chapter starts \(firstFive[0])")
    }
    // Over many seeds, two chapters start with the same letters about as often as independent
    // draws would: each pair alike in its first n questions with odds of 1 in 3ⁿ (here 1 in 3⁵
    // or less, for 45 pairs, about 0.2 a seed).
    var alike = 0
    var expected = 0.0
    let groups = QuestionGroup.all
    for seed: UInt64 in 0..<200 {
      let letters = groups.map { rightAnswers($0, seed: seed) }
      for first in groups.indices {
        for second in groups.indices where second > first {
          let shared = min(letters[first].count, letters[second].count)
          if letters[first].prefix(shared) == letters[second].prefix(shared) { alike += 1 }
          expected += groups[first].questions.prefix(shared).reduce(1.0) {
            $0 / Double($1.choices.count)
          }
        }
      }
    }
    #expect(Double(alike) <= 2 * expected, "\(alike) pairs alike; independent draws: \(expected)")
  }

  @Test("every chapter's group asks what a piece of code prints", arguments: QuestionGroup.all)
  func codeQuestion(group: QuestionGroup) throws {
    let withCode = group.questions.filter { $0.code != nil }
    try #require(
      withCode.count == 1,
      "chapter \(group.number): one question, no more, shows code (its `|` lines in the quiz)")
    let question = withCode[0]
    let file = "QuizCode/Chapter\(group.number).swift"
    let snippet = try #require(
      snippets[group.number.description],
      "chapter \(group.number): write its code in \(file), and its line in `snippets` above")
    #expect(
      try body(of: snippet.file) == question.code,
      "QuizCode/\(snippet.file) and the question's code differ")
    let printed = Printed()
    snippet.run(printed.print)
    #expect(printed.joined == question.rightAnswer, "what chapter \(group.number)'s code prints")
    #expect(!question.wrongAnswers.contains(printed.joined))
  }
}
