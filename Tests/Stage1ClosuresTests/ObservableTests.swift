import LifetimeTracking
import Stage1Closures
import Testing

@Suite("Stage 1, stone age: an array of closures")
struct ObservableTests {
  @Test("a new observable holds its value and calls nobody")
  func initialState() {
    let log = ValueLog<Int>()
    let observable = Observable(7)
    observable.bindObserver { log.append($0) }
    #expect(observable.value == 7)
    #expect(log.entries.isEmpty)
  }

  @Test("setting the value calls every closure with the new value, in binding order")
  func deliversInBindingOrder() {
    let log = ValueLog<String>()
    let observable = Observable(0)
    for name in ["a", "b", "c"] {
      observable.bindObserver { log.append("\(name)=\($0)") }
    }
    observable.value = 1
    observable.value = 2
    #expect(log.entries == ["a=1", "b=1", "c=1", "a=2", "b=2", "c=2"])
  }

  @Test("observerCount counts the closures stored")
  func countsClosures() {
    let observable = Observable(0)
    #expect(observable.observerCount == 0)
    observable.bindObserver { _ in }
    observable.bindObserver { _ in }
    #expect(observable.observerCount == 2)
  }

  @Test("flaw: the closure of a released observer still runs")
  func releasedObserverStillCalled() {
    let tracker = LifetimeTracker()
    let log = ValueLog<Int>()
    let observable = Observable(0)
    var owner: TrackedOwner? = tracker.makeObject()
    observable.bindObserver { [weak owner] value in
      owner?.receive(value)
      log.append(value)
    }
    owner = nil
    #expect(tracker.deinitCount == 1)
    observable.value = 1
    #expect(log.entries == [1], "the closure keeps running with nobody left to update")
  }

  @Test("flaw: the array only grows, even after every observer is gone")
  func entriesOnlyGrow() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owners: [TrackedOwner] = tracker.makeObjects(100)
    for owner in owners {
      observable.bindObserver { [weak owner] in owner?.receive($0) }
    }
    owners.removeAll()
    observable.value = 1
    #expect(tracker.deinitCount == 100)
    #expect(observable.observerCount == 100)
  }

  @Test("flaw: a closure that captures its observer keeps it alive for ever")
  func strongCaptureLeaks() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owner: TrackedOwner? = tracker.makeObject()
    weak let weakOwner = owner
    observable.bindObserver { [owner] in owner?.receive($0) }
    owner = nil
    observable.value = 1
    #expect(weakOwner != nil)
    #expect(weakOwner?.received == [1])
    #expect(tracker.deinitCount == 0)
  }

  @Test(
    "flaw: after a closure sets the value, the closures after it receive the newer value twice and never the first"
  )
  func reentrantSetRereadsTheValue() {
    // The article's `notify()` hands each closure `self.value`, read again at its turn.
    let log = ValueLog<String>()
    let observable = Observable(0)
    observable.bindObserver { value in
      log.append("A:\(value)")
      if value == 1 { observable.value = 2 }
    }
    observable.bindObserver { log.append("B:\($0)") }
    observable.bindObserver { log.append("C:\($0)") }
    observable.value = 1
    #expect(log.entries == ["A:1", "A:2", "B:2", "C:2", "B:2", "C:2"])
    #expect(observable.value == 2)
  }
}
