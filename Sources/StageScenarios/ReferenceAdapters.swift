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
    case .observations:
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        ObservationsAdapter(value)
      } else {
        // `Reference.allCases` leaves it out where it cannot run, so nothing asks for it here.
        preconditionFailure("Observations needs macOS, iOS, tvOS, watchOS or visionOS 26")
      }
    }
  }

  static func isSendable(_ reference: Reference) -> Bool {
    switch reference {
    case .notificationCenter: isSendableType(NotificationCenter.self)
    case .observation, .observations: isSendableType(ObservedValue.self)
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

// MARK: - Observations

/// A task executor that runs every job on one thread of its own, and can tell when it has
/// nothing left to run.
///
/// The `Observations` adapter runs its consumers here, so that a scenario, which sets a value
/// and then looks at what its observers received, can wait for the consumers to have run,
/// without needing a thread of Swift's cooperative pool (which a blocked test thread may hold).
package final class DedicatedExecutor: TaskExecutor, @unchecked Sendable {
  // Unchecked: `jobs` and `isRunning` are touched only with `condition` locked.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var isRunning = false
  private var thread: Thread?

  /// The one the adapters and the bench share.
  package static let shared = DedicatedExecutor()

  private init() {
    let thread = Thread { [unowned self] in self.runJobs() }
    thread.name = "Observations consumers"
    self.thread = thread
    thread.start()
  }

  /// Whether this code runs on the executor's thread: inside a consumer.
  package var isCurrent: Bool { Thread.current === thread }

  /// Runs `body` on the executor's thread and returns what it returns, once every job enqueued
  /// before it has run too.
  package func runAndWait<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
    let result = ResultBox<Result>()
    Task(executorPreference: self) { result.value = body() }
    waitUntilIdle()
    return result.value!
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.broadcast()
    condition.unlock()
  }

  /// Returns once every job enqueued so far, and every job those enqueued, has run.
  package func waitUntilIdle() {
    condition.lock()
    while isRunning || !jobs.isEmpty { condition.wait() }
    condition.unlock()
  }

  private func runJobs() {
    while true {
      condition.lock()
      while jobs.isEmpty {
        isRunning = false
        condition.broadcast()
        condition.wait()
      }
      let job = jobs.removeFirst()
      isRunning = true
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// Where ``DedicatedExecutor/runAndWait(_:)`` leaves its result. Unchecked: written on the
/// executor's thread before it goes idle, read after `waitUntilIdle()`, which orders the two.
private final class ResultBox<Value>: @unchecked Sendable {
  var value: Value?
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
  private let executor = DedicatedExecutor.shared

  init(_ value: Int) { model = ObservedValue(value) }

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

  var storedEntryCount: Int {
    preconditionFailure("Observations does not report its consumers")
  }

  func subscribe(_ subscription: ScenarioSubscription) {
    let handler = SingleThreadBox(value: subscription.closure { (delivery: Delivery) in delivery })
    let model = WeakModel(model)
    let wantsInitial = subscription.wantsInitial
    let task = Task(executorPreference: executor) {
      var isFirst = true
      // The first element is the value when the sequence was made: the initial value.
      for await value in Observations({ model.object?.value ?? 0 }) {
        // A cancelled consumer may still be handed the change it was waiting for.
        guard !Task.isCancelled else { break }
        if isFirst {
          isFirst = false
          if wantsInitial { handler.value(.initial(value)) }
          continue
        }
        handler.value(.new(value))
      }
    }
    tasks[ObjectIdentifier(subscription.owner), default: []].append(task)
    if !executor.isCurrent { executor.waitUntilIdle() }
  }

  func unsubscribe(owner: TrackedObject, key: String) {
    for task in tasks.removeValue(forKey: ObjectIdentifier(owner)) ?? [] {
      task.cancel()
    }
    if !executor.isCurrent { executor.waitUntilIdle() }
  }
}
