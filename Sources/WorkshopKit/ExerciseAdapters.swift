import ObserverScenarios
import Support

// What the grader needs of each exercise's code, and the adapter that drives it through the
// scenarios. The starter (module ExerciseNN) and the solution (module SolutionNN) declare the
// same API, so each conforms with one line and shares the adapter written here once.

/// An adapter over an exercise's observable: what the scenarios call, and what the design
/// behind it can do.
package protocol ExerciseAdapter: ScenarioObservable, SendableMetatype {
  /// The observable type it drives.
  associatedtype Observable: ExerciseObservable
  /// The observable it drives.
  var observable: Observable { get }
  /// How the design tells subscribers apart.
  static var identity: ObservableDesign.Identity { get }
  /// What the design can do.
  static var capabilities: Set<ObservableDesign.Capability> { get }
  /// Makes a fresh observable holding `value`.
  init(_ value: Int)
  /// Runs `check` on fresh objects of the exercise's API.
  ///
  /// - Parameter check: One of the checks of the exercises this adapter drives.
  /// - Returns: Its verdict and evidence.
  static func run(_ check: Check) -> Outcome
}

/// What every exercise's observable has: stage 1's value and count of entries.
package protocol ExerciseObservable: AnyObject {
  /// Creates an observable holding `value`.
  init(_ value: Int)
  /// The value; setting it notifies.
  var value: Int { get set }
  /// The entries stored, dead ones included.
  var observerCount: Int { get }
}

extension ExerciseAdapter {
  /// The observable's value; setting it notifies.
  package var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  /// The entries the observable stores.
  package var storedEntryCount: Int { observable.observerCount }
}

extension ExerciseCode {
  /// The code of exercise `number`, driven by `adapter`.
  ///
  /// - Parameters:
  ///   - number: The exercise's number.
  ///   - adapter: The adapter type over the module's observable.
  ///   - isSendable: Whether the observable is `Sendable`: pass
  ///     `ObservableDesign.isSendable(Module.Observable<Int>.self)`, evaluated where the type is
  ///     concrete.
  /// - Returns: A graded design, named after the exercise, and its checks.
  package static func exercise<Adapter: ExerciseAdapter>(
    _ number: Int, _ adapter: Adapter.Type, isSendable: Bool
  ) -> ExerciseCode {
    let typeName = String(reflecting: Adapter.Observable.self).replacing("Swift.", with: "")
    let exercise = Exercise.numbered(number)
    let design = ObservableDesign(
      id: String(number), name: "exercise \(number)", shortName: "ex \(number)",
      title: exercise?.title ?? "exercise \(number)",
      module: String(typeName.prefix { $0 != "." }), typeName: typeName,
      chapter: exercise?.folder, identity: Adapter.identity,
      capabilities: Adapter.capabilities, isSendable: isSendable,
      makeObservable: { Adapter($0) })
    return ExerciseCode(design: design) { Adapter.run($0) }
  }
}

/// Files each subscription's entries under its owner, for designs that remove by a token.
private struct TokensByOwner<Token> {
  private var tokens: [ObjectIdentifier: [Token]] = [:]

  mutating func add(_ token: Token, for subscription: ScenarioSubscription) {
    tokens[ObjectIdentifier(subscription.owner), default: []].append(token)
  }

  mutating func remove(for subscription: ScenarioSubscription) -> [Token] {
    tokens.removeValue(forKey: ObjectIdentifier(subscription.owner)) ?? []
  }
}

// MARK: - Exercise 1: stage 1 with removal by id

/// Exercise 1's API: stage 1, and an id handed out on binding that removes the closure.
package protocol RemovableClosuresObservable: ExerciseObservable {
  /// What binding hands out.
  associatedtype ID
  /// Binds a closure and hands out its id.
  func bindObserver(_ observer: @escaping (Int) -> Void) -> ID
  /// Removes the closure bound with `id`.
  func removeObserver(_ id: ID)
}

/// Drives exercise 1's observable.
package final class RemovableClosuresAdapter<Observable: RemovableClosuresObservable>:
  ExerciseAdapter
{
  package static var identity: ObservableDesign.Identity { .none }
  package static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount]
  }
  package let observable: Observable
  private var ids = TokensByOwner<Observable.ID>()

  package init(_ value: Int) { observable = Observable(value) }

  package func subscribe(_ subscription: ScenarioSubscription) {
    ids.add(observable.bindObserver(subscription.closure { .new($0) }), for: subscription)
  }

  package func unsubscribe(_ subscription: ScenarioSubscription) {
    for id in ids.remove(for: subscription) {
      observable.removeObserver(id)
    }
  }
}

// MARK: - Exercise 2: stage 2

/// Exercise 2's API: stage 2's.
package protocol KeyedObservable: ExerciseObservable {
  /// Stores a closure under `key`.
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void)
  /// Removes the closure stored under `key`.
  func removeObserver(forKey key: String)
}

/// Drives exercise 2's observable.
package final class KeyedAdapter<Observable: KeyedObservable>: ExerciseAdapter {
  package static var identity: ObservableDesign.Identity { .key }
  package static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount]
  }
  package let observable: Observable

  package init(_ value: Int) { observable = Observable(value) }

  package func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(forKey: subscription.key, subscription.closure { .new($0) })
  }

  package func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(forKey: subscription.key)
  }
}

// MARK: - Exercise 3: stage 2, keys scoped to their owner

/// Exercise 3's API: stage 2's, with the owner beside the key.
package protocol OwnerKeyedObservable: ExerciseObservable {
  /// Stores a closure under `owner` and `key`.
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void)
  /// Removes the closure stored under `owner` and `key`.
  func removeObserver(_ owner: AnyObject, forKey key: String)
}

