import Stage1Closures
import Stage2KeyedDict
import Stage3WeakRefs
import Stage4Options
import Stage5Concurrency

/// One stage of the evolution, as the scenarios and `compare-stages` see it.
package enum Stage: Int, CaseIterable, Sendable, Comparable, CustomStringConvertible {
  /// Stage 1: an array of closures.
  case stoneAge = 1
  /// Stage 2: closures keyed by string.
  case ironAge
  /// Stage 3: observers held weakly.
  case informationAge
  /// Stage 4: option sets and automatic removal.
  case optionSets
  /// Stage 5: thread-safe, ordered delivery, immediate removal.
  case concurrency

  /// How a stage tells one subscriber from another.
  package enum Identity: Sendable {
    /// It does not: every closure is anonymous.
    case none
    /// By a string the subscriber chooses.
    case key
    /// By the subscribing object itself.
    case object
  }

  /// The stage's number, as `--stage` takes it.
  package var number: Int { rawValue }

  /// The library module that holds the stage.
  package var module: String {
    switch self {
    case .stoneAge: "Stage1Closures"
    case .ironAge: "Stage2KeyedDict"
    case .informationAge: "Stage3WeakRefs"
    case .optionSets: "Stage4Options"
    case .concurrency: "Stage5Concurrency"
    }
  }

  /// A short name for column headings.
  package var shortName: String {
    switch self {
    case .stoneAge: "stone"
    case .ironAge: "iron"
    case .informationAge: "info"
    case .optionSets: "options"
    case .concurrency: "conc"
    }
  }

  /// The stage's title: its age and its design.
  package var title: String {
    switch self {
    case .stoneAge: "stone age: an array of closures"
    case .ironAge: "iron age: closures keyed by string"
    case .informationAge: "information age: observers held weakly"
    case .optionSets: "option sets and automatic removal"
    case .concurrency: "concurrency age: thread-safe, ordered, immediate removal"
    }
  }

  /// The tutorial chapter about the stage, relative to the package root.
  package var chapter: String {
    switch self {
    case .stoneAge: "Tutorial/01-stone-age-closures.md"
    case .ironAge: "Tutorial/02-iron-age-keyed-dictionary.md"
    case .informationAge: "Tutorial/03-information-age-weak-references.md"
    case .optionSets: "Tutorial/04-option-sets-auto-removal.md"
    case .concurrency: "Tutorial/05-concurrency-age.md"
    }
  }

  /// How the stage tells subscribers apart.
  package var identity: Identity {
    switch self {
    case .stoneAge: .none
    case .ironAge: .key
    case .informationAge, .optionSets, .concurrency: .object
    }
  }

  /// Whether a subscriber can leave without being deallocated.
  package var canUnsubscribe: Bool {
    switch self {
    case .stoneAge, .informationAge: false
    case .ironAge, .optionSets, .concurrency: true
    }
  }

  /// Whether a subscriber can ask for the current value and the replaced one.
  package var offersOptions: Bool { self == .optionSets || self == .concurrency }

  /// Whether the stage's observable of `Int` is `Sendable`, as the compiler sees it.
  package var isSendable: Bool {
    switch self {
    case .stoneAge: isSendableType(Stage1Closures.Observable<Int>.self)
    case .ironAge: isSendableType(Stage2KeyedDict.Observable<Int>.self)
    case .informationAge: isSendableType(Stage3WeakRefs.Observable<Int>.self)
    case .optionSets: isSendableType(Stage4Options.Observable<Int>.self)
    case .concurrency: isSendableType(Stage5Concurrency.Observable<Int>.self)
    }
  }

  /// The name of the stage's observable type, for evidence lines.
  package var typeName: String { "\(module).Observable<Int>" }

  /// "stage 2"
  package var description: String { "stage \(rawValue)" }

  /// Makes a fresh observable of this stage holding `value`, behind the scenarios' interface.
  ///
  /// - Parameter value: The initial value.
  /// - Returns: An observable with no subscribers.
  package func makeObservable(_ value: Int = 0) -> any ScenarioObservable {
    switch self {
    case .stoneAge: StoneAgeAdapter(value)
    case .ironAge: IronAgeAdapter(value)
    case .informationAge: InformationAgeAdapter(value)
    case .optionSets: OptionSetsAdapter(value)
    case .concurrency: ConcurrencyAdapter(value)
    }
  }

  /// Orders stages by number.
  package static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
}

// Overload resolution picks the constrained version exactly when the compiler can prove the
// type `Sendable`, so the answer is the compiler's, not a typed-in flag.
func isSendableType<T>(_: T.Type) -> Bool { false }
func isSendableType<T: Sendable>(_: T.Type) -> Bool { true }
