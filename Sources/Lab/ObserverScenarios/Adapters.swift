import Support

// One ready-made adapter per API shape. Each shape is a protocol naming the methods an observable
// of that shape has; declare that your observable has them (one line, usually empty) and the
// adapter drives it through the scenarios. The design catalog's stages 1 to 4, the workshop's
// exercises and graders outside this package use these same adapters.

/// An observable of `Int` that one of the ready-made adapters can drive: it is made from a
/// value, its value can be read and set, and it counts the entries it stores.
///
/// Each API shape refines it, and a type that conforms to one on a condition (an
/// `Observable<Value>` where `Value == Int`) names both:
/// `extension MyKeyedObservable: AdaptableObservable, KeyedObservable where Value == Int {}`. The
/// shapes: ``AppendOnlyObservable``, ``RemovableClosuresObservable``,
/// ``KeyedObservable``, ``OwnerKeyedObservable``, ``WeakObservable``, ``OptionsObservable``,
/// ``HandingObservable`` and ``SendableOptionsObservable``.
public protocol AdaptableObservable: AnyObject {
  /// Creates an observable holding `value`, with no observers.
  init(_ value: Int)
  /// The value; setting it notifies.
  var value: Int { get set }
  /// The entries stored, dead ones included where the design keeps them.
  var observerCount: Int { get }
}

/// A ready-made adapter: it drives one API shape through the scenarios and says what that
/// shape can do, so that a design described with ``ObservableDesign/init(id:name:shortName:title:module:typeName:chapter:role:addingCapabilities:inapplicableScenarios:notes:isSendable:documentedFlaws:adapter:)``
/// states its identity and capabilities once, here.
public protocol ShapeAdapter: ScenarioObservable, SendableMetatype {
  /// The observable type it drives.
  associatedtype Observable: AdaptableObservable
  /// The observable it drives.
  var observable: Observable { get }
  /// How the shape tells subscribers apart.
  static var identity: ObservableDesign.Identity { get }
  /// What the shape can do.
  static var capabilities: Set<ObservableDesign.Capability> { get }
  /// Makes a fresh observable holding `value`.
  init(_ value: Int)
}

extension ShapeAdapter {
  /// The observable's value; setting it notifies.
  public var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  /// The entries the observable stores: its ``AdaptableObservable/observerCount``.
  public var storedEntryCount: Int { observable.observerCount }
}

/// What every ready-made adapter shares: the observable it drives, made fresh from a value.
public class AdapterBase<Observable: AdaptableObservable> {
  /// The observable it drives.
  public let observable: Observable

  /// Makes a fresh observable holding `value`.
  public init(_ value: Int) { observable = Observable(value) }
}

extension ObservableDesign {
  /// Describes a design whose observable one of the ready-made adapters drives: its identity,
  /// capabilities and how to make it come from the adapter.
  ///
  /// ```swift
  /// extension MyKeyedObservable: AdaptableObservable, KeyedObservable where Value == Int {}
  ///
  /// let mine = ObservableDesign(
  ///   id: "mine", title: "my observable: closures by key", module: "MyApp",
  ///   typeName: "MyKeyedObservable<Int>",
  ///   isSendable: ObservableDesign.isSendable(MyKeyedObservable<Int>.self),
  ///   adapter: KeyedAdapter<MyKeyedObservable<Int>>.self)
  /// ```
  ///
  /// The parameters set the properties of their names, as in
  /// ``init(id:name:shortName:title:module:typeName:chapter:role:identity:capabilities:inapplicable:inapplicableScenarios:notes:isSendable:documentedFlaws:makeObservable:)``,
  /// except two:
  /// - `addingCapabilities`: What the design does beyond its shape, such as
  ///   ``Capability/linearSubscribe``.
  /// - `adapter`: The ready-made adapter over its observable.
  ///
  /// Pass `isSendable` as `ObservableDesign.isSendable(MyObservable<Int>.self)`, evaluated where
  /// the type is concrete.
  public init<Adapter: ShapeAdapter>(
    id: String, name: String? = nil, shortName: String? = nil, title: String, module: String,
    typeName: String, chapter: String? = nil, role: Role = .graded,
    addingCapabilities: Set<Capability> = [],
    inapplicableScenarios: [Scenario.Name: String] = [:],
    notes: [Scenario.Name: String] = [:], isSendable: Bool,
    documentedFlaws: Set<Scenario.Name>? = nil, adapter: Adapter.Type
  ) {
    self.init(
      id: id, name: name, shortName: shortName, title: title, module: module,
      typeName: typeName, chapter: chapter, role: role, identity: Adapter.identity,
      capabilities: Adapter.capabilities.union(addingCapabilities),
      inapplicableScenarios: inapplicableScenarios,
      notes: notes, isSendable: isSendable, documentedFlaws: documentedFlaws,
      makeObservable: { Adapter($0) })
  }
}

