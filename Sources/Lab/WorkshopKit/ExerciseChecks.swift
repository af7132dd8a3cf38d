import ObserverScenarios
import Support

// Each adapter runs the checks of the exercises it drives, on fresh objects of the exercise's
// own API. A check's evidence says what it did and what happened, the way the scenarios' does.

// MARK: - Exercise 1

extension RemovableClosuresAdapter {
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .removesOneOfSeveral: removesOneOfSeveral()
    case .removesTwiceThenBinds: removesTwiceThenBinds()
    case .generatedRemovals: GeneratedPrograms.check(.removableClosures) { programTarget() }
    default: notRunHere(check)
    }
  }

  private static func bind(_ name: String, to observable: Observable, log: CallLog)
    -> Observable.ID
  {
    observable.bindObserver { _ in log.append(name) }
  }

  private static func removesOneOfSeveral() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let a = bind("A", to: observable, log: log)
    let b = bind("B", to: observable, log: log)
    _ = bind("C", to: observable, log: log)
    let rounds = [
      Round("bound A, B, C", set: 1, calls: ["A", "B", "C"]),
      Round("removed A", { observable.removeObserver(a) }, set: 2, calls: ["B", "C"]),
      Round("then B", { observable.removeObserver(b) }, set: 3, calls: ["C"]),
    ]
    return play(rounds, on: observable, log: log, count: 1)
      ?? .holds("bound A, B, C, removed A then B: set 3 called C alone")
  }

  private static func removesTwiceThenBinds() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let a = bind("A", to: observable, log: log)
    let b = bind("B", to: observable, log: log)
    let c = bind("C", to: observable, log: log)
    var d: Observable.ID?
    let rounds = [
      Round(
        "bound A, B, C, removed B twice",
        {
          observable.removeObserver(b)
          observable.removeObserver(b)
        }, set: 1, calls: ["A", "C"]),
      Round(
        "bound D", { d = bind("D", to: observable, log: log) }, set: 2, calls: ["A", "C", "D"]),
      Round("removed C", { observable.removeObserver(c) }, set: 3, calls: ["A", "D"]),
      Round(
        "removed D and A",
        {
          if let d { observable.removeObserver(d) }
          observable.removeObserver(a)
        }, set: 4, calls: []),
      // Every closure is gone: an id counted from the entries, or a counter that restarts
      // once none is left, hands E an id that A or D had.
      Round(
        "bound E to the empty observable, then removed A's and D's old ids again",
        {
          _ = bind("E", to: observable, log: log)
          if let d { observable.removeObserver(d) }
          observable.removeObserver(a)
        }, set: 5, calls: ["E"]),
    ]
    return play(rounds, on: observable, log: log, count: 1)
      ?? .holds(
        "removed B twice, bound D, removed C, D and A, bound E and removed old ids again: each "
          + "set called the right ones")
  }
}

// MARK: - Exercise 2

extension KeyedAdapter {
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .reboundKeyKeepsItsPlace: reboundKeyKeepsItsPlace()
    case .removedKeyBoundAgainGoesLast: removedKeyBoundAgainGoesLast()
    case .generatedKeysInOrder:
      GeneratedPrograms.check(.keysInOrder) { programTarget(keys: ProgramRules.keysInOrder.slots) }
    default: notRunHere(check)
    }
  }

  private static func bind(
    _ key: String, as name: String? = nil, to observable: Observable, log: CallLog
  ) {
    observable.bindObserver(forKey: key) { _ in log.append(name ?? key) }
  }

  private static func reboundKeyKeepsItsPlace() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    for key in ["title", "badge", "count"] { bind(key, to: observable, log: log) }
    let rounds = [
      Round("bound title, badge, count", set: 1, calls: ["title", "badge", "count"]),
      Round(
        "bound title again with a second closure",
        { bind("title", as: "title's second closure", to: observable, log: log) }, set: 2,
        calls: ["title's second closure", "badge", "count"]),
    ]
    return play(rounds, on: observable, log: log, count: 3)
      ?? .holds("title bound again kept its place before badge and count, with its new closure")
  }

  private static func removedKeyBoundAgainGoesLast() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    for key in ["title", "badge", "count"] { bind(key, to: observable, log: log) }
    let rounds = [
      Round(
        "bound title, badge, count, removed badge",
        { observable.removeObserver(forKey: "badge") }, set: 1, calls: ["title", "count"]),
      Round(
        "bound badge again", { bind("badge", to: observable, log: log) }, set: 2,
        calls: ["title", "count", "badge"]),
      Round(
        "removed a key never bound, and title twice",
        {
          observable.removeObserver(forKey: "never bound")
          observable.removeObserver(forKey: "title")
          observable.removeObserver(forKey: "title")
        }, set: 3, calls: ["count", "badge"]),
    ]
    return play(rounds, on: observable, log: log, count: 2)
      ?? .holds("badge removed and bound again went last, called once; other removals kept order")
  }
}

