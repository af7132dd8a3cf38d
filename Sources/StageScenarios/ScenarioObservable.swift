import LifetimeTracking

/// What an observer receives in a scenario, whatever the stage calls it.
package enum Delivery: Equatable, Sendable {
  /// The current value, delivered when subscribing (stage 4's `.initial`).
  case initial(Int)
  /// The value being replaced by a set (stage 4's `.old`).
  case old(Int)
  /// The value just set.
  case new(Int)

  /// The value delivered when it is a new one, else `nil`.
  package var newValue: Int? {
    if case .new(let value) = self { value } else { nil }
  }
}

/// A request to observe, phrased so that every stage and reference can honour the part it
/// understands.
///
/// Stage 1 and the references ignore the owner and the key (NotificationCenter files its
/// tokens by owner, for removal), stage 2 uses the key, stages 3 to 5 the owner.
package struct ScenarioSubscription {
  /// The object on whose behalf the subscription is made.
  package var owner: TrackedObject
  /// The name to subscribe under, for a stage that keys its observers by name.
  package var key: String
  /// Whether to ask for the current value at once.
  package var wantsInitial = false
  /// Whether to ask for the value being replaced on every set.
  package var wantsOld = false
  /// Whether the stored closure captures the owner strongly, as an unwary closure does when it
  /// uses `self`.
  package var capturesOwnerStrongly = false
  /// Receives every delivery.
  package var handler: (Delivery) -> Void

  /// Creates a subscription request.
  ///
  /// - Parameters:
  ///   - owner: The object on whose behalf the subscription is made.
  ///   - key: The name to subscribe under; it defaults to the owner's name.
  ///   - handler: Receives every delivery.
  package init(
    owner: TrackedObject, key: String? = nil, handler: @escaping (Delivery) -> Void
  ) {
    self.owner = owner
    self.key = key ?? owner.name
    self.handler = handler
  }

  /// The closure a stage stores: it calls `handler`, and holds the owner strongly when asked to.
  package func closure<Input>(_ delivery: @escaping (Input) -> Delivery) -> (Input) -> Void {
    let handler = self.handler
    if capturesOwnerStrongly {
      let owner = self.owner
      return { input in withExtendedLifetime(owner) { handler(delivery(input)) } }
    }
    return { input in handler(delivery(input)) }
  }
}

/// An observable of `Int` from one stage or reference, driven by the scenarios through one
/// interface.
package protocol ScenarioObservable: AnyObject {
  /// The observed value; setting it notifies as the stage does.
  var value: Int { get set }
  /// How many entries the stage stores, dead ones included where it keeps them.
  var storedEntryCount: Int { get }
  /// Subscribes as the stage can; parts of the request the stage has no idea of are ignored.
  func subscribe(_ subscription: ScenarioSubscription)
  /// Ends the subscriptions of `owner` made under `key`; never called on a stage without removal.
  func unsubscribe(owner: TrackedObject, key: String)
  /// Whether the stage hands the owner to its handler, so that the handler need not capture
  /// it; such a stage is asked to capture nothing, and the evidence says so.
  var handsOwnerToHandler: Bool { get }
}

extension ScenarioObservable {
  /// Stages 1 to 4 do not hand the owner to the handler.
  package var handsOwnerToHandler: Bool { false }
}
