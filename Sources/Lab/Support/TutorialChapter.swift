/// A chapter of the tutorial in `Tutorial/`: the one place its number, title and file are
/// written.
package struct TutorialChapter: Sendable, Hashable {
  /// Its number, as `swift run tutorial` takes it.
  package var number: Int
  /// Its title.
  package var title: String
  /// Its file, relative to the package root.
  package var path: String

  /// 0. The pattern, and a memory primer.
  package static let introduction = TutorialChapter(
    number: 0, title: "Introduction: the pattern and a memory primer",
    path: "Tutorial/00-introduction.md")
  /// 1. Stage 1.
  package static let closures = TutorialChapter(
    number: 1, title: "Stone age: an array of closures", path: "Tutorial/01-stone-age-closures.md")
  /// 2. Stage 2.
  package static let keyedDict = TutorialChapter(
    number: 2, title: "Iron age: closures keyed by string",
    path: "Tutorial/02-iron-age-keyed-dictionary.md")
  /// 3. Stage 3.
  package static let weakRefs = TutorialChapter(
    number: 3, title: "Information age: observers held weakly",
    path: "Tutorial/03-information-age-weak-references.md")
  /// 4. Stage 4.
  package static let options = TutorialChapter(
    number: 4, title: "Option sets and automatic removal",
    path: "Tutorial/04-option-sets-auto-removal.md")
  /// 5. Stage 5.
  package static let concurrency = TutorialChapter(
    number: 5, title: "The concurrency age", path: "Tutorial/05-concurrency-age.md")
  /// 6. The comparison.
  package static let comparing = TutorialChapter(
    number: 6, title: "Comparing the stages", path: "Tutorial/06-comparing-the-stages.md")
  /// 7. The small app.
  package static let keepingScore = TutorialChapter(
    number: 7, title: "A small app: keeping score",
    path: "Tutorial/07-a-small-app-keeping-score.md")
  /// 8. The platform's own observers.
  package static let beyondTheStages = TutorialChapter(
    number: 8, title: "Beyond the stages: what the platform offers",
    path: "Tutorial/08-beyond-the-stages.md")
  /// 9. Choosing and testing observers in an app.
  package static let inYourApp = TutorialChapter(
    number: 9, title: "In your app: choosing, testing, SwiftUI",
    path: "Tutorial/09-in-your-app.md")

  /// Every chapter, in reading order.
  package static let all: [TutorialChapter] = [
    introduction, closures, keyedDict, weakRefs, options, concurrency, comparing,
    keepingScore, beyondTheStages, inYourApp,
  ]

  /// The chapter numbered `number`, if there is one.
  ///
  /// - Parameter number: A chapter number.
  /// - Returns: The chapter, or `nil`.
  package static func numbered(_ number: Int) -> TutorialChapter? {
    all.first { $0.number == number }
  }
}
