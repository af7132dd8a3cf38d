import ObserverScenarios
import Support

// Each adapter runs the checks of the exercises it drives, on fresh objects of the exercise's
// own API. A check's evidence says what it did and what happened, the way the scenarios' does.

extension ExerciseAdapter {
  /// The evidence of a check asked of an adapter that does not run it.
  static func notRunHere(_ check: Check) -> Outcome {
    .flaw("\(check.rawValue) is not a check of this exercise's API")
  }
}

// MARK: - Exercise 1

extension RemovableClosuresAdapter {
  /// Runs a check of exercise 1's promise.
  ///
  /// - Parameter check: The check.
  /// - Returns: Its verdict and evidence.
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .removesOneOfSeveral: removesOneOfSeveral()
    case .removesTwiceThenBinds: removesTwiceThenBinds()
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
    var steps = Steps("bound A, B, C")
    observable.value = 1
    if let flaw = steps.calls(log.take(), expected: ["A", "B", "C"], set: 1) { return flaw }
    observable.removeObserver(a)
    steps.then("removed A")
    observable.value = 2
    if let flaw = steps.calls(log.take(), expected: ["B", "C"], set: 2) { return flaw }
    observable.removeObserver(b)
    steps.then("then B")
    observable.value = 3
    if let flaw = steps.calls(log.take(), expected: ["C"], set: 3) { return flaw }
    if observable.observerCount != 1 {
      return steps.flaw("observerCount said \(observable.observerCount), not 1")
    }
    return .holds("bound A, B, C, removed A then B: set 3 called C alone")
  }

  private static func removesTwiceThenBinds() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let a = bind("A", to: observable, log: log)
    let b = bind("B", to: observable, log: log)
    let c = bind("C", to: observable, log: log)
    observable.removeObserver(b)
    observable.removeObserver(b)
    var steps = Steps("bound A, B, C, removed B twice")
    observable.value = 1
    if let flaw = steps.calls(log.take(), expected: ["A", "C"], set: 1) { return flaw }
    let d = bind("D", to: observable, log: log)
    steps.then("bound D")
    observable.value = 2
    if let flaw = steps.calls(log.take(), expected: ["A", "C", "D"], set: 2) { return flaw }
    observable.removeObserver(c)
    steps.then("removed C")
    observable.value = 3
    if let flaw = steps.calls(log.take(), expected: ["A", "D"], set: 3) { return flaw }
    observable.removeObserver(d)
    observable.removeObserver(a)
    steps.then("removed D and A")
    observable.value = 4
    if let flaw = steps.calls(log.take(), expected: [], set: 4) { return flaw }
    if observable.observerCount != 0 {
      return steps.flaw("observerCount said \(observable.observerCount), not 0")
    }
    return .holds("removed B twice, bound D, removed C, D and A: each set called the right ones")
  }
}

// MARK: - Exercise 2

extension KeyedAdapter {
  /// Runs a check of exercise 2's promise.
  ///
  /// - Parameter check: The check.
  /// - Returns: Its verdict and evidence.
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .reboundKeyKeepsItsPlace: reboundKeyKeepsItsPlace()
    case .removedKeyBoundAgainGoesLast: removedKeyBoundAgainGoesLast()
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
    var steps = Steps("bound title, badge, count")
    observable.value = 1
    if let flaw = steps.calls(log.take(), expected: ["title", "badge", "count"], set: 1) {
      return flaw
    }
    bind("title", as: "title's second closure", to: observable, log: log)
    steps.then("bound title again with a second closure")
    observable.value = 2
    if let flaw = steps.calls(
      log.take(), expected: ["title's second closure", "badge", "count"], set: 2)
    {
      return flaw
    }
    if observable.observerCount != 3 {
      return steps.flaw("observerCount said \(observable.observerCount), not 3")
    }
    return .holds("title bound again kept its place before badge and count, with its new closure")
  }

  private static func removedKeyBoundAgainGoesLast() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    for key in ["title", "badge", "count"] { bind(key, to: observable, log: log) }
    observable.removeObserver(forKey: "badge")
    var steps = Steps("bound title, badge, count, removed badge")
    observable.value = 1
    if let flaw = steps.calls(log.take(), expected: ["title", "count"], set: 1) { return flaw }
    bind("badge", to: observable, log: log)
    steps.then("bound badge again")
    observable.value = 2
    if let flaw = steps.calls(log.take(), expected: ["title", "count", "badge"], set: 2) {
      return flaw
    }
    observable.removeObserver(forKey: "never bound")
    observable.removeObserver(forKey: "title")
    observable.removeObserver(forKey: "title")
    steps.then("removed a key never bound, and title twice")
    observable.value = 3
    if let flaw = steps.calls(log.take(), expected: ["count", "badge"], set: 3) { return flaw }
    if observable.observerCount != 2 {
      return steps.flaw("observerCount said \(observable.observerCount), not 2")
    }
    return .holds("badge removed and bound again went last, called once; other removals kept order")
  }
}

