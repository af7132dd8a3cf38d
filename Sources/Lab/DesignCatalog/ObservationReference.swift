import Observation
import ObserverScenarios
import StageBench
import Support

extension CatalogEntry {
  /// Swift's Observation: an `@Observable` class, `withObservationTracking` re-armed in
  /// `onChange`.
  package static let observation = reference(
    ObservableDesign(
      id: "observation", name: "Observation", shortName: "obs",
      title: "Swift's Observation, withObservationTracking re-armed in onChange",
      module: "Observation", typeName: "An @Observable class", role: .reference,
      identity: .none, capabilities: [.initialValue, .deliversBeforeWrite],
      inapplicable: [
        .storedEntryCount: "Observation does not say how many trackings are armed",
        .unsubscribe:
          "Observation has no way to cancel a tracking: code stops re-arming it, and one "
          + "already armed still fires once",
        .oldValue:
          "onChange carries no value; read there, the property still holds the value before "
          + "the write",
      ],
      notes: [
        .releasedObserverNotCalled: "the tracking re-arms itself and knows nothing of an owner",
        .deliversEveryChange:
          "onChange fires before the write, so the value read there is the one being replaced",
      ],
      isSendable: ObservableDesign.isSendable(ObservedValue.self),
      makeObservable: { ObservationAdapter($0) })
  ) { ObservationBenchObservable() }
}

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

  func subscribe(_ subscription: ScenarioSubscription) {
    // onChange runs on the thread that sets, the scenario's one thread.
    let handler = SingleThreaded(subscription.closure { (delivery: Delivery) in delivery })
    let model = WeakModel(model)
    let current = track({ model.object?.value }, changed: { handler.value(.new($0)) })
    if subscription.wantsInitial { handler.value(.initial(current ?? 0)) }
  }
}

/// Arms a tracking of what `read` reads, and returns what it read; when the tracking fires, it
/// hands `changed` what `read` reads then and arms again, since a tracking fires once. `onChange`
/// runs before the write, so that is the value being replaced; `nil` once the model is gone.
@discardableResult
func track(
  _ read: @escaping @Sendable () -> Int?, changed: @escaping @Sendable (Int) -> Void
) -> Int? {
  withObservationTracking {
    read()
  } onChange: {
    guard let value = read() else { return }
    changed(value)
    track(read, changed: changed)
  }
}

/// The model, held weakly by its own trackings, so that the model and the closures it keeps do
/// not keep each other alive. Unchecked `Sendable` for the reason `SingleThreaded` gives.
final class WeakModel: @unchecked Sendable {
  weak var object: ObservedValue?

  init(_ object: ObservedValue) { self.object = object }
}

/// Swift's Observation: an `@Observable` model, each observer re-arming
/// `withObservationTracking` in its `onChange`, which fires once, before the write.
private final class ObservationBenchObservable: BenchObservable {
  let model = ObservedValue(0)

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    // Carried into `onChange`, which must be `@Sendable`. Sound: the bench sets the value on
    // its one thread, and `onChange` runs there, inside the set.
    let carried = SingleThreaded(model)
    track({ carried.value.value }, changed: { sum.add($0) })
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {}

  func set(_ value: Int) { model.value = value }
}
