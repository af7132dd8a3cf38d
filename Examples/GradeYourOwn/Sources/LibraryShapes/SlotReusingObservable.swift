import ObserverScenarios

/// An observable that keeps its observers in slots and reuses a freed slot for the next
/// subscriber: cheap, and the newcomer is called where the observer that left used to be,
/// before older ones.
final class SlotReusingObservable<Value> {
  private var slots: [((Value) -> Void)?] = []
  private var freeSlots: [Int] = []

  var value: Value {
    didSet {
      for observer in slots {
        observer?(value)
      }
    }
  }

  var count: Int { slots.count - freeSlots.count }

  init(_ value: Value) { self.value = value }

  /// Stores `observer` in the most recently freed slot, or a new one.
  ///
  /// - Returns: The slot, which cancels it.
  func observe(_ observer: @escaping (Value) -> Void) -> Int {
    if let slot = freeSlots.popLast() {
      slots[slot] = observer
      return slot
    }
    slots.append(observer)
    return slots.count - 1
  }

  func cancel(_ slot: Int) {
    guard slots[slot] != nil else { return }
    slots[slot] = nil
    freeSlots.append(slot)
  }
}

/// Its adapter.
final class SlotReusingAdapter: ScenarioObservable {
  private let observable: SlotReusingObservable<Int>
  private var slots: [ObjectIdentifier: [Int]] = [:]

  init(_ value: Int) { observable = SlotReusingObservable(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.count }

  func subscribe(_ subscription: ScenarioSubscription) {
    let slot = observable.observe(subscription.closure { .new($0) })
    slots[ObjectIdentifier(subscription.owner), default: []].append(slot)
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    for slot in slots.removeValue(forKey: ObjectIdentifier(subscription.owner)) ?? [] {
      observable.cancel(slot)
    }
  }
}

extension ObservableDesign {
  /// Freed slots reused by newcomers.
  static let slotReusing = ObservableDesign(
    id: "slots", title: "slots, a freed one reused by the next subscriber",
    module: "LibraryShapes", typeName: "SlotReusingObservable<Int>", identity: .none,
    capabilities: [.unsubscribe, .storedEntryCount],
    isSendable: ObservableDesign.isSendable(SlotReusingObservable<Int>.self),
    makeObservable: { SlotReusingAdapter($0) })
}
