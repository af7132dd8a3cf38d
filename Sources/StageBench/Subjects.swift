import AllocationCounter
import Foundation
import Observation
import Stage1Closures
import Stage2KeyedDict
import Stage3WeakRefs
import Stage4Options
import Stage5Concurrency
import StageScenarios

/// The running sum every bench callback adds to: real work the optimizer cannot drop, checked
/// after every measurement.
///
/// Unchecked `Sendable`, and sound: the bench runs on one thread, and stage 5 and Observation,
/// whose handlers must be `@Sendable`, call them on the thread that sets the value.
package final class Sum: @unchecked Sendable {
  package var value = 0
}

/// An observer object for the designs that want one.
package final class BenchOwner {
  /// What the observer keeps for as long as it lives, as a screen keeps its observation
  /// token: stage 5's token, which ends the subscription when the observer goes.
  var token: AnyObject?
}

/// One design, reduced to what the bench measures.
package protocol BenchSubject: AnyObject {
  /// Subscribes an observer, owned by `owner` where the design has owners, that adds each value
  /// it is given to `sum`.
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum)
  /// Ends that subscription; for a design with no removal, does nothing (the owner is then
  /// released instead).
  func unsubscribe(_ owner: BenchOwner, index: Int)
  /// Sets the value, notifying every observer.
  func set(_ value: Int)
  /// The allocation counters of a thread other than the caller's that the design does its work
  /// on, if any: allocations made so far, and live heap bytes.
  func countersElsewhere() -> (allocations: UInt64, liveBytes: Int64)
}

extension BenchSubject {
  /// Most designs do all their work on the setting thread.
  package func countersElsewhere() -> (allocations: UInt64, liveBytes: Int64) { (0, 0) }
}

/// A design in the bench: a stage, or a reference to compare the stages with.
package struct Contender: Sendable {
  /// "stage 4", "floor", "closure array", "NotificationCenter", "Observation".
  package var name: String
  /// The stage, for a stage.
  package var stage: Stage?
  /// Whether each callback receives the value before the set rather than after it.
  var deliversPreviousValue = false
  /// Whether subscriptions can be ended explicitly.
  var canUnsubscribe = true
  /// Whether each subscription costs O(n), so that registering the memory table's full count
  /// would take minutes: stage 3 cleans on every bind, stage 4 removes earlier callbacks first.
  var subscribingIsLinear = false
  /// Whether its observers run on another thread, which a set waits for. Such a contender is
  /// measured after the others, never between them: the threads it wakes keep a core busy for
  /// a while afterwards, which would slow whatever is measured next on a 2-core machine.
  var deliversOnAnotherThread = false
  var make: @Sendable () -> any BenchSubject

  package static let floor = Contender(name: "floor", make: { FloorSubject() })
  package static let closureArray = Contender(
    name: "closure array", make: { ClosureArraySubject() })
  /// Stage 5 with a handler isolated to the main actor, set from the main actor: a label's
  /// path. Measured only on the main actor, as compare-stages runs.
  package static let mainActorStage5 = Contender(
    name: "stage 5, main actor", make: { MainActorConcurrencyBench() })
  static let notificationCenter = Contender(
    name: "NotificationCenter", make: { NotificationCenterSubject() })
  static let observation = Contender(
    name: "Observation", deliversPreviousValue: true, canUnsubscribe: false,
    make: { ObservationSubject() })
  static let observations: Contender = {
    var contender = Contender(name: "Observations", make: { ObservationsSubject() })
    contender.deliversOnAnotherThread = true
    return contender
  }()

  /// The floor, the closure array, every stage, stage 5 on the main actor, then the platform's
  /// references.
  package static var all: [Contender] {
    [floor, closureArray] + Stage.allCases.map(Contender.init(stage:)) + [
      mainActorStage5, notificationCenter, observation,
    ] + (Reference.allCases.contains(.observations) ? [observations] : [])
  }

  package init(
    name: String, stage: Stage? = nil, deliversPreviousValue: Bool = false,
    canUnsubscribe: Bool = true, make: @escaping @Sendable () -> any BenchSubject
  ) {
    self.name = name
    self.stage = stage
    self.deliversPreviousValue = deliversPreviousValue
    self.canUnsubscribe = canUnsubscribe
    self.make = make
  }

  package init(stage: Stage) {
    self.init(
      name: "stage \(stage.number)", stage: stage, canUnsubscribe: stage.canUnsubscribe,
      make: { stage.makeBenchSubject() })
    subscribingIsLinear = stage == .informationAge || stage == .optionSets
  }
}

