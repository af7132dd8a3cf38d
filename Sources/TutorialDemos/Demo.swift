import Synchronization

/// Where the tutorial's demos print: the terminal, or a string the tests compare with the
/// chapters.
public final class Transcript: Sendable {
  private let text = Mutex("")
  private let echo: @Sendable (String) -> Void

  /// Creates a transcript that keeps what is printed and also hands each line to `echo`.
  ///
  /// - Parameter echo: Called with each line printed, newline included.
  public init(echo: @escaping @Sendable (String) -> Void = { _ in }) {
    self.echo = echo
  }

  /// Everything printed so far.
  public var output: String { text.withLock { $0 } }

  /// Prints one line.
  ///
  /// - Parameter line: The line, without its newline.
  public func print(_ line: String) {
    text.withLock { $0 += line + "\n" }
    echo(line + "\n")
  }
}

/// The demos of the tutorial's chapters, each a short program that prints what it does.
///
/// Inside a demo, `print` writes to the demo's transcript, so the code reads as a playground
/// does and the tests can compare its output with the chapter.
public struct Demo: Sendable {
  /// A chapter that has a demo.
  public struct Chapter: Sendable {
    /// The chapter's number, as `swift run tutorial` takes it.
    public var number: Int
    /// The chapter's title.
    public var title: String
    /// The chapter's file, relative to the package root.
    public var file: String
    fileprivate var run: @Sendable (Demo) -> Void
  }

  /// Every chapter with a demo, in reading order.
  public static let chapters: [Chapter] = [
    Chapter(
      number: 0, title: "Introduction: the pattern and a memory primer",
      file: "Tutorial/00-introduction.md"
    ) { $0.introduction() },
    Chapter(
      number: 1, title: "Stone age: an array of closures",
      file: "Tutorial/01-stone-age-closures.md"
    ) { $0.stoneAge() },
    Chapter(
      number: 2, title: "Iron age: closures keyed by string",
      file: "Tutorial/02-iron-age-keyed-dictionary.md"
    ) { $0.ironAge() },
    Chapter(
      number: 3, title: "Information age: observers held weakly",
      file: "Tutorial/03-information-age-weak-references.md"
    ) { $0.informationAge() },
    Chapter(
      number: 4, title: "Option sets and automatic removal",
      file: "Tutorial/04-option-sets-auto-removal.md"
    ) { $0.optionSets() },
    Chapter(
      number: 5, title: "The concurrency age",
      file: "Tutorial/05-concurrency-age.md"
    ) { $0.concurrencyAge() },
    Chapter(
      number: 7, title: "A small app: keeping score",
      file: "Tutorial/07-a-small-app-keeping-score.md"
    ) { $0.keepingScore() },
    Chapter(
      number: 8, title: "Beyond the stages: what the platform offers",
      file: "Tutorial/08-beyond-the-stages.md"
    ) { $0.beyondTheStages() },
  ]

  /// Where this demo prints.
  public let transcript: Transcript

  /// Creates a demo that prints to `transcript`.
  ///
  /// - Parameter transcript: Where `print` writes.
  public init(transcript: Transcript) {
    self.transcript = transcript
  }

  /// Runs the demo of chapter `number`.
  ///
  /// - Parameter number: A chapter number from ``chapters``.
  /// - Returns: Whether the chapter has a demo.
  @discardableResult
  public func run(chapter number: Int) -> Bool {
    guard let chapter = Self.chapters.first(where: { $0.number == number }) else { return false }
    chapter.run(self)
    return true
  }

  /// Runs the demo of chapter `number` and returns what it printed.
  ///
  /// - Parameter number: A chapter number from ``chapters``.
  /// - Returns: The demo's output, or `nil` if the chapter has no demo.
  public static func output(ofChapter number: Int) -> String? {
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
