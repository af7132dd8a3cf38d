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

/// The scenarios `design` is documented to fail.
private func flaws(of design: CatalogEntry) -> Set<Scenario.Name> {
  design.design.documentedFlaws ?? []
}

/// A file's text as the counts are matched in it: lowercase, white space collapsed, and the `//`
/// or `///` that carries a Swift comment from one line to the next left out.
private func prose(of path: String) throws -> String {
  let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
  return collapsed(text.lowercased().replacing(/\n\s*\/\/\/? ?/, with: " "))
}

/// The package's files below `folder` whose names end with `.EXTENSION`, one of `extensions`,
/// as paths from the root, sorted.
private func files(under folder: String, endingWith extensions: [String]) -> [String] {
  let root = packageRoot.appendingPathComponent(folder)
  let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
  return (paths ?? []).filter { path in extensions.contains { path.hasSuffix(".\($0)") } }
    .map { "\(folder)/\($0)" }.sorted()
}

/// Every file whose prose may count: the Markdown docs (the README, the chapters, the reference,
/// CONTRIBUTING and the changelog), the exercises' README, both manifests, and below `Sources/`
/// every Swift file (its doc comments and comments) and every DocC article.
private func documents() throws -> [String] {
  (try MarkdownDocument.all().map(\.path))
    + ["Exercises/README.md", "Package.swift", "Examples/GradeYourOwn/Package.swift"]
    + files(under: "Sources", endingWith: ["swift", "md"])
}

/// What is counted: a number before one of these is a count the prose must get right.
private let countedNouns = [
  "scenarios", "experiments", "stages", "designs", "columns", "exercises", "references",
  "documented verdicts",
]

/// Phrases that read as a count of what the tests count, and are not one, by file, each with
/// why.
private let notCounts: [String: [(phrase: String, why: String)]] = [
  "Sources/Lab/CommandSupport/ExitCode.swift": [("wrapped at 90 columns", "a width")],
  "Sources/Lab/CompareStagesKit/CompareStagesCommand.swift": [
    ("wrapped at 100 columns", "a width")
  ],
  "Sources/Lab/ObserverScenarios/Rendering.swift": [
    ("wider than 100 columns", "a width"), ("fit in 100 columns", "a width"),
    ("fits in 100 columns", "a width"),
  ],
  "Sources/Lab/ObserverScenarios/Scenarios.swift": [
    ("those five values", "the values one scenario sets")
  ],
]

/// The DocC landing page of a stage's module.
private func landingPage(of stage: CatalogEntry) -> String {
  let module = stage.design.module
  return "Sources/\(module)/\(module).docc/\(module).md"
}

/// The sentences of the docs that count something, each with the count computed from the
/// catalogue, so that a new scenario, a stage's new verdict or a new exercise cannot leave the
/// prose saying an old number.
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
  // The rows every stage before stage 5 fails, which chapter 5 lists as its failures.
  let failures = spelled(failedByAllBefore.count)
  // The scenarios that call the observable from inside a callback, watched live.
  let reentering = spelled(Scenario.all.filter(reenters).count)

  var sentences: [String: [String]] = [
    "README.md": [
      "built \(stages) times in swift, each stage",
      "runs the same \(scenarios) scenarios on every stage",
      "is the workshop: \(exercises) exercises in",
      "each of chapters 1 to \(lastChapter) ends with its key points",
    ],
    "REFERENCE.md": [
      "the \(scenarios) scenarios are a library",
      "runs a scenario of its own beside the \(scenarios), and prints",
      "as \(spelled(references)) more columns on linux and on macos 26 and later, and "
        + "\(spelled(referencesBefore26)) on macos 15, which has no `observations`",
    ],
    "Tutorial/00-introduction.md": [
      "this tutorial builds that idea \(stages) times",
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
      "\(failures) rows of the comparison are failed by every one of stages 1 to "
        + "\(concurrency - 1)",
      "## the \(failures) failures", "(the \(failures) rows, with their evidence",
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
    "Tutorial/09-in-your-app.md": [
      "you have built \(stages) observables",
      "runs every one of the \(scenarios) scenarios, live",
    ],
    "Exercises/README.md": ["the \(scenarios) scenarios that"],
    "Examples/GradeYourOwn/Package.swift": ["with the \(scenarios) scenarios"],
    "Package.swift": ["the \(scenarios) scenarios, open to any observable"],
    "Sources/Lab/ObserverScenarios/Scenario.swift": [
      "the name of a scenario: one of the \(scenarios), which",
      "one of the \(scenarios), by its name as `--scenario` takes it, or `nil` when none of the "
        + "\(scenarios) has that name",
      "which should differ from the \(scenarios)'s",
      "one of the \(scenarios)'s or one made with",
      "the \(scenarios), in the order the comparison prints them",
      "which must be one of the \(scenarios) (``allcases``)",
      "is not one of the \(scenarios) scenarios",
      "to run beside the \(scenarios) with",
      "\(reentering) scenarios call it again from inside one of its callbacks",
    ],
    "Sources/Lab/ObserverScenarios/Report.swift": [
      "runs `scenarios`, the \(scenarios) or any of your own beside them",
      "\(reentering) scenarios re-enter the observable from inside one of its callbacks",
      "leave those \(reentering) out with",
    ],
    "Sources/Lab/ObserverScenarios/ScenarioObservable.swift": [
      "outside the \(scenarios) scenarios"
    ],
    "Sources/Lab/ObserverScenarios/ObserverScenarios.docc/GradingYourOwnObservable.md": [
      "\(reentering) scenarios re-enter your observable from inside one of its callbacks",
      "leave the \(reentering) out with", "runs beside the \(scenarios).",
    ],
    // A design of one's own has one documented verdict per scenario.
    "Sources/Lab/ObserverScenarios/ObserverScenarios.docc/ReadingTheVerdicts.md": [
      "the summary reads \"all \(Scenario.all.count) documented verdicts match the live run.\""
    ],
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

  // A count before what it counts, in words or in figures, anywhere in the docs, the doc
  // comments or the DocC articles, must be one of the sentences above: a new one is added there,
  // with the count it should say. So must "the sixteen" alone, when its number is one of the
  // counts (of scenarios, stages or exercises), spelled: a count that leaves its noun to the
  // sentence before ("the 12 due", in figures, is some other number that happens to match). One
  // that is not a count is listed in `notCounts`, with why.
  @Test("no other sentence counts scenarios, stages, designs, columns or exercises")
  func noUncheckedCount() throws {
    let sentences = try countedSentences()
    let nouns = countedNouns.joined(separator: "|")
    let count = try Regex(
      #"\b(\#(numberWords.dropFirst(2).joined(separator: "|"))|\d+) (\#(nouns))\b"#)
    let totals = Set([Scenario.all.count, CatalogEntry.stages.count, Exercise.all.count]).map(
      spelled)
    let alone = try Regex(
      #"\b(the|those|these) (\#(totals.joined(separator: "|")))\b(?! (\#(nouns))\b)"#)
    let docs = try documents()
    #expect(docs.contains("Sources/Lab/ObserverScenarios/Scenario.swift"), "Sources/ is read")
    for path in docs where checkedHere(path) {
      var text = try prose(of: path)
      for sentence in sentences[path] ?? [] { text = text.replacing(sentence, with: "") }
      for (phrase, _) in notCounts[path] ?? [] {
        #expect(text.contains(phrase), "\(path) no longer says '\(phrase)': drop it from notCounts")
        text = text.replacing(phrase, with: "")
      }
      for match in text.matches(of: count) + text.matches(of: alone) {
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
