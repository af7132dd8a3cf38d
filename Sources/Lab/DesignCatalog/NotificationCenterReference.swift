import Foundation
import ObserverScenarios
import StageBench
import Support

extension CatalogEntry {
  /// Foundation's `NotificationCenter`: block observers on a private center, the value in
  /// `userInfo`, removal with the returned token.
  package static let notificationCenter = reference(
    ObservableDesign(
      id: "notificationcenter", name: "NotificationCenter", shortName: "nc",
      title: "Foundation's NotificationCenter, block observers", module: "Foundation",
      typeName: "NotificationCenter", role: .reference, identity: .none,
      capabilities: [.unsubscribe],
      inapplicable: [
        .storedEntryCount: "NotificationCenter does not say how many observers it holds",
        .initialValue: "a notification is an event: the center has no current value to deliver",
        .oldValue: "a notification carries only what its poster puts in userInfo",
      ],
      notes: [
        .releasedObserverNotCalled:
          "the center keeps the block until removeObserver is called with its token"
      ],
      isSendable: ObservableDesign.isSendable(NotificationCenter.self),
      makeObservable: { NotificationCenterAdapter($0) })
  ) { NotificationCenterBenchObservable() }
}

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

  func subscribe(_ subscription: ScenarioSubscription) {
    // A scenario posts on one thread, and a block observer with no queue runs on the
    // posting thread.
    let handler = SingleThreaded(
      subscription.closure { (note: Notification) -> Delivery in
        .new(note.userInfo?["value"] as? Int ?? .min)
      })
    let token = center.addObserver(forName: Self.valueDidChange, object: nil, queue: nil) {
      handler.value($0)
    }
    tokens[ObjectIdentifier(subscription.owner), default: []].append(token)
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    for token in tokens.removeValue(forKey: ObjectIdentifier(subscription.owner)) ?? [] {
      center.removeObserver(token)
    }
  }
}

/// Foundation's NotificationCenter: block observers on a private center; each reads the new
/// value from the observable the notification names.
private final class NotificationCenterBenchObservable: BenchObservable {
  let center = NotificationCenter()
  let name = Notification.Name("ValueDidChange")
  // Read only by blocks the bench's one thread runs, inside post.
  let holder = SingleThreadedBox(0)
  var tokens: [Int: any NSObjectProtocol] = [:]

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    let holder = holder
    tokens[index] = center.addObserver(forName: name, object: nil, queue: nil) { _ in
      sum.add(holder.value)
    }
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    if let token = tokens.removeValue(forKey: index) { center.removeObserver(token) }
  }

  func set(_ value: Int) {
    holder.value = value
    center.post(name: name, object: nil)
  }
}
