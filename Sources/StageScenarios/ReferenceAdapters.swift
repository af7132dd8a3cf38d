import Foundation
import LifetimeTracking
import Observation

/// Carries a closure where a `@Sendable` one is required.
///
/// Unchecked, and sound: a scenario makes its observable, subscribes, sets and reads on one
/// thread, and every implementation here calls its observers on the thread that sets, so what
/// this carries never crosses threads.
struct SingleThreadBox<Value>: @unchecked Sendable {
  let value: Value
}

/// Builds the references' adapters.
enum ReferenceAdapters {
  static func make(_ reference: Reference, value: Int) -> any ScenarioObservable {
    switch reference {
    case .notificationCenter: NotificationCenterAdapter(value)
    case .observation: ObservationAdapter(value)
    }
  }

  static func isSendable(_ reference: Reference) -> Bool {
    switch reference {
    case .notificationCenter: isSendableType(NotificationCenter.self)
    case .observation: isSendableType(ObservedValue.self)
    }
  }
}

// MARK: - NotificationCenter

/// A value whose sets are posted on a private `NotificationCenter`, the new value in `userInfo`.
final class NotificationCenterAdapter: ScenarioObservable {
  private static let valueDidChange = Notification.Name("ScenarioValueDidChange")
  private let center = NotificationCenter()
  private var storedValue: Int
  /// The tokens each owner's subscriptions returned, for removing them.
  private var tokens: [ObjectIdentifier: [any NSObjectProtocol]] = [:]

  init(_ value: Int) { storedValue = value }

  var value: Int {
    get { storedValue }
    set {
      storedValue = newValue
      center.post(name: Self.valueDidChange, object: nil, userInfo: ["value": newValue])
    }
  }

  var storedEntryCount: Int {
    preconditionFailure("NotificationCenter does not report its observers")
  }

  func subscribe(_ subscription: ScenarioSubscription) {
    let handler = SingleThreadBox(
      value: subscription.closure { (note: Notification) -> Delivery in
        .new(note.userInfo?["value"] as? Int ?? .min)
      })
    let token = center.addObserver(forName: Self.valueDidChange, object: nil, queue: nil) {
      handler.value($0)
    }
    tokens[ObjectIdentifier(subscription.owner), default: []].append(token)
  }

  func unsubscribe(owner: TrackedObject, key: String) {
    for token in tokens.removeValue(forKey: ObjectIdentifier(owner)) ?? [] {
      center.removeObserver(token)
    }
  }
}

// MARK: - Observation

/// The observed value, as an `@Observable` class.
@Observable
final class ObservedValue {
  var value: Int

  init(_ value: Int) { self.value = value }
}

/// A value in an `@Observable` class; each subscription is a `withObservationTracking` that
/// re-arms itself in `onChange`, because a tracking fires once.
final class ObservationAdapter: ScenarioObservable {
  private let model: ObservedValue

  init(_ value: Int) { model = ObservedValue(value) }

  var value: Int {
    get { model.value }
    set { model.value = newValue }
  }

  var storedEntryCount: Int {
    preconditionFailure("Observation does not report its trackings")
  }

  func subscribe(_ subscription: ScenarioSubscription) {
    let handler = SingleThreadBox(value: subscription.closure { (delivery: Delivery) in delivery })
    let current = Self.track(WeakModel(model), handler: handler)
    if subscription.wantsInitial { handler.value(.initial(current)) }
  }

  func unsubscribe(owner: TrackedObject, key: String) {
    preconditionFailure("Observation has no way to cancel a tracking")
  }

  /// Arms a tracking of the value; when it fires, reports what the value reads then, and
  /// arms again. Returns the value read while arming.
  private static func track(_ model: WeakModel, handler: SingleThreadBox<(Delivery) -> Void>) -> Int
  {
    withObservationTracking {
      model.object?.value ?? 0
    } onChange: {
      // onChange runs before the write: this reads the value being replaced.
      guard let value = model.object?.value else { return }
      handler.value(.new(value))
      _ = track(model, handler: handler)
    }
  }
}

/// The model, held weakly by its own trackings, so that the model and the closures it keeps do
/// not keep each other alive. Unchecked `Sendable` for the reason `SingleThreadBox` gives.
private final class WeakModel: @unchecked Sendable {
  weak var object: ObservedValue?

  init(_ object: ObservedValue) { self.object = object }
}
