import LifetimeTracking

/// What an observer receives in a scenario, whatever the design calls it.
public enum Delivery: Equatable, Sendable {
  /// The current value, delivered when subscribing (stage 4's `.initial`).
  case initial(Int)
  /// The value being replaced by a set (stage 4's `.old`).
  case old(Int)
  /// The value just set.
  case new(Int)

  /// The value delivered when it is a new one, else `nil`.
  public var newValue: Int? {
    if case .new(let value) = self { value } else { nil }
  }
}

/// A request to observe, phrased so that every design can honour the part it understands.
///
/// A design with anonymous closures ignores the owner and the key, one keyed by strings uses
/// the key, one that holds its observers weakly uses the owner. The handler is what the
/// scenario wants called; store ``closure(_:)`` rather than the handler itself, so that the
/// scenario can make the stored closure capture its owner when it tests what that does.
///
/// Keep what you need of a request (its owner's identity, its key), never the request
/// itself: it holds its owner strongly, and a design that kept it would keep every owner alive.
public struct ScenarioSubscription {
  /// The owner, held strongly for as long as the request lives.
  private let scenarioOwner: ScenarioOwner
  /// The name to subscribe under, for a design that keys its observers by name.
  public var key: String
  /// Whether to ask for the current value at once.
  public var wantsInitial = false
  /// Whether to ask for the value being replaced on every set.
  public var wantsOld = false
  /// Whether the stored closure captures the owner strongly, as an unwary closure does when it
  /// uses `self`.
  public var capturesOwnerStrongly = false
  /// Receives every delivery. A design that hands the owner to its handler may call it
  /// directly; any other stores ``closure(_:)``.
  public var handler: (Delivery) -> Void

  /// Creates a subscription request on behalf of `owner`, to drive an adapter from a test of
  /// your own, outside the sixteen scenarios (which make their requests the same way).
  ///
  /// ```swift
  /// let owner = ScenarioOwner(name: "screen")
  /// var received: [Int] = []
  /// let adapter = MyAdapter(0)
  /// adapter.subscribe(ScenarioSubscription(owner: owner) { received.append($0.newValue ?? -1) })
  /// adapter.value = 1  // received == [1]
  /// ```
  ///
  /// The subscription is filed under `key`, which defaults to the owner's name.
  public init(
    owner: ScenarioOwner, key: String? = nil, handler: @escaping (Delivery) -> Void
  ) {
    scenarioOwner = owner
    self.key = key ?? owner.name
    self.handler = handler
  }

  /// The object on whose behalf the subscription is made: subscribe it, hold it weakly, or
  /// file the subscription under it for ``ScenarioObservable/unsubscribe(_:)``.
  public var owner: AnyObject { scenarioOwner }

  /// The owner's name, unique within a scenario.
  public var ownerName: String { scenarioOwner.name }

  /// A `Sendable` object that lives exactly as long as ``owner``, for a design that wants its
  /// owners `Sendable`; the same object every time for the same owner.
  public var sendableOwner: SendableStandIn { scenarioOwner.standIn }

  // MARK: - Tokens kept by the owner

  /// Keeps `token` on the owner, under this request's ``key``, so that it lives exactly as long
  /// as the owner does: what app code does with a token an observable hands back (an
  /// `AnyCancellable` stored in a view model's set, a `Disposable` added to a `DisposeBag`).
  ///
  /// A design whose subscriptions end when their token is freed stores the token here, and is
  /// graded as it is meant to be used: when the owner is released, so is the token.
  ///
  /// ```swift
  /// func subscribe(_ subscription: ScenarioSubscription) {
  ///   subscription.storeInOwner(observable.observe(subscription.closure { .new($0) }))
  /// }
  /// ```
  public func storeInOwner(_ token: Any) {
    scenarioOwner.tokens[key, default: []].append(token)
  }

  /// The tokens kept on the owner under this request's ``key``, oldest first.
  public var tokensInOwner: [Any] { scenarioOwner.tokens[key] ?? [] }

