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
  /// The object on whose behalf the subscription is made.
  package var trackedOwner: TrackedObject
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

  /// Creates a subscription request.
  ///
  /// - Parameters:
  ///   - owner: The object on whose behalf the subscription is made.
  ///   - key: The name to subscribe under; it defaults to the owner's name.
  ///   - handler: Receives every delivery.
  package init(
    owner: TrackedObject, key: String? = nil, handler: @escaping (Delivery) -> Void
  ) {
    self.trackedOwner = owner
    self.key = key ?? owner.name
    self.handler = handler
  }

  /// The object on whose behalf the subscription is made: subscribe it, hold it weakly, or
  /// file the subscription under it for ``ScenarioObservable/unsubscribe(_:)``.
  public var owner: AnyObject { trackedOwner }

  /// The owner's name, unique within a scenario.
  public var ownerName: String { trackedOwner.name }

  /// A `Sendable` object that lives exactly as long as ``owner``, for a design that wants its
  /// owners `Sendable`; the same object every time for the same owner.
  public var sendableOwner: SendableStandIn {
    if let standIn = trackedOwner.companion as? SendableStandIn { return standIn }
    let standIn = SendableStandIn()
    trackedOwner.companion = standIn
    return standIn
  }

  /// The closure a design stores: it converts what the design passes into a ``Delivery`` and
  /// calls ``handler``, holding the owner strongly when the scenario asks it to.
  ///
  /// - Parameter delivery: Turns what the design passes its closures into a delivery.
  /// - Returns: The closure to store.
  public func closure<Input>(_ delivery: @escaping (Input) -> Delivery) -> (Input) -> Void {
    let handler = self.handler
    if capturesOwnerStrongly {
      let owner = self.trackedOwner
      return { input in withExtendedLifetime(owner) { handler(delivery(input)) } }
    }
    return { input in handler(delivery(input)) }
  }
}

/// The `Sendable` object that stands in for a scenario's owner, which is not `Sendable`: the
/// owner keeps it as its companion, so it lives exactly as long as the owner does. See
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
  /// How many entries the design stores, dead ones included where it keeps them.
  var storedEntryCount: Int { get }
  /// Subscribes as the design can; parts of the request it has no idea of are ignored.
  ///
  /// - Parameter subscription: What to subscribe, on whose behalf, and what to ask for.
  func subscribe(_ subscription: ScenarioSubscription)
  /// Ends the subscriptions of the request's owner made under its key.
  ///
  /// - Parameter subscription: A request passed to ``subscribe(_:)`` earlier.
  func unsubscribe(_ subscription: ScenarioSubscription)
}

extension ScenarioObservable {
  /// For a design that does not report its entries: `-1`, which no scenario reads.
  public var storedEntryCount: Int { -1 }

  /// For a design that cannot unsubscribe: does nothing, and no scenario calls it.
  ///
  /// - Parameter subscription: Ignored.
  public func unsubscribe(_ subscription: ScenarioSubscription) {}
}
