import Support

/// The demos of the tutorial's chapters, each a short program that prints what it does.
///
/// Inside a demo, `print` writes where the demo was told to (the terminal, or a string the tests
/// compare with the chapter), so the code reads as a playground does.
package struct Demo: Sendable {
  /// Every chapter with a demo, in reading order.
  package static let chapters: [(chapter: TutorialChapter, run: @Sendable (Demo) -> Void)] = [
    (.introduction, { $0.introduction() }),
    (.closures, { $0.closures() }),
    (.keyedDict, { $0.keyedDict() }),
    (.weakRefs, { $0.weakRefs() }),
    (.options, { $0.options() }),
    (.concurrency, { $0.concurrencyAge() }),
    (.handlersOnTheMainActor, { $0.handlersOnTheMainActor() }),
    (.keepingScore, { $0.keepingScore() }),
    (.beyondTheStages, { $0.beyondTheStages() }),
    (.inYourApp, { $0.inYourApp() }),
  ]

  /// Where the demo writes what it prints, newlines included.
  let write: @Sendable (String) -> Void

  /// Runs the demo of chapter `number`, if it has one.
  static func run(
    chapter number: TutorialChapter.Number, write: @escaping @Sendable (String) -> Void
  ) {
    chapters.first { $0.chapter.number == number }?.run(Demo(write: write))
  }

  func print(_ line: String = "") {
    write(line + "\n")
  }
}

/// A screen of an app, standing in for a view controller that observes a model.
final class Screen {
  let name: String
  var label = ""

  init(_ name: String) {
    self.name = name
  }
}