  /// Removes the tokens kept on the owner under this request's ``key`` and returns them, for
  /// ``ScenarioObservable/unsubscribe(_:)`` to cancel them (or to let them go, for a token that
  /// cancels when freed), oldest first.
  @discardableResult
  public func removeTokensFromOwner() -> [Any] {
    scenarioOwner.tokens.removeValue(forKey: key) ?? []
  }

  /// The closure a design stores: it converts what the design passes into a ``Delivery`` and
  /// calls ``handler``, holding the owner strongly when the scenario asks it to. `delivery`
  /// turns what the design passes its closures into a delivery.
  public func closure<Input>(_ delivery: @escaping (Input) -> Delivery) -> (Input) -> Void {
    let handler = self.handler
    if capturesOwnerStrongly {
      let owner = scenarioOwner
      return { input in withExtendedLifetime(owner) { handler(delivery(input)) } }
    }
    return { input in handler(delivery(input)) }
  }
}

/// An owner for a subscription you make yourself, in a test of your adapter: it has a name,
/// and keeps what ``ScenarioSubscription/storeInOwner(_:)`` stores on it for as long as it
/// lives.
public final class ScenarioOwner {
  /// The name given when it was made.
  public let name: String
  /// For an owner of the scenarios, what tells their tracker that it is freed: it lives exactly
  /// as long as this owner.
  let tracked: TrackedOwner?
  /// Its `Sendable` stand-in, made on first use.
  fileprivate lazy var standIn = SendableStandIn()
  /// The tokens kept on it, by key.
  fileprivate var tokens: [String: [Any]] = [:]

  /// Makes an owner with a name to tell owners apart.
  public init(name: String) {
    self.name = name
    tracked = nil
  }

  /// Makes an owner of the scenarios, whose release `tracked`'s tracker counts.
  init(tracking tracked: TrackedOwner) {
    name = tracked.name
    self.tracked = tracked
  }
}

extension LifetimeTracker {
  /// Makes an owner of the scenarios whose release this tracker counts.
  func makeOwner(name: String = "observer") -> ScenarioOwner {
    ScenarioOwner(tracking: makeObject(name: name))
  }

  /// Makes `count` owners of the scenarios whose releases this tracker counts.
  func makeOwners(_ count: Int) -> [ScenarioOwner] {
    makeObjects(count).map(ScenarioOwner.init(tracking:))
  }
}

/// The `Sendable` object that stands in for a scenario's owner, which is not `Sendable`: the
/// owner keeps it, so it lives exactly as long as the owner does. See
/// ``ScenarioSubscription/sendableOwner``.
public final class SendableStandIn: Sendable {
  fileprivate init() {}
}

/// An observable of `Int`, driven by the scenarios through one interface: the adapter a design
/// writes over its own observable.
///
/// Every method is called on one thread, the scenario's. A design need implement only what its
/// ``ObservableDesign/capabilities`` promise: ``unsubscribe(_:)`` is called only on a design
/// that can unsubscribe, and ``storedEntryCount`` only on one that reports it.
public protocol ScenarioObservable: AnyObject {
  /// The observed value; setting it notifies as the design does.
  var value: Int { get set }
  /// How many entries the design stores, dead ones included where it keeps them. Read only
  /// when the design claims ``ObservableDesign/Capability/storedEntryCount``.
  var storedEntryCount: Int { get }
  /// Subscribes as the design can; parts of the request it has no idea of are ignored.
  func subscribe(_ subscription: ScenarioSubscription)
  /// Ends the subscriptions of the request's owner made under its key, passed to
  /// ``subscribe(_:)`` earlier.
  func unsubscribe(_ subscription: ScenarioSubscription)
}

extension ScenarioObservable {
  /// For a design that does not report its entries: `0`, which no scenario reads, since a
  /// design that does not claim ``ObservableDesign/Capability/storedEntryCount`` is never
  /// asked.
  public var storedEntryCount: Int { 0 }

  /// For a design that cannot unsubscribe: does nothing, and no scenario calls it.
  public func unsubscribe(_ subscription: ScenarioSubscription) {}
}
