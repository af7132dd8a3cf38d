/// A chapter of the tutorial in `Tutorial/`: the one place its number, title and file are
/// written.
package struct TutorialChapter: Sendable, Hashable {
  /// A chapter's number as the commands take it and the docs write it: `5`, or `5c` for a
  /// chapter that goes on from chapter 5 (chapters are never renumbered). Written as a whole
  /// number, it is that chapter's: `numbered(7)`.
  package struct Number: Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
  {
    /// The chapter it belongs to: 5 for `5c`.
    package var chapter: Int
    /// The letter after the number, or `""`.
    package var part: String

    package init(_ chapter: Int, part: String = "") {
      self.chapter = chapter
      self.part = part
    }

    package init(integerLiteral chapter: Int) {
      self.init(chapter)
    }

    /// Reads `5` or `5c` as written, and nothing else: not `05`, `+5` or `5C`.
    package init?(_ text: String) {
      let digits = text.prefix { $0.isASCII && $0.isNumber }
      let part = text.dropFirst(digits.count)
      guard let chapter = Int(digits), part.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
        return nil
      }
      self.init(chapter, part: String(part))
      guard description == text else { return nil }
    }

    package var description: String { "\(chapter)\(part)" }

    package static func < (left: Number, right: Number) -> Bool {
      (left.chapter, left.part) < (right.chapter, right.part)
    }
  }

  /// Its number, as `swift run tutorial` and `swift run keeping-score` take it.
  package var number: Number
  package var title: String
  /// Its file, relative to the package root.
  package var path: String

  package static let introduction = TutorialChapter(
    number: 0, title: "Introduction: the pattern and a memory primer",
    path: "Tutorial/00-introduction.md")
  package static let closures = TutorialChapter(
    number: 1, title: "Stone age: an array of closures", path: "Tutorial/01-stone-age-closures.md")
  package static let keyedDict = TutorialChapter(
    number: 2, title: "Iron age: closures keyed by string",
    path: "Tutorial/02-iron-age-keyed-dictionary.md")
  package static let weakRefs = TutorialChapter(
    number: 3, title: "Information age: observers held weakly",
    path: "Tutorial/03-information-age-weak-references.md")
  package static let options = TutorialChapter(
    number: 4, title: "Option sets and automatic removal",
    path: "Tutorial/04-option-sets-auto-removal.md")
  package static let concurrency = TutorialChapter(
    number: 5, title: "The concurrency age", path: "Tutorial/05-concurrency-age.md")
  package static let handlersOnTheMainActor = TutorialChapter(
    number: Number(5, part: "c"), title: "Handlers on the main actor: stage 5",
    path: "Tutorial/05c-handlers-on-the-main-actor.md")
  package static let comparing = TutorialChapter(
    number: 6, title: "Comparing the stages", path: "Tutorial/06-comparing-the-stages.md")
  package static let keepingScore = TutorialChapter(
    number: 7, title: "A small app: keeping score",
    path: "Tutorial/07-a-small-app-keeping-score.md")
  package static let beyondTheStages = TutorialChapter(
    number: 8, title: "Beyond the stages: what the platform offers",
    path: "Tutorial/08-beyond-the-stages.md")
  package static let inYourApp = TutorialChapter(
    number: 9, title: "In your app: choosing, testing, SwiftUI",
    path: "Tutorial/09-in-your-app.md")

  /// Every chapter, in reading order.
  package static let all: [TutorialChapter] = [
    introduction, closures, keyedDict, weakRefs, options, concurrency, handlersOnTheMainActor,
    comparing, keepingScore, beyondTheStages, inYourApp,
  ]

  /// The chapter numbered `number`, if there is one.
  package static func numbered(_ number: Number) -> TutorialChapter? {
    all.first { $0.number == number }
  }

  /// The chapter to read after this one, if any.
  package var next: TutorialChapter? { Self.all.drop { $0 != self }.dropFirst().first }
}