// MARK: - Closures in an array: stage 1

/// The shape of stage 1: closures bound to the observable for as long as it lives.
public protocol AppendOnlyObservable: AdaptableObservable {
  /// Binds a closure that runs with the value on every set; it can never be removed.
  func bindObserver(_ observer: @escaping (Int) -> Void)
}

/// Drives an ``AppendOnlyObservable``: anonymous closures, no removal.
public final class AppendOnlyAdapter<Observable: AppendOnlyObservable>: AdapterBase<Observable>,
  ShapeAdapter
{
  /// No identity: every closure is anonymous.
  public static var identity: ObservableDesign.Identity { .none }
  /// It reports its entries, and can do nothing more.
  public static var capabilities: Set<ObservableDesign.Capability> { [.storedEntryCount] }

  /// Binds the subscription's closure.
  public func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(subscription.closure { .new($0) })
  }
}

// MARK: - Closures removed by an id

/// The shape of closures that binding hands an id for, and the id removes.
public protocol RemovableClosuresObservable: AdaptableObservable {
  /// What binding hands out.
  associatedtype ID
  /// Binds a closure, called with the value, and hands out the id that removes it.
  func bindObserver(_ observer: @escaping (Int) -> Void) -> ID
  /// Removes the closure bound with `id`.
  func removeObserver(_ id: ID)
}

/// Drives a ``RemovableClosuresObservable``: the ids are kept by owner and key, and
/// unsubscribing removes them.
public final class RemovableClosuresAdapter<Observable: RemovableClosuresObservable>:
  AdapterBase<Observable>, ShapeAdapter
{
  /// No identity: every closure is anonymous.
  public static var identity: ObservableDesign.Identity { .none }
  /// It unsubscribes and reports its entries.
  public static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount]
  }

  /// The ids handed out, by owner and key.
  private var ids: [ObjectIdentifier: [String: [Observable.ID]]] = [:]

  /// Binds the subscription's closure and keeps its id.
  public func subscribe(_ subscription: ScenarioSubscription) {
    let id = observable.bindObserver(subscription.closure { .new($0) })
    let owner = ObjectIdentifier(subscription.owner)
    ids[owner, default: [:]][subscription.key, default: []].append(id)
  }

  /// Removes every closure bound for the subscription's owner and key.
  public func unsubscribe(_ subscription: ScenarioSubscription) {
    let owner = ObjectIdentifier(subscription.owner)
    for id in ids[owner]?.removeValue(forKey: subscription.key) ?? [] {
      observable.removeObserver(id)
    }
  }
}

// MARK: - Closures by key: stage 2

/// The shape of stage 2: closures stored under a string key.
public protocol KeyedObservable: AdaptableObservable {
  /// Stores a closure, called with the value, under `key`.
  func bindObserver(forKey key: String, _ observer: @escaping (Int) -> Void)
  /// Removes the closure stored under `key`.
  func removeObserver(forKey key: String)
}

/// Drives a ``KeyedObservable`` with each subscription's key.
public final class KeyedAdapter<Observable: KeyedObservable>: AdapterBase<Observable>, ShapeAdapter
{
  /// By key.
  public static var identity: ObservableDesign.Identity { .key }
  /// It unsubscribes and reports its entries.
  public static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount]
  }

  /// Stores the subscription's closure under its key.
  public func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(forKey: subscription.key, subscription.closure { .new($0) })
  }

  /// Removes the closure stored under the subscription's key.
  public func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(forKey: subscription.key)
  }
}