// MARK: - Exercise 3

extension OwnerKeyedAdapter {
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .twoOwnersOneKey: twoOwnersOneKey()
    case .oneOwnerTwoKeys: oneOwnerTwoKeys()
    case .generatedOwnersAndKeys:
      GeneratedPrograms.check(.ownersAndKeys) {
        programTarget(keys: ["label", "badge", "label", "badge"])
      }
    default: notRunHere(check)
    }
  }

  private static func twoOwnersOneKey() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let screens = ["the first screen", "the second screen", "the third screen"].map(Named.init)
    for screen in screens {
      observable.bindObserver(screen, forKey: "label") { _ in log.append(screen.name) }
    }
    let (first, second, third) = (screens[0], screens[1], screens[2])
    var steps = Steps("three screens of one class bound \"label\"")
    observable.value = 1
    let all = screens.map(\.name)
    let calls = log.take()
    if calls.sorted() != all.sorted() {
      return steps.flaw(
        "set 1 called \(listed(calls)), not all three (\(listed(all)))"
          + (differentClassesKeptApart()
            ? "; a screen and an object of another class under "
              + "\"label\" were both called, so owners of one class share a key" : ""))
    }
    // The middle one first: a removal that takes the first or the last entry under the key,
    // whoever asks, takes another screen's closure.
    observable.removeObserver(second, forKey: "label")
    steps.then("the second removed its \"label\"")
    observable.value = 2
    if let flaw = steps.calls(log.take(), inAnyOrder: [first.name, third.name], set: 2) {
      return flaw
    }
    observable.removeObserver(first, forKey: "label")
    steps.then("then the first")
    observable.value = 3
    if let flaw = steps.calls(log.take(), expected: [third.name], set: 3) { return flaw }
    return withExtendedLifetime(screens) {
      .holds("three screens of one class under \"label\": all called, and each removed alone")
    }
  }

  /// Whether two owners of different classes, both binding "label", are both called.
  private static func differentClassesKeptApart() -> Bool {
    let observable = Observable(0)
    let log = CallLog()
    let (screen, other) = (Named("screen"), CallLog())
    observable.bindObserver(screen, forKey: "label") { _ in log.append("screen") }
    observable.bindObserver(other, forKey: "label") { _ in log.append("other") }
    observable.value = 1
    return withExtendedLifetime((screen, other)) { log.take().count == 2 }
  }

  private static func oneOwnerTwoKeys() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let screen = Named("screen")
    observable.bindObserver(screen, forKey: "label") { _ in log.append("label") }
    observable.bindObserver(screen, forKey: "badge") { _ in log.append("badge") }
    var steps = Steps("one screen bound \"label\" and \"badge\"")
    observable.value = 1
    if let flaw = steps.calls(log.take(), inAnyOrder: ["label", "badge"], set: 1) { return flaw }
    observable.bindObserver(screen, forKey: "label") { _ in log.append("label's second closure") }
    steps.then("bound \"label\" again with a second closure")
    observable.value = 2
    if let flaw = steps.calls(log.take(), inAnyOrder: ["label's second closure", "badge"], set: 2) {
      return flaw
    }
    observable.removeObserver(screen, forKey: "label")
    steps.then("removed \"label\"")
    observable.value = 3
    if let flaw = steps.calls(log.take(), expected: ["badge"], set: 3) { return flaw }
    if observable.observerCount != 1 {
      return steps.flaw("observerCount said \(observable.observerCount), not 1")
    }
    return withExtendedLifetime(screen) {
      .holds("one screen with two keys: both called, one replaced, one removed alone")
    }
  }
}

// MARK: - Exercises 4 and 5

