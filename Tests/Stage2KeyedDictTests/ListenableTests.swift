import LifetimeTracking
import Stage2KeyedDict
import Testing

@Suite("Stage 2: Listenable, named listeners in a set")
struct ListenableTests {
  @Test("a set runs the setter action first, then every listener")
  func setterActionThenListeners() {
    let log = ValueLog<String>()
    let listenable = Listenable(0) { log.append("saved \($0)") }
    listenable.bindListener(name: "label") { log.append("label shows \($0)") }
    listenable.value = 3
    #expect(log.entries == ["saved 3", "label shows 3"])
  }

  @Test("the setter action persists every value set, and not the initial one")
  func setterActionPersists() {
    var saved: [Int] = []
    let listenable = Listenable(0) { saved.append($0) }
    listenable.value = 1
    listenable.value = 2
    #expect(saved == [1, 2])
  }

  @Test("the default setter action does nothing")
  func defaultSetterAction() {
    let log = ValueLog<Int>()
    let listenable = Listenable(0)
    listenable.bindListener(name: "label") { log.append($0) }
    listenable.value = 5
    #expect(log.entries == [5])
  }

  @Test("bind and fire calls the action at once with the current value")
  func bindAndFire() {
    let log = ValueLog<Int>()
    let listenable = Listenable(4)
    listenable.bindAndFireListener(name: "label") { log.append($0) }
    listenable.value = 5
    #expect(log.entries == [4, 5])
    #expect(listenable.listenerCount == 1)
  }

  @Test("removing a listener by name stops it; an unknown name is ignored")
  func removeByName() {
    let log = ValueLog<String>()
    let listenable = Listenable(0)
    listenable.bindListener(name: "a") { log.append("a\($0)") }
    listenable.bindListener(name: "b") { log.append("b\($0)") }
    listenable.removeListener(name: "a")
    listenable.removeListener(name: "nobody")
    listenable.value = 1
    #expect(log.entries == ["b1"])
    #expect(listenable.listenerCount == 1)
  }

  @Test("removing all listeners stops them all and frees what they captured")
  func removeAll() {
    let tracker = LifetimeTracker()
    let listenable = Listenable(0)
    var owners: [TrackedObject] = tracker.makeObjects(3)
    for (index, owner) in owners.enumerated() {
      listenable.bindListener(name: "\(index)") { owner.receive($0) }
    }
    owners.removeAll()
    #expect(tracker.deinitCount == 0)
    listenable.removeAllListeners()
    #expect(tracker.deinitCount == 3)
    #expect(listenable.listenerCount == 0)
  }

  @Test("flaw: a second listener under a bound name is silently dropped, the first stays")
  func nameCollisionDropsNewListener() {
    let log = ValueLog<String>()
    let listenable = Listenable(0)
    listenable.bindListener(name: "UserVC.loginUser") { log.append("first got \($0)") }
    listenable.bindListener(name: "UserVC.loginUser") { log.append("second got \($0)") }
    listenable.value = 1
    #expect(log.entries == ["first got 1"])
    #expect(listenable.listenerCount == 1)
  }

  @Test("flaw: bind and fire fires even a listener that was dropped")
  func bindAndFireFiresDroppedListener() {
    let log = ValueLog<String>()
    let listenable = Listenable(0)
    listenable.bindListener(name: "label") { log.append("first got \($0)") }
    listenable.bindAndFireListener(name: "label") { log.append("second got \($0)") }
    listenable.value = 1
    #expect(log.entries == ["second got 0", "first got 1"])
  }

  @Test("flaw: listeners that set the value call each other until someone stops")
  func listenersSettingEachOther() {
    // Each listener sets the value again; only the bound of 10 stops what would be endless.
    let log = ValueLog<Int>()
    let listenable = Listenable(0)
    listenable.bindListener(name: "echo") { value in
      log.append(value)
      if value < 10 { listenable.value = value + 1 }
    }
    listenable.value = 1
    #expect(log.entries == Array(1...10))
  }
}
