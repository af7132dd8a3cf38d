import LifetimeTracking
import Stage3WeakRefs
import Testing

@Suite("Stage 3, information age: observers held weakly")
struct ObservableTests {
  @Test("setting the value calls each live observer's closure, in binding order")
  func deliversInBindingOrder() {
    let tracker = LifetimeTracker()
    let owners = tracker.makeObjects(3)
    let log = ValueLog<String>()
    let observable = Observable(0)
    for owner in owners {
      observable.bindObserver(owner) { [weak owner] in log.append("\(owner?.name ?? "?")=\($0)") }
    }
    observable.value = 1
    #expect(log.entries == ["observer 0=1", "observer 1=1", "observer 2=1"])
  }

  @Test("a released observer's closure no longer runs")
  func releasedObserverSkipped() {
    let tracker = LifetimeTracker()
    let log = ValueLog<Int>()
    let observable = Observable(0)
    var owner: TrackedOwner? = tracker.makeObject()
    observable.bindObserver(owner!) { log.append($0) }
    observable.value = 1
    owner = nil
    observable.value = 2
    #expect(tracker.deinitCount == 1)
    #expect(log.entries == [1])
  }

  @Test("the observable holds its observer weakly")
  func holdsObserverWeakly() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owner: TrackedOwner? = tracker.makeObject()
    weak let weakOwner = owner
    observable.bindObserver(owner!) { [weak owner] in owner?.receive($0) }
    owner = nil
    #expect(weakOwner == nil)
  }

  @Test("binding drops the entries of released observers, then appends")
  func bindingCleans() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owners = tracker.makeObjects(1_000)
    for owner in owners {
      observable.bindObserver(owner) { _ in }
    }
    owners.removeAll()
    #expect(observable.observerCount == 1_000)
    let newcomer = tracker.makeObject()
    observable.bindObserver(newcomer) { _ in }
    #expect(observable.observerCount == 1)
  }

  @Test("flaw: dead entries stay stored however many times the value is set")
  func setDoesNotClean() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owners = tracker.makeObjects(1_000)
    for owner in owners {
      observable.bindObserver(owner) { _ in }
    }
    owners.removeAll()
    for value in 1...10 {
      observable.value = value
    }
    #expect(tracker.deinitCount == 1_000)
    #expect(observable.observerCount == 1_000)
  }

  @Test("flaw: binding one observer twice stores two entries and calls it twice")
  func sameObserverTwice() {
    let tracker = LifetimeTracker()
    let owner = tracker.makeObject()
    let observable = Observable(0)
    observable.bindObserver(owner) { [weak owner] in owner?.receive($0) }
    observable.bindObserver(owner) { [weak owner] in owner?.receive($0) }
    observable.value = 1
    #expect(owner.received == [1, 1])
    #expect(observable.observerCount == 2)
  }

  @Test("flaw: a closure that captures its observer keeps it alive, weak entry or not")
  func strongCaptureLeaks() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owner: TrackedOwner? = tracker.makeObject()
    weak let weakOwner = owner
    observable.bindObserver(owner!) { [owner] in owner?.receive($0) }
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
    let owners = LifetimeTracker().makeObjects(3)
    let log = ValueLog<String>()
    let observable = Observable(0)
    observable.bindObserver(owners[0]) { value in
      log.append("A:\(value)")
      if value == 1 { observable.value = 2 }
    }
    observable.bindObserver(owners[1]) { log.append("B:\($0)") }
    observable.bindObserver(owners[2]) { log.append("C:\($0)") }
    observable.value = 1
    #expect(log.entries == ["A:1", "A:2", "B:2", "C:2", "B:2", "C:2"])
    #expect(observable.value == 2)
    withExtendedLifetime(owners) {}
  }
}