extension WeakAdapter {
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .setDropsEveryDeadEntry: setDropsEveryDeadEntry()
    case .secondBindReplacesTheFirst: secondBindReplacesTheFirst()
    case .rebindAmongSeveral: rebindAmongSeveral()
    case .rebindBehindADeadEntry: rebindBehindADeadEntry()
    case .generatedReleases: GeneratedPrograms.check(.cleanOnSet) { programTarget() }
    case .generatedRebinds: GeneratedPrograms.check(.oneEntryPerObserver) { programTarget() }
    default: notRunHere(check)
    }
  }

  private static func setDropsEveryDeadEntry() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    var owners: [String: Named] = [:]
    for name in ["A", "B", "C", "D", "E"] {
      let owner = Named(name)
      owners[name] = owner
      observable.bindObserver(owner) { _ in log.append(name) }
    }
    var steps = Steps("bound A, B, C, D, E")
    let rounds: [(released: [String], alive: [String])] = [
      (["B", "D"], ["A", "C", "E"]), (["A", "E"], ["C"]), (["C"], []),
    ]
    for (index, round) in rounds.enumerated() {
      for name in round.released { owners[name] = nil }
      steps.then("released \(listed(round.released))")
      let value = index + 1
      observable.value = value
      if let flaw = steps.calls(log.take(), expected: round.alive, set: value) { return flaw }
      let counted = countedEntries(of: observable)
      if counted.count != round.alive.count {
        return steps.flaw("after set \(value), \(counted.said), not \(round.alive.count)")
      }
    }
    return .holds(
      "released B and D, then A and E, then C: each set left only the live entries stored")
  }

  private static func secondBindReplacesTheFirst() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let a = Named("A")
    let b = Named("B")
    observable.bindObserver(a) { _ in log.append("A's first closure") }
    observable.bindObserver(b) { _ in log.append("B") }
    observable.bindObserver(a) { _ in log.append("A's second closure") }
    let steps = Steps("A bound, B bound, A bound again with a second closure")
    observable.value = 1
    let flaw = onceEach(log.take(), ["A's second closure", "B"], entries: observable, steps)
    return withExtendedLifetime([a, b]) {
      flaw ?? .holds("A bound twice: only its second closure ran, once; 2 entries for 2 observers")
    }
  }

  private static func rebindAmongSeveral() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let owners = ["A", "B", "C"].map(Named.init)
    var latest: [String: String] = [:]
    var binds: [String] = []
    for (round, name) in ["A", "B", "C", "B", "A", "C", "A"].enumerated() {
      let owner = owners.first { $0.name == name }!
      let label = "\(name)'s closure \(round + 1)"
      latest[name] = label
      binds.append(name)
      observable.bindObserver(owner) { _ in log.append(label) }
    }
    let steps = Steps("bound \(binds.joined(separator: ", ")), in that order")
    observable.value = 1
    let flaw = onceEach(log.take(), latest.values.sorted(), entries: observable, steps)
    return withExtendedLifetime(owners) {
      flaw ?? .holds("7 binds by 3 observers: each called once, with its latest closure; 3 entries")
    }
  }

  private static func rebindBehindADeadEntry() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    var x: Named? = Named("X")
    let (b, c) = (Named("B"), Named("C"))
    observable.bindObserver(x!) { _ in log.append("X") }
    observable.bindObserver(b) { _ in log.append("B's first closure") }
    observable.bindObserver(c) { _ in log.append("C") }
    // X's dead entry stands before B's: B's place, found before the dead entries are dropped,
    // is C's place after.
    x = nil
    observable.bindObserver(b) { _ in log.append("B's second closure") }
    let steps = Steps("bound X, B, C; released X; B bound again with a second closure")
    // A bind drops the dead entries before it stores, as the starter's does.
    let afterBind = countedEntries(of: observable)
    if afterBind.count != 2 {
      return steps.flaw("before any set, \(afterBind.said) for 2 observers")
    }
    observable.value = 1
    let flaw = onceEach(log.take(), ["C", "B's second closure"], entries: observable, steps)
    return withExtendedLifetime([b, c]) {
      flaw ?? .holds("B bound again behind X's dead entry: C and B's second closure ran, once")
    }
  }

  /// A flaw when set 1 did not call each of `expected` once, in any order, or when
  /// `observable` does not store one entry for each.
  private static func onceEach(
    _ calls: [String], _ expected: [String], entries observable: Observable, _ steps: Steps
  ) -> Outcome? {
    if let flaw = steps.calls(calls, inAnyOrder: expected, set: 1, ", once each") { return flaw }
    let counted = countedEntries(of: observable)
    guard counted.count != expected.count else { return nil }
    return steps.flaw("\(counted.said) for \(expected.count) observers")
  }
}