/// Drives exercise 3's observable.
package final class OwnerKeyedAdapter<Observable: OwnerKeyedObservable>: ExerciseAdapter {
  package static var identity: ObservableDesign.Identity { .key }
  package static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount]
  }
  package let observable: Observable

  package init(_ value: Int) { observable = Observable(value) }

  package func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(
      subscription.owner, forKey: subscription.key, subscription.closure { .new($0) })
  }

  package func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.owner, forKey: subscription.key)
  }
}

// MARK: - Exercises 4 and 5: stage 3

/// Exercises 4 and 5's API: stage 3's.
package protocol WeakObservable: ExerciseObservable {
  /// Binds `closure` for `observer`, held weakly.
  func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void)
}

/// Drives exercises 4 and 5's observables.
package final class WeakAdapter<Observable: WeakObservable>: ExerciseAdapter {
  package static var identity: ObservableDesign.Identity { .object }
  package static var capabilities: Set<ObservableDesign.Capability> { [.storedEntryCount] }
  package let observable: Observable

  package init(_ value: Int) { observable = Observable(value) }

  package func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(subscription.owner, closure: subscription.closure { .new($0) })
  }
}

// MARK: - Exercises 6 to 9: stage 4

/// An exercise's `ObservableOptions`: stage 4's option set.
package protocol ExerciseOptions: OptionSet, Sendable where Element == Self {
  /// The current value, on adding.
  static var initial: Self { get }
  /// The value a set replaces.
  static var old: Self { get }
  /// The value a set stores.
  static var new: Self { get }
}

extension ExerciseOptions {
  /// The options a subscription asks for: always the new value.
  fileprivate init(_ subscription: ScenarioSubscription) {
    self = .new
    if subscription.wantsInitial { insert(.initial) }
    if subscription.wantsOld { insert(.old) }
  }

  /// What a call with `value` for `option` delivers.
  fileprivate func delivery(of value: Int) -> Delivery {
    if self == .initial { return .initial(value) }
    if self == .old { return .old(value) }
    return .new(value)
  }
}

/// Exercises 6 and 7's API: stage 4's.
package protocol OptionsObservable: ExerciseObservable {
  /// The option set.
  associatedtype Options: ExerciseOptions
  /// Adds a callback for `observer`, held weakly.
  func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: Options,
    closure: @escaping (Int, Options) -> Void)
  /// Removes `observer`'s callbacks.
  func removeObserver(_ observer: AnyObject)
}

/// Drives exercises 6 and 7's observables.
package final class OptionsAdapter<Observable: OptionsObservable>: ExerciseAdapter {
  package static var identity: ObservableDesign.Identity { .object }
  package static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount, .initialValue, .oldValue]
  }
  package let observable: Observable

  package init(_ value: Int) { observable = Observable(value) }

  package func subscribe(_ subscription: ScenarioSubscription) {
    let closure = subscription.closure { (value: Int, option: Observable.Options) in
      option.delivery(of: value)
    }
    observable.addObserver(
      subscription.owner, removeIfExists: true, options: Observable.Options(subscription)
    ) { closure(($0, $1)) }
  }

  package func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.owner)
  }
}

/// Exercise 8's API: stage 4's, the handler handed its observer.
package protocol HandingObservable: ExerciseObservable {
  /// The option set.
  associatedtype Options: ExerciseOptions
  /// Adds a handler for `observer`, which is handed to it on every call.
  func addObserver<Observer: AnyObject>(
    _ observer: Observer, removeIfExists: Bool, options: Options,
    handler: @escaping (Observer, Int, Options) -> Void)
  /// Removes `observer`'s callbacks.
  func removeObserver(_ observer: AnyObject)
}

/// Drives exercise 8's observable: the handler is handed its owner, so it captures nothing.
package final class HandingAdapter<Observable: HandingObservable>: ExerciseAdapter {
  package static var identity: ObservableDesign.Identity { .object }
  package static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount, .initialValue, .oldValue, .handsOwnerToHandler]
  }
  package let observable: Observable

  package init(_ value: Int) { observable = Observable(value) }

  package func subscribe(_ subscription: ScenarioSubscription) {
    let handler = subscription.handler
    observable.addObserver(
      subscription.owner, removeIfExists: true, options: Observable.Options(subscription)
    ) { _, value, option in handler(option.delivery(of: value)) }
  }

  package func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.owner)
  }
}

/// Exercise 9's API: stage 4's, with `Sendable` observers and closures.
package protocol SendableOptionsObservable: ExerciseObservable, SendableMetatype {
  /// The option set.
  associatedtype Options: ExerciseOptions
  /// Adds a callback for `observer`, held weakly.
  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: Options,
    closure: @escaping @Sendable (Int, Options) -> Void)
  /// Removes `observer`'s callbacks.
  func removeObserver(_ observer: AnyObject & Sendable)
}

/// Drives exercise 9's observable. Its owners are the scenarios' `Sendable` stand-ins.
package final class SendableOptionsAdapter<Observable: SendableOptionsObservable>:
  ExerciseAdapter
{
  package static var identity: ObservableDesign.Identity { .object }
  package static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount, .initialValue, .oldValue]
  }
  package let observable: Observable

  package init(_ value: Int) { observable = Observable(value) }

  package func subscribe(_ subscription: ScenarioSubscription) {
    // A scenario sets on one thread, and the observable calls back on the thread that sets.
    let closure = SingleThreaded(
      subscription.closure { (value: Int, option: Observable.Options) in
        option.delivery(of: value)
      })
    observable.addObserver(
      subscription.sendableOwner, removeIfExists: true, options: Observable.Options(subscription)
    ) { closure.value(($0, $1)) }
  }

  package func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.sendableOwner)
  }
}
