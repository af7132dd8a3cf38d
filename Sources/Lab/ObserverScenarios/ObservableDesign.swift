/// Everything the scenarios need to know about one design of an observable: its names, what it
/// can do, the verdicts documented for it, and how to make a fresh one behind the scenarios'
/// interface.
///
/// Each stage of this package, each platform reference and any observable of your own is
/// described by one value of this type; ``Scenario/run(on:)`` and ``ScenarioReport`` read
/// nothing else.
///
/// ```swift
/// let mine = ObservableDesign(
///   id: "mine", name: "my observable", title: "my observable: closures in an array",
///   module: "MyApp", typeName: "MyObservable<Int>", identity: .none,
///   capabilities: [.unsubscribe, .storedEntryCount],
///   inapplicableScenarios: [
///     .sameObserverTwice: "closures are anonymous: there is no idea of the same observer"
///   ],
///   isSendable: ObservableDesign.isSendable(MyObservable<Int>.self),
///   makeObservable: { MyAdapter($0) })
/// print(ScenarioReport(designs: [mine]).text())
/// ```
public struct ObservableDesign: Sendable, Identifiable {
  /// How a design tells one subscriber from another.
  public enum Identity: Sendable, Hashable {
    /// It does not: every closure is anonymous.
    case none
    /// By a string the subscriber chooses.
    case key
    /// By the subscribing object itself.
    case object
  }

  /// Something a design can do that a scenario may rely on.
  public enum Capability: Sendable, Hashable, CaseIterable {
    /// A subscription can be ended while its owner lives.
    case unsubscribe
    /// The design reports how many entries it stores, dead ones included, through
    /// ``ScenarioObservable/storedEntryCount``. A design that does not claim it is never asked:
    /// the scenarios that count entries read `–` for it.
    case storedEntryCount
    /// A subscriber can ask for the current value when it subscribes.
    case initialValue
    /// A subscriber can ask for the value a set replaces.
    case oldValue
    /// The design hands each handler its owner, so that the handler need not capture it.
    case handsOwnerToHandler
    /// Observers are called before the new value is stored, so a handler that reads the
    /// value reads the one being replaced.
    case deliversBeforeWrite
    /// Each subscription costs O(*n*) in the observers already there.
    case linearSubscribe
  }

  /// Where the design stands in a comparison.
  public enum Role: Sendable, Hashable {
    /// A stage of this package's evolution, with its number; its verdicts are documented.
    case stage(Int)
    /// An observer API the platform ships, measured beside the stages.
    case reference
    /// A design being graded: yours, or a learner's exercise.
    case graded
  }

  /// The name `compare-stages --stage` takes: "2", "observation".
  public var id: String
  /// What prose calls it: "stage 2", "NotificationCenter".
  public var name: String
  /// A short name for column headings, which `--stage` takes too: "keyed", "nc".
  public var shortName: String
  /// One line saying what it is.
  public var title: String
  /// The module that holds it.
  public var module: String
  /// The name of its observable type, as evidence lines print it.
  public var typeName: String
  /// The tutorial chapter about it, relative to the package root, if there is one.
  public var chapter: String?
  /// Where it stands in a comparison.
  public var role: Role
  /// How it tells subscribers apart.
  public var identity: Identity
  /// What it can do.
  public var capabilities: Set<Capability>
  /// The capabilities it lacks by nature, each with what it does instead. A scenario that
  /// needs one of them does not apply (``Verdict/notApplicable``); a capability missing from
  /// both sets is a flaw, except ``Capability/storedEntryCount``, a way to measure rather than
  /// a promise: without it, the scenarios that count entries do not apply.
  public var inapplicable: [Capability: String]
  /// The scenarios whose idea the design's API lacks, each with what it does instead: "the same
  /// observer" for an API of anonymous closures, say. Such a scenario is not run on the design;
  /// its verdict is ``Verdict/notApplicable``, shown `–`, with the reason as evidence.
  public var inapplicableScenarios: [Scenario.Name: String]
  /// The design's own explanation of a flaw, appended to the evidence in place of the
  /// scenario's generic one.
  public var notes: [Scenario.Name: String]
  /// Whether its observable type is `Sendable`, as the compiler sees it: pass the type to
  /// ``isSendable(_:)-4lxnn``, whose overload for a `Sendable` type,
  /// ``isSendable(_:)-2hn1b``, answers `true`.
  public var isSendable: Bool
  /// The scenarios in which the design is documented to have the flaw, or `nil` when its
  /// verdicts are measured, not documented.
  public var documentedFlaws: Set<Scenario.Name>?
  /// Makes a fresh observable holding the given value, with no subscribers.
  public var makeObservable: @Sendable (Int) -> any ScenarioObservable