// MARK: - Exercise 3

extension OwnerKeyedAdapter {
  /// Runs a check of exercise 3's promise.
  ///
  /// - Parameter check: The check.
  /// - Returns: Its verdict and evidence.
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .twoOwnersOneKey: twoOwnersOneKey()
    case .oneOwnerTwoKeys: oneOwnerTwoKeys()
    default: notRunHere(check)
    }
  }

  private static func twoOwnersOneKey() -> Outcome {
    let observable = Observable(0)
    let log = CallLog()
    let first = Named("the first screen")
    let second = Named("the second screen")
    for owner in [first, second] {
      observable.bindObserver(owner, forKey: "label") { _ in log.append(owner.name) }
    }
    var steps = Steps("two screens of one class bound \"label\"")
    observable.value = 1
    let both = [first.name, second.name]
    let calls = log.take()
    if calls.sorted() != both.sorted() {
      return steps.flaw(
        "set 1 called \(listed(calls)), not both (\(listed(both)))"
          + (differentClassesKeptApart()
            ? "; a screen and an object of another class under "
              + "\"label\" were both called, so owners of one class share a key" : ""))
    }
    observable.removeObserver(first, forKey: "label")
    steps.then("the first removed its \"label\"")
    observable.value = 2
    if let flaw = steps.calls(log.take(), expected: [second.name], set: 2) { return flaw }
    return withExtendedLifetime([first, second]) {
      .holds("two screens of one class under \"label\": both called, and each removed alone")
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
    var calls = log.take()
    if calls.sorted() != ["badge", "label"] {
      return steps.flaw("set 1 called \(listed(calls)), not label and badge")
    }
    observable.bindObserver(screen, forKey: "label") { _ in log.append("label's second closure") }
    steps.then("bound \"label\" again with a second closure")
    observable.value = 2
    calls = log.take()
    if calls.sorted() != ["badge", "label's second closure"] {
      return steps.flaw("set 2 called \(listed(calls)), not label's second closure and badge")
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
  /// Runs a check of exercise 4's or 5's promise.
  ///
  /// - Parameter check: The check.
  /// - Returns: Its verdict and evidence.
  package static func run(_ check: Check) -> Outcome {
    switch check {
    case .setDropsEveryDeadEntry: setDropsEveryDeadEntry()
    case .secondBindReplacesTheFirst: secondBindReplacesTheFirst()
    case .rebindAmongSeveral: rebindAmongSeveral()
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
    let calls = log.take()
    if calls.sorted() != ["A's second closure", "B"] {
      return steps.flaw("set 1 called \(listed(calls)), not A's second closure and B, once each")
    }
    let counted = countedEntries(of: observable)
    if counted.count != 2 {
      return steps.flaw("\(counted.said) for 2 observers")
    }
    return withExtendedLifetime([a, b]) {
      .holds("A bound twice: only its second closure ran, once; 2 entries for 2 observers")
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
    let calls = log.take()
    let expected = latest.values.sorted()
    if calls.sorted() != expected {
      return steps.flaw("set 1 called \(listed(calls)), not \(listed(expected)), once each")
    }
    let counted = countedEntries(of: observable)
    if counted.count != 3 {
      return steps.flaw("\(counted.said) for 3 observers")
    }
    return withExtendedLifetime(owners) {
      .holds("7 binds by 3 observers: each called once, with its latest closure; 3 entries")
    }
  }
}
