import LifetimeTracking
import Stage4Options
import Testing

private final class Observer {}

@Suite("Stage 4: option sets and automatic removal")
struct ObservableTests {
  @Test("the options are the bits of KVO's: initial 1, old 2, new 4")
  func optionBits() {
    #expect(ObservableOptions.initial.rawValue == 1)
    #expect(ObservableOptions.old.rawValue == 2)
    #expect(ObservableOptions.new.rawValue == 4)
    #expect(ObservableOptions([.initial, .new]).rawValue == 5)
  }

  @Test("the book's playground: Madeline, then Amelia, then nothing once the observer is gone")
  func playground() {
    let log = ValueLog<String>()
    let name = Observable("Madeline")
    var observer: Observer? = Observer()
    name.addObserver(observer!, options: [.initial, .new]) { name, _ in
      log.append("User's name is \(name)")
    }
    name.value = "Amelia"
    observer = nil
    name.value = "Amelia is outta here!"
    #expect(log.entries == ["User's name is Madeline", "User's name is Amelia"])
    #expect(name.observerCount == 0)
  }

  @Test("by default an observer is told new values only")
  func defaultOptionsAreNew() {
    let log = ValueLog<String>()
    let observer = Observer()
    let observable = Observable(0)
    observable.addObserver(observer) { value, option in log.append("\(option.rawValue):\(value)") }
    observable.value = 1
    #expect(log.entries == ["4:1"])
  }

  @Test("old values go to every .old callback before new values go to every .new callback")
  func oldThenNew() {
    let log = ValueLog<String>()
    let (first, second) = (Observer(), Observer())
    let observable = Observable(0)
    for (name, observer) in [("first", first), ("second", second)] {
      observable.addObserver(observer, options: [.old, .new]) { value, option in
        log.append("\(name) \(option == .old ? "old" : "new") \(value)")
      }
    }
    observable.value = 1
    #expect(log.entries == ["first old 0", "second old 0", "first new 1", "second new 1"])
  }

  @Test("adding again replaces the observer's earlier callbacks unless told otherwise")
  func removeIfExists() {
    let observer = Observer()
    let log = ValueLog<String>()
    let observable = Observable(0)
    observable.addObserver(observer) { value, _ in log.append("a\(value)") }
    observable.addObserver(observer) { value, _ in log.append("b\(value)") }
    #expect(observable.observerCount == 1)
    observable.addObserver(observer, removeIfExists: false) { value, _ in log.append("c\(value)") }
    #expect(observable.observerCount == 2)
    observable.value = 1
    #expect(log.entries == ["b1", "c1"])
  }

  @Test("removing an observer removes all its callbacks; an unknown one is ignored")
  func removeObserver() {
    let (observer, stranger) = (Observer(), Observer())
    let log = ValueLog<Int>()
    let observable = Observable(0)
    observable.addObserver(observer) { value, _ in log.append(value) }
    observable.addObserver(observer, removeIfExists: false) { value, _ in log.append(value) }
    observable.removeObserver(stranger)
    #expect(observable.observerCount == 2)
    observable.removeObserver(observer)
    observable.value = 1
    #expect(log.entries.isEmpty)
    #expect(observable.observerCount == 0)
  }

  @Test("the observer is held weakly; its callbacks go at the next set after it is freed")
  func automaticRemovalOnSet() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owners = tracker.makeObjects(1_000)
    for owner in owners {
      observable.addObserver(owner) { [weak owner] value, _ in owner?.receive(value) }
    }
    owners.removeAll()
    #expect(tracker.deinitCount == 1_000)
    #expect(observable.observerCount == 1_000)
    observable.value = 1
    #expect(observable.observerCount == 0)
  }

  @Test("unsubscribing frees an observer its closure captured strongly")
  func removalFreesStrongCapture() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owner: TrackedOwner? = tracker.makeObject()
    weak let weakOwner = owner
    observable.addObserver(owner!) { [owner] value, _ in owner?.receive(value) }
    observable.removeObserver(owner!)
    owner = nil
    #expect(weakOwner == nil)
  }

  @Test("flaw: a closure that captures its observer keeps it, and itself, alive for ever")
  func strongCaptureLeaks() {
    let tracker = LifetimeTracker()
    let observable = Observable(0)
    var owner: TrackedOwner? = tracker.makeObject()
    weak let weakOwner = owner
    observable.addObserver(owner!) { [owner] value, _ in owner?.receive(value) }
    owner = nil
    observable.value = 1
    #expect(weakOwner != nil)
    #expect(weakOwner?.received == [1])
    #expect(observable.observerCount == 1)
  }

  @Test("flaw: a callback removed during a notification is still called for it")
  func removalDuringNotification() {
    let (remover, removed) = (Observer(), Observer())
    let log = ValueLog<String>()
    let observable = Observable(0)
    observable.addObserver(remover) { _, _ in observable.removeObserver(removed) }
    observable.addObserver(removed) { value, _ in log.append("removed observer got \(value)") }
    observable.value = 1
    observable.value = 2
    #expect(log.entries == ["removed observer got 1"])
  }

  @Test("flaw: a value set inside a callback reaches later observers first, leaving them stale")
  func reentrantSetIsDepthFirst() {
    let (first, second) = (Observer(), Observer())
    let log = ValueLog<String>()
    let observable = Observable(0)
    observable.addObserver(first) { value, _ in
      log.append("first=\(value)")
      if value == 1 { observable.value = 2 }
    }
    observable.addObserver(second) { value, _ in log.append("second=\(value)") }
    observable.value = 1
    #expect(log.entries == ["first=1", "first=2", "second=2", "second=1"])
  }
}