  /// Describes a design: each parameter sets the property of its name. `name` and `shortName`
  /// default to `id`, and a design is graded unless its `role` says otherwise.
  public init(
    id: String, name: String? = nil, shortName: String? = nil, title: String, module: String,
    typeName: String, chapter: String? = nil, role: Role = .graded, identity: Identity = .object,
    capabilities: Set<Capability>, inapplicable: [Capability: String] = [:],
    inapplicableScenarios: [Scenario.Name: String] = [:],
    notes: [Scenario.Name: String] = [:], isSendable: Bool,
    documentedFlaws: Set<Scenario.Name>? = nil,
    makeObservable: @escaping @Sendable (Int) -> any ScenarioObservable
  ) {
    self.id = id
    self.name = name ?? id
    self.shortName = shortName ?? id
    self.title = title
    self.module = module
    self.typeName = typeName
    self.chapter = chapter
    self.role = role
    self.identity = identity
    self.capabilities = capabilities
    self.inapplicable = inapplicable
    self.inapplicableScenarios = inapplicableScenarios
    self.notes = notes
    self.isSendable = isSendable
    self.documentedFlaws = documentedFlaws
    self.makeObservable = makeObservable
  }

  /// Whether the design can do what `capability` names: whether ``capabilities`` contains it.
  public func has(_ capability: Capability) -> Bool { capabilities.contains(capability) }

  /// The stage's number, for a stage.
  public var stageNumber: Int? {
    if case .stage(let number) = role { number } else { nil }
  }

  /// The verdict documented for `scenario`: ``Verdict/flaw`` for a documented flaw,
  /// ``Verdict/holds`` otherwise, or `nil` when the design documents none.
  public func documentedVerdict(for scenario: Scenario.Name) -> Verdict? {
    documentedFlaws.map { $0.contains(scenario) ? .flaw : .holds }
  }

  /// Whether `T` is `Sendable`: `false`, since this overload is chosen only when the compiler
  /// cannot prove that it is.
  ///
  /// Call it with a concrete type, `ObservableDesign.isSendable(MyObservable<Int>.self)`:
  /// overload resolution picks the constrained version exactly when the conformance exists, so
  /// the answer is the compiler's, not a typed-in flag.
  public static func isSendable<T>(_ type: T.Type) -> Bool { false }

  /// Whether `T` is `Sendable`: `true`, since this overload is chosen only for a type the
  /// compiler can prove `Sendable`.
  public static func isSendable<T: Sendable>(_ type: T.Type) -> Bool { true }
}

extension ObservableDesign: CustomStringConvertible {
  /// What prose calls it.
  public var description: String { name }
}

extension ObservableDesign {
  /// The heading of its column: "2 keyed" for a stage, its short name otherwise.
  package var heading: String {
    stageNumber.map { "\($0) \(shortName)" } ?? shortName
  }

  /// How evidence lines name it: "2" for a stage, its short name otherwise.
  package var label: String {
    stageNumber.map(String.init) ?? shortName
  }

  /// Why a scenario that needs `capability` does not apply, or `nil` when it does.
  package func inapplicability(for capability: Capability) -> String? {
    has(capability) ? nil : inapplicable[capability]
  }
}