// MARK: - The stages' adapters

extension Stage {
  /// A fresh observable of this stage, behind the bench's interface.
  func makeBenchSubject() -> any BenchSubject {
    switch self {
    case .stoneAge: StoneAgeBench()
    case .ironAge: IronAgeBench()
    case .informationAge: InformationAgeBench()
    case .optionSets: OptionSetsBench()
    case .concurrency: ConcurrencyBench()
    }
  }
}

private final class StoneAgeBench: BenchSubject {
  let observable = Stage1Closures.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observable.bindObserver { sum.value &+= $0 }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) {}
  func set(_ value: Int) { observable.value = value }
}

private final class IronAgeBench: BenchSubject {
  let observable = Stage2KeyedDict.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observable.bindObserver(forKey: "observer \(index)") { sum.value &+= $0 }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) {
    observable.removeObserver(forKey: "observer \(index)")
  }
  func set(_ value: Int) { observable.value = value }
}

private final class InformationAgeBench: BenchSubject {
  let observable = Stage3WeakRefs.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observable.bindObserver(owner) { sum.value &+= $0 }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) {}
  func set(_ value: Int) { observable.value = value }
}

private final class OptionSetsBench: BenchSubject {
  let observable = Stage4Options.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observable.addObserver(owner) { value, _ in sum.value &+= value }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) { observable.removeObserver(owner) }
  func set(_ value: Int) { observable.value = value }
}

/// Stage 5 through its token API, the one that compares with the floor's plain closures. A
/// subscription with an owner costs more per call: a weak load, to hand the owner over.
private final class ConcurrencyBench: BenchSubject {
  let observable = Stage5Concurrency.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    owner.token = observable.observe { change in sum.value &+= change.newValue }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) {
    (owner.token as? ObservationToken)?.cancel()
    owner.token = nil
  }
  func set(_ value: Int) { observable.value = value }
}

/// Stage 5 with handlers isolated to the main actor, subscribed and set on the main actor: the
/// path a `@MainActor` screen's label takes. Its handler is called at once, through the
/// observable's main-actor mailbox.
private final class MainActorConcurrencyBench: BenchSubject {
  let observable = Stage5Concurrency.Observable(0)

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    let observable = observable
    owner.token = MainActor.assumeIsolated {
      observable.observe { change in sum.value &+= change.newValue }
    }
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    (owner.token as? ObservationToken)?.cancel()
    owner.token = nil
  }

  func set(_ value: Int) { observable.value = value }
}

// MARK: - The references

/// The floor: the cheapest fan-out Swift can do for the same work. Each closure sits in a box,
/// and the loop borrows each box from the array rather than retaining and releasing it around
/// the call: an indirect call per observer and nothing else, no reference counting, no lock.
/// Removal swaps the last entry into the removed one's place.
private final class FloorSubject: BenchSubject {
  final class Entry {
    let call: (Int) -> Void
    let index: Int
    init(index: Int, call: @escaping (Int) -> Void) {
      self.index = index
      self.call = call
    }
  }

  var entries: [Entry] = []
  var positionByIndex: [Int: Int] = [:]
  var value = 0

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    positionByIndex[index] = entries.count
    entries.append(Entry(index: index) { sum.value &+= $0 })
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    guard let position = positionByIndex.removeValue(forKey: index) else { return }
    let last = entries.removeLast()
    if position < entries.count {
      entries[position] = last
      positionByIndex[last.index] = position
    }
  }

  func set(_ value: Int) {
    self.value = value
    entries.withUnsafeBufferPointer { entries in
      for position in entries.indices {
        Unmanaged.passUnretained(entries[position])._withUnsafeGuaranteedRef { $0.call(value) }
      }
    }
  }
}

