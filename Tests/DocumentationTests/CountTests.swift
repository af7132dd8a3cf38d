import DesignCatalog
import Foundation
import ObserverScenarios
import Support
import TestSupport
import Testing
import WorkshopKit

/// The counts as the prose spells them, from zero: "fifteen".
private let numberWords = [
  "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
  "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
  "twenty",
]

/// A count as the prose spells it.
private func spelled(_ number: Int) -> String {
  numberWords.indices.contains(number) ? numberWords[number] : String(number)
}

/// The scenarios `entry`'s design is documented to fail.
private func flaws(of entry: CatalogEntry) -> Set<Scenario.Name> {
  entry.design.documentedFlaws ?? []
}

/// A file's text as the counts are matched in it: lowercase, white space collapsed, and the `//`
/// that carries a Swift comment from one line to the next left out.
private func prose(of path: String) throws -> String {
  let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
  return collapsed(text.lowercased().replacing(/\n\s*\/\/ ?/, with: " "))
}

/// The DocC landing page of a stage's module.
private func landingPage(of stage: CatalogEntry) -> String {
  let module = stage.design.module
  return "Sources/\(module)/\(module).docc/\(module).md"
}

/// The sentences of the docs that count something, each with the count computed from the
/// lists (`Scenario.all`, `CatalogEntry.stages`, `Exercise.all`), so that a new scenario, a stage's
/// new verdict or a new exercise cannot leave the prose saying an old number.
private func countedSentences() throws -> [String: [String]] {
  let scenarios = spelled(Scenario.all.count)
  let stages = spelled(CatalogEntry.stages.count)
  let exercises = spelled(Exercise.all.count)
  // Chapter 5 answers the rows that every stage before it fails.
  let concurrency = try #require(CatalogEntry.concurrency.stageNumber)
  let failedByAllBefore = CatalogEntry.stages.filter { $0.stageNumber! < concurrency }.map(
    flaws(of:)
  )
  .reduce(
    Set(Scenario.Name.allCases)
  ) {
    $0.intersection($1)
  }
  // Chapter 5c shows again, on stage 5, the traces chapter 4 showed on stage 4.
  let chapter4Traces = try prose(of: "Tutorial/04-option-sets-auto-removal.md")
    .matches(of: /<!-- output: swift run compare-stages trace [a-z-]+ --stage 4/).count
  let handOver = try #require(Exercise.all.first { $0.slug == "08-hand-over-the-owner" })
  // The chapters that end with a self-check, from 1 to the last.
  let lastChapter = try #require(TutorialChapter.all.map(\.number.chapter).max())
  // The stages' modules, first to last, as chapter 0 spans them.
  let modules = CatalogEntry.stages.map { "`\($0.design.module.lowercased())`" }
  // The platform's observers, wherever they run, and before 26, where an Apple OS lacks
  // `Observations`.
  let references = CatalogEntry.references.count + CatalogEntry.namesOfReferencesMissingHere.count
  let referencesBefore26 = references - 1

  var sentences: [String: [String]] = [
    "README.md": [
      "runs the same \(scenarios) scenarios on every stage",
      "is the workshop: \(exercises) exercises in",
      "each of chapters 1 to \(lastChapter) ends with its key points",
    ],
    "REFERENCE.md": [
      "the \(scenarios) scenarios are a library",
      "as \(spelled(references)) more columns on linux and on macos 26 and later, and "
        + "\(spelled(referencesBefore26)) on macos 15, which has no `observations`",
    ],
    "Tutorial/00-introduction.md": [
      "one of the \(stages) designs, each in its own module: \(modules.first ?? "") to "
        + "\(modules.last ?? "")",
      "the first runs the \(scenarios) scenarios on every stage",
    ],
    "Tutorial/01-stone-age-closures.md": [
      "\(spelled(flaws(of: .closures).count)) of the \(scenarios) rows fail for this stage"
    ],
    "Tutorial/03-information-age-weak-references.md": [
      "\(spelled(flaws(of: .weakRefs).count)) of the \(scenarios) rows say otherwise"
    ],
    "Tutorial/04-option-sets-auto-removal.md": [
      "keeps the \(spelled(Scenario.all.count - flaws(of: .options).count)) scenarios stage 4 "
        + "passes"
    ],
    "Tutorial/05-concurrency-age.md": [
      "\(spelled(failedByAllBefore.count)) rows of the comparison are failed by every one of "
        + "stages 1 to \(concurrency - 1)",
      "and the \(spelled(handOver.aimed.count - 1)) scenarios that need released observers gone",
    ],
    "Tutorial/05c-handlers-on-the-main-actor.md": [
      "the \(spelled(chapter4Traces)) scenarios chapter 4 traced"
    ],
    "Tutorial/06-comparing-the-stages.md": ["driven by the same \(scenarios) scenarios"],
    "Tutorial/08-beyond-the-stages.md": [
      "runs its \(scenarios) scenarios on both of these",
      "adds the \(spelled(CatalogEntry.references.count)) columns beside the \(stages) stages",
    ],
    "Tutorial/09-in-your-app.md": ["runs every one of the \(scenarios) scenarios, live"],
    "Exercises/README.md": ["the \(scenarios) scenarios that"],
    "Examples/GradeYourOwn/Package.swift": ["with the \(scenarios) scenarios"],
  ]
  for stage in CatalogEntry.stages {
    sentences[landingPage(of: stage)] = ["runs the \(scenarios) scenarios on it"]
  }
  return sentences
}

@Suite("Documentation: the counts in the prose")
struct CountTests {
  @Test("every sentence that counts scenarios, stages or exercises says the count of its list")
  func countedSentencesHold() throws {
    for (path, sentences) in try countedSentences() where checkedHere(path) {
      let text = try prose(of: path)
      for sentence in sentences {
        let saysIt = text.contains(sentence)
        #expect(saysIt, "\(path) should say: \(sentence)")
      }
    }
  }

  // A count written in words before what it counts, anywhere in the docs, must be one of the
  // sentences above: a new one is added there, with the count it should say.
  @Test("no other sentence counts scenarios, stages, designs, columns or exercises")
  func noUncheckedCount() throws {
    let sentences = try countedSentences()
    let docs =
      (try MarkdownDocument.all().map(\.path))
      + ["Exercises/README.md", "Examples/GradeYourOwn/Package.swift"]
      + CatalogEntry.stages.map(landingPage(of:))
    let count = try Regex(
      #"\b(\#(numberWords.dropFirst(2).joined(separator: "|"))) "#
        + #"(scenarios|experiments|stages|designs|columns|exercises|references)\b"#)
    for path in docs where checkedHere(path) {
      var text = try prose(of: path)
      for sentence in sentences[path] ?? [] { text = text.replacing(sentence, with: "") }
      for match in text.matches(of: count) {
        Issue.record("\(path) counts '\(text[match.range])' in a sentence this test does not check")
      }
    }
  }

  @Test("chapter 4's exercise 6 keeps exactly the scenarios stage 4 passes")
  func exerciseSixKeepsStageFourPasses() throws {
    let removeAtOnce = try #require(Exercise.all.first { $0.slug == "06-remove-at-once" })
    let passes = Set(Scenario.Name.allCases).subtracting(flaws(of: .options))
    #expect(Set(removeAtOnce.kept) == passes)
  }
}
