/// Whether a design has the property a scenario checks.
public enum Verdict: String, Sendable, Codable {
  /// The property holds.
  case holds
  /// The design has the flaw the scenario looks for.
  case flaw
  /// The scenario's idea does not exist for a platform reference (a way to cancel, a count of
  /// entries); the evidence says what the reference does instead. Never given to a stage,
  /// whose lack of an idea is a flaw.
  case notApplicable = "n/a"

  /// ✓, ✗ or –.
  public var symbol: String {
    switch self {
    case .holds: "✓"
    case .flaw: "✗"
    case .notApplicable: "–"
    }
  }
}

/// What one scenario found on one design: the verdict, and one line of evidence with the
/// numbers.
public struct Outcome: Sendable, Equatable {
  /// Whether the property holds.
  public var verdict: Verdict
  /// One line saying what was measured, e.g. "1,000 entries still stored after …".
  public var detail: String

  /// An outcome: a verdict and its evidence.
  ///
  /// - Parameters:
  ///   - verdict: Whether the property holds.
  ///   - detail: One line saying what was measured.
  public init(verdict: Verdict, detail: String) {
    self.verdict = verdict
    self.detail = detail
  }

  /// The property holds; `detail` says what was seen.
  package static func holds(_ detail: String) -> Outcome {
    Outcome(verdict: .holds, detail: detail)
  }

  /// The design has the flaw; `detail` says what was seen.
  package static func flaw(_ detail: String) -> Outcome { Outcome(verdict: .flaw, detail: detail) }

  /// The scenario does not apply; `detail` says why.
  package static func notApplicable(_ detail: String) -> Outcome {
    Outcome(verdict: .notApplicable, detail: detail)
  }
}

/// A short experiment on real objects, run the same way on every design.
public struct Scenario: Sendable, Identifiable {
  /// The name of each scenario, in the order the comparison prints them.
  public enum Name: String, Sendable, Hashable, CaseIterable, Codable {
    /// One observer receives every set value, in order.
    case deliversEveryChange = "delivers-every-change"
    /// Many observers are called in subscription order.
    case deliveryOrder = "delivery-order"
    /// A released owner's closure no longer runs.
    case releasedObserverNotCalled = "released-observer-not-called"
    /// Dead entries are gone after a set and a new subscription.
    case deadEntriesRemoved = "dead-entries-removed"
    /// Dead entries are gone after sets alone.
    case deadEntriesRemovedOnSet = "dead-entries-removed-on-set"
    /// After unsubscribing, no more calls.
    case explicitUnsubscribe = "explicit-unsubscribe"
    /// An owner its closure captures is freed once unsubscribed and dropped.
    case strongCaptureFreedAfterUnsubscribe = "strong-capture-freed-after-unsubscribe"
    /// The same owner is freed when merely dropped.
    case strongCaptureFreedWithoutUnsubscribe = "strong-capture-freed-without-unsubscribe"
    /// Two observers subscribing under one name are both called.
    case sameKeyTwoObservers = "same-key-two-observers"
    /// One observer subscribed twice is called once per change.
    case sameObserverTwice = "same-observer-twice"
    /// An observer can receive the current value when it subscribes.
    case initialValue = "initial-value"
    /// An observer can receive the previous value.
    case oldValue = "old-value"
    /// An observer removed during a notification is not called for it.
    case unsubscribeDuringNotification = "unsubscribe-during-notification"
    /// After a set inside a callback, every observer ends on the final value.
    case reentrantSetEndsOnLatest = "reentrant-set-ends-on-latest"
    /// The observable may be shared across threads.
    case sendable

    /// The scenario of this name.
    public var scenario: Scenario { Scenario.experiment(named: self) }
  }

  /// The scenario's name.
  public let id: Name
  /// What it checks, in one line.
  public let title: String
  /// What the experiment does, told for `compare-stages --explain`.
  public let story: String
  /// The tutorial chapter that covers it, relative to the package root.
  public let chapter: String
  private let experiment: @Sendable (ObservableDesign) -> Outcome

  /// The scenario's name, as `--scenario` takes it: `delivery-order`.
  public var name: String { id.rawValue }

  /// Creates a scenario.
  ///
  /// - Parameters:
  ///   - id: Its name.
  ///   - title: What it checks, in one line.
  ///   - story: What the experiment does.
  ///   - chapter: The tutorial chapter that covers it.
  ///   - experiment: Runs the experiment on a design and reports what it saw.
  init(
    _ id: Name, title: String, story: String, chapter: String,
    experiment: @escaping @Sendable (ObservableDesign) -> Outcome
  ) {
    self.id = id
    self.title = title
    self.story = story
    self.chapter = chapter
    self.experiment = experiment
  }

  /// Runs the experiment on `design`, with fresh objects.
  ///
  /// - Parameter design: The design to run it on.
  /// - Returns: The verdict and its evidence.
  public func run(on design: ObservableDesign) -> Outcome { experiment(design) }

  /// Every scenario, in the order the comparison prints them.
  public static let all: [Scenario] = Name.allCases.map(\.scenario)

  /// Looks a scenario up by name.
  ///
  /// - Parameter name: A scenario's name, as `--scenario` takes it.
  /// - Returns: The scenario, or `nil` if there is none of that name.
  public static func named(_ name: String) -> Scenario? { Name(rawValue: name)?.scenario }
}

extension Scenario: CustomStringConvertible {
  /// The scenario's name.
  public var description: String { name }
}
