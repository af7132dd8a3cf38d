import LifetimeTracking
import Stage5Concurrency

/// The `Sendable` object that stands in for a scenario's owner, which is not `Sendable`: the
/// owner keeps it as its companion, so it lives exactly as long as the owner does.
private final class OwnerStandIn: Sendable {}

final class ConcurrencyAdapter: ScenarioObservable {
  let observable: Stage5Concurrency.Observable<Int>

  init(_ value: Int) { observable = .init(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable._storedSubscriptionCount }

  var handsOwnerToHandler: Bool { true }

  func subscribe(_ subscription: ScenarioSubscription) {
    let standIn = standIn(for: subscription.owner)
    let carried = SingleThreadBox(value: subscription.handler)
    let wantsOld = subscription.wantsOld
    observable.observe(standIn, options: subscription.wantsInitial ? .initial : []) { _, change in
      switch change.kind {
      case .initial:
        carried.value(.initial(change.newValue))
      case .update:
        if wantsOld, let oldValue = change.oldValue { carried.value(.old(oldValue)) }
        carried.value(.new(change.newValue))
      }
    }
  }

  func unsubscribe(owner: TrackedObject, key: String) {
    if let standIn = owner.companion { observable.removeObserver(standIn) }
  }

  private func standIn(for owner: TrackedObject) -> OwnerStandIn {
    if let standIn = owner.companion as? OwnerStandIn { return standIn }
    let standIn = OwnerStandIn()
    owner.companion = standIn
    return standIn
  }
}