// MARK: - Closures by owner and key

/// The shape of closures stored under their owner and a key.
public protocol OwnerKeyedObservable: AdaptableObservable {
  /// Stores a closure, called with the value, under the object it belongs to and its name
  /// among that object's.
  func bindObserver(_ owner: AnyObject, forKey key: String, _ observer: @escaping (Int) -> Void)
  /// Removes the closure stored under `owner` and `key`.
  func removeObserver(_ owner: AnyObject, forKey key: String)
}

/// Drives an ``OwnerKeyedObservable`` with each subscription's owner and key.
public final class OwnerKeyedAdapter<Observable: OwnerKeyedObservable>: AdapterBase<Observable>,
  ShapeAdapter
{
  /// By key, scoped to the owner.
  public static var identity: ObservableDesign.Identity { .key }
  /// It unsubscribes and reports its entries.
  public static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount]
  }

  /// Stores the subscription's closure under its owner and key.
  public func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(
      subscription.owner, forKey: subscription.key, subscription.closure { .new($0) })
  }

  /// Removes the closure stored under the subscription's owner and key.
  public func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.owner, forKey: subscription.key)
  }
}

// MARK: - Owners held weakly: stage 3

/// The shape of stage 3: a closure bound for an owner the observable holds weakly.
public protocol WeakObservable: AdaptableObservable {
  /// Binds `closure`, called with the value, for `observer`, held weakly: the observer's
  /// lifetime bounds the closure.
  func bindObserver(_ observer: AnyObject, closure: @escaping (Int) -> Void)
}

/// Drives a ``WeakObservable`` with each subscription's owner.
public final class WeakAdapter<Observable: WeakObservable>: AdapterBase<Observable>, ShapeAdapter {
  /// By the owner.
  public static var identity: ObservableDesign.Identity { .object }
  /// It reports its entries; an owner's closure goes with the owner.
  public static var capabilities: Set<ObservableDesign.Capability> { [.storedEntryCount] }

  /// Binds the subscription's closure for its owner.
  public func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(subscription.owner, closure: subscription.closure { .new($0) })
  }
}

// MARK: - Options: stage 4

/// Options in the manner of KVO's: which values an observer asks for. Stage 4's
/// `ObservableOptions` has this shape.
public protocol DeliveryOptions: OptionSet, Sendable where Element == Self {
  /// The current value, on adding.
  static var initial: Self { get }
  /// The value a set replaces.
  static var old: Self { get }
  /// The value a set stores.
  static var new: Self { get }
}

extension DeliveryOptions {
  /// The options a subscription asks for: always the new value.
  fileprivate init(_ subscription: ScenarioSubscription) {
    self = .new
    if subscription.wantsInitial { insert(.initial) }
    if subscription.wantsOld { insert(.old) }
  }

  /// What a call with `value` for this option delivers.
  fileprivate func delivery(of value: Int) -> Delivery {
    if self == .initial { return .initial(value) }
    if self == .old { return .old(value) }
    return .new(value)
  }
}

extension ScenarioSubscription {
  /// The closure a design with options stores: each value and option it is called with become a
  /// delivery.
  fileprivate func optionsClosure<Options: DeliveryOptions>() -> (Int, Options) -> Void {
    let closure = self.closure { (value: Int, option: Options) in option.delivery(of: value) }
    return { closure(($0, $1)) }
  }
}

/// The shape of stage 4: a callback per observer, held weakly, asking for some of the values.
public protocol OptionsObservable: AdaptableObservable {
  /// The option set.
  associatedtype Options: DeliveryOptions
  /// Adds a callback for `observer`, held weakly, called with each value `options` asks for and
  /// the option it answers; `removeIfExists` removes the observer's earlier callbacks first.
  func addObserver(
    _ observer: AnyObject, removeIfExists: Bool, options: Options,
    closure: @escaping (Int, Options) -> Void)
  /// Removes `observer`'s callbacks.
  func removeObserver(_ observer: AnyObject)
}

