/// Whether a design has the property a scenario checks.
public enum Verdict: String, Sendable, Codable {
  /// The property holds.
  case holds
  /// The design has the flaw the scenario looks for.
  case flaw
  /// The scenario's idea does not exist for the design (a way to cancel, a count of entries,
  /// "the same observer" for anonymous closures); the evidence says what it does instead.
  /// Never given to a stage, whose lack of an idea is a flaw.
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
  public init(verdict: Verdict, detail: String) {
    self.verdict = verdict
    self.detail = detail
  }

  /// The property holds; `detail` says what was seen.
  public static func holds(_ detail: String) -> Outcome {
    Outcome(verdict: .holds, detail: detail)
  }

  /// The design has the flaw; `detail` says what was seen.
  public static func flaw(_ detail: String) -> Outcome { Outcome(verdict: .flaw, detail: detail) }

  /// The scenario does not apply; `detail` says why.
  public static func notApplicable(_ detail: String) -> Outcome {
    Outcome(verdict: .notApplicable, detail: detail)
  }
}

/// A short sequence of subscriptions and sets on real objects, run the same way on every design.
public struct Scenario: Sendable, Identifiable {
  /// The name of a scenario: one of the sixteen, which ``allCases`` lists in the order the
  /// comparison prints them, or one of your own, made with ``init(custom:)``.
  public struct Name: RawRepresentable, Sendable, Hashable, Codable, CaseIterable {
    /// The name, as `--scenario` takes it: `delivery-order`.
    public let rawValue: String

    /// One of the sixteen, by its name as `--scenario` takes it, or `nil` when none of the
    /// sixteen has that name.
    public init?(rawValue: String) {
      guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
      self.rawValue = rawValue
    }

    /// A name for a scenario of your own, which should differ from the sixteen's, to pass to
    /// ``Scenario/init(_:title:story:sizing:chapter:experiment:)``.
    public init(custom name: String) { rawValue = name }

    private init(builtIn name: String) { rawValue = name }

    /// Decodes a name from a single string: any name, one of the sixteen's or one made with
    /// ``init(custom:)``, so that every name encoded decodes back to itself.
    public init(from decoder: any Decoder) throws {
      rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the name as a single string, its ``rawValue``.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }

    /// One observer receives every set value, in order.
    public static let deliversEveryChange = Name(builtIn: "delivers-every-change")
    /// Many observers are called in subscription order.
    public static let deliveryOrder = Name(builtIn: "delivery-order")
    /// A released owner's closure no longer runs.
    public static let releasedObserverNotCalled = Name(builtIn: "released-observer-not-called")
    /// Dead entries are gone after a set and a new subscription.
    public static let deadEntriesRemoved = Name(builtIn: "dead-entries-removed")
    /// Dead entries are gone after sets alone.
    public static let deadEntriesRemovedOnSet = Name(builtIn: "dead-entries-removed-on-set")
    /// After unsubscribing, no more calls.
    public static let explicitUnsubscribe = Name(builtIn: "explicit-unsubscribe")
    /// An owner its closure captures is freed once unsubscribed and dropped.
    public static let strongCaptureFreedAfterUnsubscribe = Name(
      builtIn: "strong-capture-freed-after-unsubscribe")
    /// The same owner is freed when merely dropped.
    public static let strongCaptureFreedWithoutUnsubscribe = Name(
      builtIn: "strong-capture-freed-without-unsubscribe")
    /// Two observers subscribing under one name are both called.
    public static let sameKeyTwoObservers = Name(builtIn: "same-key-two-observers")
    /// One observer subscribed twice is called once per change.
    public static let sameObserverTwice = Name(builtIn: "same-observer-twice")
    /// An observer can receive the current value when it subscribes.
    public static let initialValue = Name(builtIn: "initial-value")
    /// An observer can receive the previous value.
    public static let oldValue = Name(builtIn: "old-value")
    /// An observer removed during a notification is not called for it.
    public static let unsubscribeDuringNotification = Name(
      builtIn: "unsubscribe-during-notification")
    /// After a set inside a callback, every observer ends on the final value.
    public static let reentrantSetEndsOnLatest = Name(builtIn: "reentrant-set-ends-on-latest")
    /// After a set inside a callback, every observer receives each value once, in the order set.
    public static let reentrantSetSeenOnceInOrder = Name(
      builtIn: "reentrant-set-seen-once-in-order")
    /// The observable may be shared across threads.
    public static let sendable = Name(builtIn: "sendable")

