import Support
import Synchronization

/// Where the tutorial's demos print: the terminal, or a string the tests compare with the
/// chapters.
package final class Transcript: Sendable {
  private let text = Mutex("")
  private let echo: @Sendable (String) -> Void

  /// Creates a transcript that keeps what is printed and also hands it to `echo`.
  ///
  /// - Parameter echo: Called with what is printed, as printed: a line with its newline.
  package init(echo: @escaping @Sendable (String) -> Void = { _ in }) {
    self.echo = echo
  }

  /// Everything printed so far.
  package var output: String { text.withLock { $0 } }

  /// Prints one line.
  ///
  /// - Parameter line: The line, without its newline.
  package func print(_ line: String) {
    write(line + "\n")
  }

  /// Prints `text` as given: no newline is added.
  ///
  /// - Parameter text: The text, newlines included.
  package func write(_ text: String) {
    self.text.withLock { $0 += text }
    echo(text)
  }
}

/// The demos of the tutorial's chapters, each a short program that prints what it does.
///
/// Inside a demo, `print` writes to the demo's transcript, so the code reads as a playground
/// does and the tests can compare its output with the chapter.
package struct Demo: Sendable {
  /// A chapter of the tutorial with its demo.
  package struct Chapter: Sendable {
    /// The chapter: its number, as `swift run tutorial` takes it, its title and its file.
    package var chapter: TutorialChapter
    fileprivate var run: @Sendable (Demo) -> Void

    /// The chapter's number, as `swift run tutorial` takes it.
    package var number: Int { chapter.number }
    /// The chapter's title.
    package var title: String { chapter.title }
  }

  /// Every chapter with a demo, in reading order.
  package static let chapters: [Chapter] = [
    Chapter(chapter: .introduction) { $0.introduction() },
    Chapter(chapter: .closures) { $0.stoneAge() },
    Chapter(chapter: .keyedDict) { $0.ironAge() },
    Chapter(chapter: .weakRefs) { $0.informationAge() },
    Chapter(chapter: .options) { $0.optionSets() },
    Chapter(chapter: .concurrency) { $0.concurrencyAge() },
    Chapter(chapter: .keepingScore) { $0.keepingScore() },
    Chapter(chapter: .beyondTheStages) { $0.beyondTheStages() },
    Chapter(chapter: .inYourApp) { $0.inYourApp() },
  ]

  /// Where this demo prints.
  package let transcript: Transcript

  /// Creates a demo that prints to `transcript`.
  ///
  /// - Parameter transcript: Where `print` writes.
  package init(transcript: Transcript) {
    self.transcript = transcript
  }

  /// Runs the demo of chapter `number`.
  ///
  /// - Parameter number: A chapter number from ``chapters``.
  /// - Returns: Whether the chapter has a demo.
  @discardableResult
  package func run(chapter number: Int) -> Bool {
    guard let chapter = Self.chapters.first(where: { $0.number == number }) else { return false }
    chapter.run(self)
    return true
  }

  /// Runs the demo of chapter `number` and returns what it printed.
  ///
  /// - Parameter number: A chapter number from ``chapters``.
  /// - Returns: The demo's output, or `nil` if the chapter has no demo.
  package static func output(ofChapter number: Int) -> String? {
    let transcript = Transcript()
    return Demo(transcript: transcript).run(chapter: number) ? transcript.output : nil
  }

  /// Prints a line to the transcript.
  ///
  /// - Parameter line: The line, without its newline.
  func print(_ line: String = "") {
    transcript.print(line)
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