/// A plain array of closures, called in a loop, as a first version is written: each closure is
/// retained and released around its call. Removal by index in a dictionary.
private final class ClosureArraySubject: BenchSubject {
  var observers: [Int: (Int) -> Void] = [:]
  var ordered: [(Int) -> Void] = []
  var value = 0

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    let observer: (Int) -> Void = { sum.value &+= $0 }
    observers[index] = observer
    ordered.append(observer)
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    observers[index] = nil
  }

  func set(_ value: Int) {
    self.value = value
    for observer in ordered {
      observer(value)
    }
  }
}

/// Foundation's NotificationCenter: block observers on a private center; each reads the new
/// value from the subject the notification names.
private final class NotificationCenterSubject: BenchSubject {
  final class Holder: @unchecked Sendable {
    // Unchecked: read only by blocks the bench's one thread runs, inside post.
    var value = 0
  }

  let center = NotificationCenter()
  let name = Notification.Name("ValueDidChange")
  let holder = Holder()
  var tokens: [Int: any NSObjectProtocol] = [:]

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    let holder = holder
    tokens[index] = center.addObserver(forName: name, object: nil, queue: nil) { _ in
      sum.value &+= holder.value
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

/// Swift's Observation: an `@Observable` model, each observer re-arming
/// `withObservationTracking` in its `onChange`, which fires once, before the write.
private final class ObservationSubject: BenchSubject {
  @Observable
  final class Model {
    var value = 0
  }

  /// Carries the model into `onChange`, which must be `@Sendable`. Sound: the bench sets the
  /// value on its one thread, and `onChange` runs there, inside the set.
  struct Carried: @unchecked Sendable {
    let model: Model
    let sum: Sum
  }

  let model = Model()

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    Self.track(Carried(model: model, sum: sum))
  }

  private static func track(_ carried: Carried) {
    withObservationTracking {
      _ = carried.model.value
    } onChange: {
      carried.sum.value &+= carried.model.value
      track(carried)
    }
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {}

  func set(_ value: Int) { model.value = value }
}

/// Swift's `Observations`: each observer a task iterating the sequence, on the scenarios' own
/// dedicated executor, so that a set can wait until every consumer has added the value it was
/// handed. Every value is delivered because each set waits; an app that does not wait gets the
/// latest value, coalesced.
private final class ObservationsSubject: BenchSubject {
  @Observable
  final class Model {
    var value = 0
  }

  /// Carries the model to the executor's thread, the only one that touches it.
  struct Carried: @unchecked Sendable {
    let model: Model
  }

  let executor = DedicatedExecutor.shared
  let carried = Carried(model: Model())
  var tasks: [Int: Task<Void, Never>] = [:]

  deinit {
    for task in tasks.values { task.cancel() }
    executor.waitUntilIdle()
  }

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
    let carried = carried
    tasks[index] = Task(executorPreference: executor) {
      var isFirst = true
      for await value in Observations({ carried.model.value }) {
        guard !Task.isCancelled else { break }
        if isFirst {
          isFirst = false  // the value when subscribing, not a change
          continue
        }
        sum.value &+= value
      }
    }
    executor.waitUntilIdle()
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    tasks.removeValue(forKey: index)?.cancel()
    executor.waitUntilIdle()
  }

  func set(_ value: Int) {
    let carried = carried
    Task(executorPreference: executor) { carried.model.value = value }
    executor.waitUntilIdle()
  }

  func countersElsewhere() -> (allocations: UInt64, liveBytes: Int64) {
    executor.runAndWait {
      (UInt64(allocation_counter_allocations()), Int64(allocation_counter_live_bytes()))
    }
  }
}