    /// The sixteen, in the order the comparison prints them.
    public static let allCases: [Name] = Scenario.all.map(\.id)

    /// The scenario of this name, which must be one of the sixteen (``allCases``).
    public var scenario: Scenario {
      guard let scenario = Scenario.all.first(where: { $0.id == self }) else {
        preconditionFailure("\(rawValue) is not one of the sixteen scenarios")
      }
      return scenario
    }
  }

  /// The scenario's name.
  public let id: Name
  /// What it checks, in one line.
  public let title: String
  /// What the experiment does, told by `compare-stages explain`.
  public let story: String
  /// What the experiment's sizes are chosen for (how many observers, observables or sets, and
  /// which storage thresholds or designs that is enough to tell apart), told by `compare-stages explain`.
  public let sizing: String
  /// The tutorial chapter that covers it, relative to the package root.
  public let chapter: String
  private let experiment: @Sendable (ObservableDesign) -> Outcome

  /// The scenario's name, as `--scenario` takes it: `delivery-order`.
  public var name: String { id.rawValue }

  /// Creates a scenario: one of your own, to run beside the sixteen with
  /// ``ScenarioReport/init(running:designs:)``.
  ///
  /// ```swift
  /// let settlesOnLastValue = Scenario(
  ///   Scenario.Name(custom: "last-value-read-back"),
  ///   title: "the value reads back what was set last",
  ///   story: "Sets 1, 2 and 3, then reads the value; it must be 3.",
  ///   sizing: "Three sets: enough to see a value that stopped changing.",
  ///   chapter: "README.md"
  /// ) { design in
  ///   let observable = design.makeObservable(0)
  ///   for value in 1...3 { observable.value = value }
  ///   return observable.value == 3
  ///     ? Outcome(verdict: .holds, detail: "read back 3")
  ///     : Outcome(verdict: .flaw, detail: "read back \(observable.value), not 3")
  /// }
  /// let report = ScenarioReport(running: Scenario.all + [settlesOnLastValue], designs: [mine])
  /// ```
  ///
  /// The parameters set the properties of their names (`id` made with ``Name/init(custom:)``);
  /// `experiment` runs the experiment on a design and reports what it saw. A scenario the design
  /// marks as not applicable (``ObservableDesign/inapplicableScenarios``) is never run.
  public init(
    _ id: Name, title: String, story: String, sizing: String, chapter: String,
    experiment: @escaping @Sendable (ObservableDesign) -> Outcome
  ) {
    self.id = id
    self.title = title
    self.story = story
    self.sizing = sizing
    self.chapter = chapter
    self.experiment = experiment
  }

  /// Runs the experiment on `design`, with fresh objects, unless the design marks the scenario
  /// as not applicable, with a reason that becomes the evidence.
  ///
  /// The experiment runs on the calling thread, and calls the design's adapter there alone;
  /// three scenarios call it again from inside one of its callbacks, which an observable that
  /// holds a lock that is not recursive cannot survive (see ``ScenarioReport``).
  public func run(on design: ObservableDesign) -> Outcome {
    if let reason = design.inapplicableScenarios[id] { return .notApplicable(reason) }
    return experiment(design)
  }
}

extension Scenario: CustomStringConvertible {
  /// The scenario's name.
  public var description: String { name }
}