/// Drives an ``OptionsObservable``: each subscription's owner, with the options it asks for.
public final class OptionsAdapter<Observable: OptionsObservable>: AdapterBase<Observable>,
  ShapeAdapter
{
  /// By the owner.
  public static var identity: ObservableDesign.Identity { .object }
  /// It unsubscribes, reports its entries and delivers initial and old values.
  public static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount, .initialValue, .oldValue]
  }

  /// Adds the subscription's closure for its owner, replacing the owner's earlier ones.
  public func subscribe(_ subscription: ScenarioSubscription) {
    observable.addObserver(
      subscription.owner, removeIfExists: true, options: Observable.Options(subscription),
      closure: subscription.optionsClosure())
  }

  /// Removes the owner's callbacks.
  public func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.owner)
  }
}

/// The shape of stage 4 with the handler handed its observer, so that it need not capture it.
public protocol HandingObservable: AdaptableObservable {
  /// The option set.
  associatedtype Options: DeliveryOptions
  /// Adds a handler for `observer`, called with the observer, each value `options` asks for and
  /// the option it answers; `removeIfExists` removes the observer's earlier handlers first.
  func addObserver<Observer: AnyObject>(
    _ observer: Observer, removeIfExists: Bool, options: Options,
    handler: @escaping (Observer, Int, Options) -> Void)
  /// Removes `observer`'s handlers.
  func removeObserver(_ observer: AnyObject)
}

/// Drives a ``HandingObservable``: the handler is handed its owner, so it captures nothing.
public final class HandingAdapter<Observable: HandingObservable>: AdapterBase<Observable>,
  ShapeAdapter
{
  /// By the owner.
  public static var identity: ObservableDesign.Identity { .object }
  /// Those of ``OptionsAdapter``, and it hands each handler its owner.
  public static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount, .initialValue, .oldValue, .handsOwnerToHandler]
  }

  /// Adds the subscription's handler for its owner, replacing the owner's earlier ones.
  public func subscribe(_ subscription: ScenarioSubscription) {
    let handler = subscription.handler
    observable.addObserver(
      subscription.owner, removeIfExists: true, options: Observable.Options(subscription)
    ) { _, value, option in handler(option.delivery(of: value)) }
  }

  /// Removes the owner's handlers.
  public func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.owner)
  }
}

/// The shape of stage 4 with `Sendable` observers and closures.
public protocol SendableOptionsObservable: AdaptableObservable, SendableMetatype {
  /// The option set.
  associatedtype Options: DeliveryOptions
  /// Adds a callback for `observer`, held weakly, called on any thread with each value `options`
  /// asks for and the option it answers; `removeIfExists` removes the observer's earlier
  /// callbacks first.
  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: Options,
    closure: @escaping @Sendable (Int, Options) -> Void)
  /// Removes `observer`'s callbacks.
  func removeObserver(_ observer: AnyObject & Sendable)
}

/// Drives a ``SendableOptionsObservable``. Its owners are the scenarios' `Sendable` stand-ins
/// (``ScenarioSubscription/sendableOwner``).
public final class SendableOptionsAdapter<Observable: SendableOptionsObservable>: AdapterBase<
  Observable
>, ShapeAdapter
{
  /// By the owner.
  public static var identity: ObservableDesign.Identity { .object }
  /// Those of ``OptionsAdapter``.
  public static var capabilities: Set<ObservableDesign.Capability> {
    [.unsubscribe, .storedEntryCount, .initialValue, .oldValue]
  }

  /// Adds the subscription's closure for its owner's stand-in, replacing earlier ones.
  public func subscribe(_ subscription: ScenarioSubscription) {
    // A scenario sets on one thread, and the observable calls back on the thread that sets.
    let closure = SingleThreaded<(Int, Observable.Options) -> Void>(subscription.optionsClosure())
    observable.addObserver(
      subscription.sendableOwner, removeIfExists: true, options: Observable.Options(subscription)
    ) { closure.value($0, $1) }
  }

  /// Removes the callbacks of the owner's stand-in.
  public func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.sendableOwner)
  }
}
