/// A chapter of the tutorial in `Tutorial/`: the one place its number, title and file are
/// written.
package struct TutorialChapter: Sendable, Hashable {
  /// Its number, as `swift run tutorial` takes it.
  package var number: Int
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
    introduction, closures, keyedDict, weakRefs, options, concurrency, comparing,
    keepingScore, beyondTheStages, inYourApp,
  ]

  package static func numbered(_ number: Int) -> TutorialChapter? {
    all.first { $0.number == number }
  }
}
