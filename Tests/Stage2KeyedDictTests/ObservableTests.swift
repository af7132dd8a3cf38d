import LifetimeTracking
import Stage2KeyedDict
import Testing

@Suite("Stage 2, iron age: closures keyed by string")
struct ObservableTests {
  @Test("setting the value calls every stored closure with the new value")
  func deliversToEveryKey() {
    let log = ValueLog<String>()
    let observable = Observable(0)
    for key in ["a", "b", "c"] {
      observable.bindObserver(forKey: key) { log.append("\(key)=\($0)") }
    }
    observable.value = 1
    #expect(log.entries.sorted() == ["a=1", "b=1", "c=1"])
    #expect(observable.observerCount == 3)
  }

  @Test("a new observable holds its value and calls nobody")
  func initialState() {
    let log = ValueLog<Int>()
    let observable = Observable(7)
    observable.bindObserver(forKey: "label") { log.append($0) }
    #expect(observable.value == 7)
    #expect(log.entries.isEmpty)
  }

  @Test("removing a key stops its closure and frees what it captured")
  func removalStopsAndFrees() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owner: TrackedOwner? = tracker.makeObject()
    weak let weakOwner = owner
    observable.bindObserver(forKey: "label") { [owner] in owner?.receive($0) }
    observable.value = 1
    observable.removeObserver(forKey: "label")
    observable.value = 2
    #expect(weakOwner?.received == [1])
    owner = nil
    #expect(weakOwner == nil)
    #expect(tracker.deinitCount == 1)
    #expect(observable.observerCount == 0)
  }

  @Test("removing an unknown key does nothing")
  func removingUnknownKey() {
    let observable = Observable(0)
    observable.bindObserver(forKey: "label") { _ in }
    observable.removeObserver(forKey: "button")
    #expect(observable.observerCount == 1)
  }

  @Test("flaw: a second bind under one key silently replaces the first")
  func keyCollisionReplaces() {
    let log = ValueLog<String>()
    let observable = Observable(0)
    observable.bindObserver(forKey: "label") { log.append("title label got \($0)") }
    observable.bindObserver(forKey: "label") { log.append("badge label got \($0)") }
    observable.value = 1
    #expect(log.entries == ["badge label got 1"])
    #expect(observable.observerCount == 1)
  }

  @Test("flaw: the call order is unspecified, not the binding order")
  func orderIsUnspecified() {
    // One dictionary could happen to keep binding order; twenty fresh ones of sixteen keys each
    // cannot all do so except by a chance of about (1/16!)^20.
    let keys = (0..<16).map { "observer \($0)" }
    var bindingOrderCount = 0
    for _ in 0..<20 {
      let log = ValueLog<String>()
      let observable = Observable(0)
      for key in keys {
        observable.bindObserver(forKey: key) { _ in log.append(key) }
      }
      observable.value = 1
      #expect(log.entries.sorted() == keys.sorted())
      if log.entries == keys { bindingOrderCount += 1 }
    }
    #expect(bindingOrderCount < 20)
  }

  @Test("flaw: the closure of a released observer runs until someone removes its key")
  func releasedObserverStillCalled() {
    let tracker = LifetimeTracker()
    let log = ValueLog<Int>()
    let observable = Observable(0)
    var owner: TrackedOwner? = tracker.makeObject()
    observable.bindObserver(forKey: "label") { [weak owner] value in
      owner?.receive(value)
      log.append(value)
    }
    owner = nil
    observable.value = 1
    #expect(tracker.deinitCount == 1)
    #expect(log.entries == [1])
    #expect(observable.observerCount == 1)
  }

  @Test("flaw: a closure that captures its observer keeps it alive until its key is removed")
  func strongCaptureLeaksWithoutRemoval() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owner: TrackedOwner? = tracker.makeObject()
    weak let weakOwner = owner
    observable.bindObserver(forKey: "label") { [owner] in owner?.receive($0) }
    owner = nil
    #expect(weakOwner != nil)
    #expect(tracker.deinitCount == 0)
  }

  @Test(
    "flaw: after a closure sets the value, the closures after it receive the newer value twice and never the first"
  )
  func reentrantSetRereadsTheValue() throws {
    // The article's `notify()` hands each closure `self.value`, read again at its turn. The
    // dictionary picks the order, so whichever closure is called first sets 2, and the order is
    // read from the nested round, which walks the same dictionary.
    let log = ValueLog<String>()
    let observable = Observable(0)
    var corrected = false
    for name in ["A", "B", "C"] {
      observable.bindObserver(forKey: name) { value in
        log.append("\(name):\(value)")
        if value == 1 && !corrected {
          corrected = true
          observable.value = 2
        }
      }
    }
    observable.value = 1
    try #require(log.entries.count == 6)
    let order = log.entries[1...3].map { String($0.prefix(1)) }
    #expect(order.sorted() == ["A", "B", "C"])
    let expected =
      ["\(order[0]):1"] + order.map { "\($0):2" } + order.dropFirst().map { "\($0):2" }
    #expect(log.entries == expected)
    #expect(observable.value == 2)
  }
}
