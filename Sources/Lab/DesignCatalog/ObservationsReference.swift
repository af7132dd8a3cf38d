import AllocationCounter
import Observation
import ObserverScenarios
import StageBench
import Support

extension CatalogEntry {
  /// Swift's `Observations` (SE-0475): an `@Observable` class, each observer a task iterating
  /// the asynchronous sequence of its value.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  package static let observations: CatalogEntry = {
    // The one thread the design's consumers run on: made here, and handed to every observable
    // and bench observable the design makes.
    let consumers = DedicatedExecutor()
    var entry = reference(
      ObservableDesign(
        id: "observations", name: observationsName, shortName: "obsns",
        title: "Swift's Observations, an async sequence of values, one task each",
        module: "Observation", typeName: "The @Observable class that Observations reads",
        role: .reference, identity: .none, capabilities: [.initialValue, .unsubscribe],
        inapplicable: [
          .storedEntryCount: "Observations does not say how many consumers are iterating it",
          .oldValue:
            "each element is the value read when the consumer runs; the one before is not kept",
        ],
        notes: [
          .releasedObserverNotCalled:
            "the consuming task keeps iterating until it is cancelled and knows nothing of an "
            + "owner"
        ],
        isSendable: ObservableDesign.isSendable(ObservedValue.self),
        makeObservable: { ObservationsAdapter($0, executor: consumers) })
    ) { ObservationsBenchObservable(executor: consumers) }
    entry.contenders[0].deliversOnAnotherThread = true
    return entry
  }()

  /// The name of `Observations`' column and bench row, known on every OS, so that a platform
  /// without it can tell which rows of a table measured elsewhere it cannot print.
  package static let observationsName = "Observations"
}

/// A value in an `@Observable` class, each subscription a task that iterates `Observations`
/// (SE-0475), the Observation module's own asynchronous sequence of a value's changes.
///
/// Observations delivers later, on the consuming task, and coalesces the changes made before the
/// consumer gets to run. The model is touched only on one thread, the executor's, as an app's
/// model is touched only on its actor: a set made outside a consumer runs there and waits until
/// every consumer has run, so each scenario sees what a reader who waits for the consumer sees;
/// a set made inside one, by a handler, happens at once, and the consumer reads the value when
/// its turn comes.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
final class ObservationsAdapter: ScenarioObservable {
  private let model: ObservedValue
  private var tasks: [ObjectIdentifier: [Task<Void, Never>]] = [:]
  private let executor: DedicatedExecutor

  init(_ value: Int, executor: DedicatedExecutor) {
    model = ObservedValue(value)
    self.executor = executor
  }

  deinit {
    for task in tasks.values.joined() { task.cancel() }
  }

  var value: Int {
    get { model.value }
    set {
      guard !executor.isCurrent else {
        model.value = newValue
        return
      }
      let model = WeakModel(model)
      Task(executorPreference: executor) { model.object?.value = newValue }
      executor.waitUntilIdle()
    }
  }

  func subscribe(_ subscription: ScenarioSubscription) {
    // Consumers run on the executor's one thread, while the scenario's thread waits.
    let handler = SingleThreaded(subscription.closure { (delivery: Delivery) in delivery })
    let model = WeakModel(model)
    let wantsInitial = subscription.wantsInitial
    let task = executor.consume(
      { model.object?.value ?? 0 },
      first: { if wantsInitial { handler.value(.initial($0)) } },
      next: { handler.value(.new($0)) })
    tasks[ObjectIdentifier(subscription.owner), default: []].append(task)
    if !executor.isCurrent { executor.waitUntilIdle() }
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    for task in tasks.removeValue(forKey: ObjectIdentifier(subscription.owner)) ?? [] {
      task.cancel()
    }
    if !executor.isCurrent { executor.waitUntilIdle() }
  }
}

@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
extension DedicatedExecutor {
  /// A consumer run here: a task iterating `Observations` of what `read` returns, which hands
  /// `first` the first element, the value when the sequence was made, and `next` each one after,
  /// until it is cancelled (a cancelled consumer may still be handed the change it was waiting
  /// for).
  func consume(
    _ read: @escaping @Sendable () -> Int, first: @escaping @Sendable (Int) -> Void = { _ in },
    next: @escaping @Sendable (Int) -> Void
  ) -> Task<Void, Never> {
    Task(executorPreference: self) {
      var isFirst = true
      for await value in Observations(read) {
        guard !Task.isCancelled else { break }
        if isFirst {
          isFirst = false
          first(value)
        } else {
          next(value)
        }
      }
    }
  }
}

/// Swift's `Observations`: each observer a task iterating the sequence, on the scenarios' own
/// dedicated executor, so that a set can wait until every consumer has added the value it was
/// handed. Every value is delivered because each set waits; an app that does not wait gets the
/// latest value, coalesced.
private final class ObservationsBenchObservable: BenchObservable {
  let executor: DedicatedExecutor
  /// The model, carried to the executor's thread: made here, then touched only there.
  let carried = SingleThreaded(ObservedValue(0))
  var tasks: [Int: Task<Void, Never>] = [:]

  init(executor: DedicatedExecutor) { self.executor = executor }

  deinit {
    for task in tasks.values { task.cancel() }
    executor.waitUntilIdle()
  }

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
    let carried = carried
    tasks[index] = executor.consume({ carried.value.value }, next: { sum.add($0) })
    executor.waitUntilIdle()
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    tasks.removeValue(forKey: index)?.cancel()
    executor.waitUntilIdle()
  }

  func set(_ value: Int) {
    let carried = carried
    Task(executorPreference: executor) { carried.value.value = value }
    executor.waitUntilIdle()
  }

  func countersElsewhere() -> (allocations: UInt64, liveBytes: Int64) {
    executor.runAndWait {
      (UInt64(allocation_counter_allocations()), Int64(allocation_counter_live_bytes()))
    }
  }
}
