import Support

/// The running sum every bench callback adds to: real work the optimizer cannot drop, checked
/// after every measurement.
///
/// Unchecked `Sendable`: the bench runs on one thread, and stage 5 and Observation, whose
/// handlers must be `@Sendable`, call them on the thread that sets the value. Not generic, and
/// final: a callback in another module adds to it with a load and a store, where a generic box
/// from another module costs a call through its metadata (measured: about 9 ns a callback, more
/// than stage 5's own delivery). Its value skips Swift's run-time exclusivity check, which a
/// class's stored property otherwise makes on every `&+=` (about 8 ns a callback, measured on
/// Linux, more than stage 5 tuned's own delivery): the bench runs on one thread, so no two
/// accesses ever overlap. `@exclusivity(unchecked)` spares only the accesses compiled in this
/// module, so callbacks in every module add through ``add(_:)``, inlined: a load and a store.
package final class Sum: @unchecked Sendable {
  /// The sum so far.
  @exclusivity(unchecked) @usableFromInline package var value: Int

  package init(_ value: Int) { self.value = value }

  /// Adds `value` to the sum, without the run-time exclusivity check, in any module.
  @inlinable package func add(_ value: Int) { self.value &+= value }
}

/// An observer object for the designs that want one.
package final class BenchOwner {
  /// What the observer keeps for as long as it lives, as a screen keeps its observation
  /// token: stage 5's token, which ends the subscription when the observer goes.
  package var token: AnyObject?

  package init() {}
}

/// One design, reduced to what the bench measures.
package protocol BenchObservable: AnyObject {
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

extension BenchObservable {
  /// Most designs do all their work on the setting thread.
  package func countersElsewhere() -> (allocations: UInt64, liveBytes: Int64) { (0, 0) }
}

/// A design in the bench: a stage, a reference, or one of the two baselines every design is
/// compared with (the floor and a plain closure array). The designs' contenders are made in
/// the design catalog, from each entry's design.
package struct Contender: Sendable {
  /// "stage 4", "floor", "closure array", "NotificationCenter", "Observation".
  package var name: String
  /// The stage's number, for a stage.
  package var stage: Int?
  /// Whether each callback receives the value before the set rather than after it.
  package var deliversPreviousValue: Bool
  /// Whether subscriptions can be ended explicitly.
  package var canUnsubscribe: Bool
  /// Whether each subscription costs O(n), so that registering the memory table's full count
  /// would take minutes.
  package var subscribingIsLinear: Bool
  /// Whether its observers run on another thread, which a set waits for. Such a contender is
  /// measured after the others, never between them: the threads it wakes keep a core busy for
  /// a while afterwards, which would slow whatever is measured next on a 2-core machine.
  package var deliversOnAnotherThread = false
  /// Makes a fresh observable behind the bench's interface.
  package var make: @Sendable () -> any BenchObservable
  /// The heap allocations one set makes with the given number of observers, as the design is
  /// documented to make them, or `nil` when they are measured, not documented (the platform's
  /// references). The release tests check each exactly.
  package var allocationsPerSet: (@Sendable (_ observers: Int) -> Double)?

  /// The harness alone: the bench's loop and the running sum, with no observable and no call
  /// to a closure, to show what the bench itself adds to every figure.
  package static let harness = Contender(
    name: "harness", allocationsPerSet: { _ in 0 }, make: { HarnessBenchObservable() })
  /// The floor: the cheapest fan-out Swift can do for the same work.
  package static let floor = Contender(
    name: "floor", allocationsPerSet: { _ in 0 }, make: { FloorBenchObservable() })
  /// A plain array of closures, as a first version is written.
  package static let closureArray = Contender(
    name: "closure array", allocationsPerSet: { _ in 0 }, make: { ClosureArrayBenchObservable() })

  package init(
    name: String, stage: Int? = nil, deliversPreviousValue: Bool = false,
    canUnsubscribe: Bool = true, subscribingIsLinear: Bool = false,
    allocationsPerSet: (@Sendable (_ observers: Int) -> Double)? = nil,
    make: @escaping @Sendable () -> any BenchObservable
  ) {
    self.name = name
    self.stage = stage
    self.deliversPreviousValue = deliversPreviousValue
    self.canUnsubscribe = canUnsubscribe
    self.subscribingIsLinear = subscribingIsLinear
    self.allocationsPerSet = allocationsPerSet
    self.make = make
  }
}

// MARK: - The baselines

/// The harness alone: each set adds the value to the sum once per observer, as the observers'
/// callbacks would, with no observable, no closure and no call in between.
private final class HarnessBenchObservable: BenchObservable {
  var observers = 0
  /// The sum the bench subscribed with; every subscription brings the same one.
  var sum = Sum(0)

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observers += 1
    self.sum = sum
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) { observers -= 1 }

  func set(_ value: Int) {
    for _ in 0..<observers { sum.add(value) }
  }
}

/// The floor: the cheapest fan-out Swift can do for the same work. Each closure sits in a box,
/// and the loop borrows each box from the array rather than retaining and releasing it around
/// the call: an indirect call per observer and nothing else, no reference counting, no lock.
/// Removal swaps the last entry into the removed one's place.
private final class FloorBenchObservable: BenchObservable {
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
    entries.append(Entry(index: index) { sum.add($0) })
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
/// retained and released around its call. Removal swaps the last closure into the removed one's
/// place, as the floor's does.
private final class ClosureArrayBenchObservable: BenchObservable {
  var observers: [(Int) -> Void] = []
  /// The bench's index of each closure, in the same order.
  var indices: [Int] = []
  var positionByIndex: [Int: Int] = [:]
  var value = 0

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    positionByIndex[index] = observers.count
    observers.append { sum.add($0) }
    indices.append(index)
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    guard let position = positionByIndex.removeValue(forKey: index) else { return }
    let last = observers.removeLast()
    let lastIndex = indices.removeLast()
    if position < observers.count {
      observers[position] = last
      indices[position] = lastIndex
      positionByIndex[lastIndex] = position
    }
  }

  func set(_ value: Int) {
    self.value = value
    for observer in observers { observer(value) }
  }
}
