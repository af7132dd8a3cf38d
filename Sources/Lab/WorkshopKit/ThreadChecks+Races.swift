import Foundation
import ObserverScenarios
import Support
import Synchronization

// MARK: - Observers added while another thread sets

extension SendableOptionsAdapter {
  /// How many observers the adding thread adds in a round, how many between two meetings of
  /// the threads (``inLockstep(_:bursts:_:)``), and how many rounds, each on a fresh
  /// observable, the check runs: the same on every machine.
  private static var observersAdded: Int { 1000 }
  private static var addedPerBurst: Int { 8 }
  private static var addingRounds: Int { 10 }

  /// One thread sets 1, 2, 3, … while another adds observers asking for `.initial`, one after
  /// another, each removed once a few more are added: each must be shown, by its
  /// `.initial` call, the value it was added at, then the values set after it, in order, none
  /// skipped, until it is removed.
  static func addedWhileAnotherThreadSets() -> Outcome {
    let steps =
      "one thread set 1, 2, 3, … while another added observers asking for .initial "
      + "(\(observersAdded) a round), one after another, each removed once 3 more were added"
    let progress = GeneratedPrograms.progress
    for round in 0..<addingRounds {
      progress?(round + 1, addingRounds)
      if let flaw = addedWhileAnotherThreadSets(steps) { return flaw }
    }
    return .holds(
      "\(steps), \(addingRounds) times: each was shown the value it was added at, then the "
        + "later values in order, none skipped")
  }

  /// One round of ``addedWhileAnotherThreadSets()``: what went wrong, or `nil`.
  private static func addedWhileAnotherThreadSets(_ steps: String) -> Outcome? {
    let handed = SharedObservable(observable: Observable(0))
    let owners = (0..<observersAdded).map(ThreadCheckOwner.init)
    let initials = owners.map { _ in Recording<Int>() }
    let news = owners.map { _ in Recording<Int>() }
    // How many observers the adding thread has added: the setting thread sets until it has
    // added the one under way.
    let added = Atomic<Int>(0)
    let perBurst = addedPerBurst
    inLockstep(2, bursts: observersAdded / perBurst) { thread, burst in
      guard thread == 1 else {
        var value = handed.observable.value
        while added.load(ordering: .acquiring) < (burst + 1) * perBurst {
          value += 1
          handed.observable.value = value
        }
        return
      }
      for index in (burst * perBurst)..<((burst + 1) * perBurst) {
        // Each add comes a moment after one of the other thread's sets, a longer moment each
        // time, so that adds meet the sets at every point of them. (It waits for that set for
        // a few reads at most: the other may not be running.) Each observer is removed once
        // three more are added.
        let before = handed.observable.value
        var reads = 0
        while handed.observable.value == before, reads < 20 { reads += 1 }
        for _ in 0..<(index % 64 * 16) { _ = added.load(ordering: .relaxed) }
        let (initial, new) = (initials[index], news[index])
        handed.observable.addObserver(
          owners[index], removeIfExists: true, options: .asked(ProgramOptions(initial: true))
        ) { value, option in
          if option == .initial { initial.append(value) } else { new.append(value) }
        }
        if index >= 3 { handed.observable.removeObserver(owners[index - 3]) }
        added.store(index + 1, ordering: .releasing)
      }
    }
    for index in owners.indices {
      if let flaw = flaw(initials[index].all, news[index].all, of: index + 1, steps) {
        return flaw
      }
    }
    withExtendedLifetime(owners) {}
    return nil
  }

  /// What is wrong with what observer `number` received: its `.initial` calls and new values.
  private static func flaw(_ initial: [Int], _ new: [Int], of number: Int, _ steps: String)
    -> Outcome?
  {
    let observer = "observer \(number)"
    guard initial.count == 1, let shown = initial.first else {
      return .flaw("\(steps): \(observer)'s .initial call came \(initial.count) times, not once")
    }
    guard new != Array((shown + 1)..<(shown + 1 + new.count)) else { return nil }
    if let early = new.filter({ $0 <= shown }).min() {
      return .flaw(
        "\(steps): \(observer)'s .initial call showed \(shown), and it was also called with "
          + "\(early), set before: what .initial shows, and the callbacks a set calls, must "
          + "be read under the lock the value is stored under. Either add read the value and "
          + "stored the observer under two locks, or a set stored the value and took its "
          + "callbacks under two")
    }
    let lost = ((shown + 1)...(new.max() ?? shown + 1)).first { !new.contains($0) }
    if let lost {
      return .flaw(
        "\(steps): \(observer)'s .initial call showed \(shown), then it received "
          + "\(listed(new.map(String.init))), never \(lost): a set came between two locks. Either add read the value and stored "
          + "the observer under two, or a set took its callbacks and stored the value under two")
    }
    return .flaw(
      "\(steps): \(observer)'s .initial call showed \(shown), then it received "
        + "\(listed(new.map(String.init))), not in the order they were set")
  }
}

// MARK: - Values set on two threads

/// Exercise 9's observable, generic over its value as the exercise declares it
/// (`Observable<Value: Sendable>`): ``ValuesOnThreads`` drives it with ``Stamp``s, whose races
/// show where an `Int`'s stay hidden.
public protocol ThreadedObservable: AnyObject, SendableMetatype {
  /// The value's type.
  associatedtype Value: Sendable
  /// The option set.
  associatedtype Options: DeliveryOptions
  /// Creates an observable holding `value`, with no observers.
  init(_ value: Value)
  /// The value; setting it notifies.
  var value: Value { get set }
  /// Adds a callback for `observer`, held weakly, called on any thread with each value
  /// `options` asks for and the option it answers; `removeIfExists` removes the observer's
  /// earlier callbacks first.
  func addObserver(
    _ observer: AnyObject & Sendable, removeIfExists: Bool, options: Options,
    closure: @escaping @Sendable (Value, Options) -> Void)
  /// Removes `observer`'s callbacks.
  func removeObserver(_ observer: AnyObject & Sendable)
}

/// A value that shows a race: ten numbers and a string, all made from one thread's number and
/// its count. Copying it takes many loads and stores, and a retain of the string's own buffer,
/// so a read that races a write finds half of one value and half of another, or a buffer
/// already freed. An `Int`, and a `String` too, read as racily came out whole in every run
/// measured here, so a race on them passed.
///
/// A torn read shows where the processor's cache lines split the value: every part of it tells
/// its number, the numbers before and after the string as well as the string itself (its last
/// character), so that wherever a line ends, one part of each side tells a torn value.
public struct Stamp: Sendable, Hashable, CustomStringConvertible {
  /// The setting thread, and how many values it had set with this one.
  package let thread: Int
  package let number: Int
  // The same key six times more, a text of its thread's length ending in the number's last
  // digit, and the key twice more: a torn read changes some of them, not all.
  private let marks: (Int, Int, Int, Int, Int, Int)
  private let text: String
  private let after: (Int, Int)

  /// The `number`th value thread `thread` sets.
  package init(thread: Int, number: Int) {
    self.thread = thread
    self.number = number
    let key = thread * 1_000_000 + number
    marks = (key, key, key, key, key, key)
    // A buffer of its own each time, of its thread's length.
    text = String(repeating: "·", count: Self.length(of: thread)) + String(number % 10)
    after = (key, key)
  }

  /// How many characters the text of thread `thread`'s values has before its last digit: two
  /// bytes each.
  private static func length(of thread: Int) -> Int { 12 + 20 * thread }

  /// Whether it is whole: every part made from the same thread and number. Quick, so that a
  /// thread that reads and checks values reads often.
  package var isWhole: Bool {
    let key = thread * 1_000_000 + number
    return marks == (key, key, key, key, key, key) && after == (key, key)
      && text.utf8.count == 2 * Self.length(of: thread) + 1
      && text.utf8.last == UInt8(ascii: "0") + UInt8(number % 10)
  }

  /// `thread:number`, as evidence shows it.
  public var description: String { isWhole ? "\(thread):\(number)" : "a torn value" }

  /// Whether both are the same thread's same value, whole or not.
  public static func == (lhs: Stamp, rhs: Stamp) -> Bool {
    lhs.thread == rhs.thread && lhs.number == rhs.number
  }

  /// Hashes the thread and the number, as ``==`` compares them.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(thread)
    hasher.combine(number)
  }
}

extension ExerciseCode {
  /// The code of exercise 9, whose observable is not `Sendable`: `adapter` drives its observable
  /// of `Int` through the scenarios and the checks, and `threaded`, the same observable holding
  /// ``Stamp``s, through ``Check/valuesSetOnTwoThreads``.
  package static func exercise<Adapter: ExerciseAdapter, Threaded: ThreadedObservable>(
    _ number: Int, _ adapter: Adapter.Type, threaded: Threaded.Type
  ) -> ExerciseCode where Threaded.Value == Stamp {
    exercise(number, adapter).settingValues(on: threaded)
  }

  /// The code of exercise 9, whose observable is `Sendable`.
  package static func exercise<Adapter: ExerciseAdapter, Threaded: ThreadedObservable>(
    _ number: Int, _ adapter: Adapter.Type, threaded: Threaded.Type
  ) -> ExerciseCode where Adapter.Observable: Sendable, Threaded.Value == Stamp {
    exercise(number, adapter).settingValues(on: threaded)
  }

  /// This code, with ``Check/valuesSetOnTwoThreads`` run on `Threaded`.
  func settingValues<Threaded: ThreadedObservable>(on _: Threaded.Type) -> ExerciseCode
  where Threaded.Value == Stamp {
    ExerciseCode(design: design) { check in
      check == .valuesSetOnTwoThreads ? ValuesOnThreads<Threaded>.run() : self.check(check)
    }
  }
}

/// Two threads set ``Stamp``s while a third reads the value and a fourth adds and removes an
/// observer asking for `.initial`; three observers, added before, ask for `.old` and `.new`.
/// Whatever the threads' interleaving, a lock makes the sets happen one after another, so:
/// every value read or delivered is whole and was set; each set's new value reaches each of the
/// three once, each thread's values in the order it set them; and the old values they are shown
/// are the first value and every value set, but the last, each once.
package enum ValuesOnThreads<Observed: ThreadedObservable> where Observed.Value == Stamp {
  /// How many bursts of sets each setting thread makes between meetings of the threads
  /// (``inLockstep(_:bursts:_:)``), and how many sets a burst: with no observer, then observed.
  /// The same on every machine.
  private static var quickBursts: (count: Int, sets: Int) { (1000, 20) }
  private static var observedBursts: (count: Int, sets: Int) { (100, 20) }

  /// Runs the check: first on an observable with no observers, whose sets are quick, so that
  /// a read races many writes; then on a fresh one, observed.
  package static func run() -> Outcome {
    // The grader sees the check's progress: every 100th burst of the first part, every 10th
    // of the second.
    let progress = GeneratedPrograms.progress
    let steps = quickBursts.count / 100 + observedBursts.count / 10
    if let torn = tornRead({ progress?($0 / 100 + 1, steps) }) {
      return .flaw(
        "two threads took turns to set values (each ten numbers and a string), with no "
          + "observer, while the other read the value: \(torn), half of one value and half of "
          + "another: the value was read while another thread wrote it, outside the lock")
    }
    return observed { progress?(quickBursts.count / 100 + $0 / 10 + 1, steps) }
  }

  /// What a thread reading the value saw that was torn while another set it: two threads,
  /// taking turns to set and to read, ``quickBursts`` times; `nil` when every value read was
  /// whole. `progress` is told every burst's number, on one of the threads.
  private static func tornRead(_ progress: @escaping @Sendable (_ burst: Int) -> Void)
    -> String?
  {
    let handed = SharedObservable(observable: Observed(Stamp(thread: 9, number: 0)))
    let torn = Atomic<Int>(0)
    let (bursts, sets) = quickBursts
    // Made before, so that the setting threads do nothing but set.
    let stamps = (0..<2).map { thread in
      (0...(bursts * sets)).map { Stamp(thread: thread, number: $0) }
    }
    inLockstep(2, bursts: bursts) { thread, burst in
      if thread == 0, burst % 100 == 0 { progress(burst) }
      if (thread + burst) % 2 == 0 {
        for number in (burst * sets + 1)...((burst + 1) * sets) {
          handed.observable.value = stamps[thread][number]
        }
      } else {
        for _ in 0..<(2 * sets) {
          if !handed.observable.value.isWhole { torn.add(1, ordering: .relaxed) }
        }
      }
    }
    let count = torn.load(ordering: .relaxed)
    return count == 0
      ? nil : count == 1 ? "a value read was torn" : "\(count) values read were torn"
  }

  /// The check itself, on an observed observable; `progress` is told every burst's number, on
  /// one of the threads.
  private static func observed(_ progress: @escaping @Sendable (_ burst: Int) -> Void) -> Outcome {
    let first = Stamp(thread: 9, number: 0)
    let handed = SharedObservable(observable: Observed(first))
    let names = ["A", "B", "C"]
    let owners = names.indices.map(ThreadCheckOwner.init)
    let news = owners.map { _ in Recording<Stamp>() }
    let olds = owners.map { _ in Recording<Stamp>() }
    for index in owners.indices {
      let (new, old) = (news[index], olds[index])
      handed.observable.addObserver(
        owners[index], removeIfExists: true, options: Observed.Options.old.union(.new)
      ) { value, option in
        if option == .new { new.append(value) } else if option == .old { old.append(value) }
      }
    }
    let torn = Recording<String>()
    let moments = Atomic<Int>(0)
    let (bursts, sets) = observedBursts
    let owner = ThreadCheckOwner(3)
    // Each burst, each thread does as much as the others, so that none waits for another with
    // its processor: the two setting threads set, the third reads, the fourth adds D, and
    // removes it every eighth time.
    inLockstep(4, bursts: bursts) { thread, burst in
      if thread == 0, burst % 10 == 0 { progress(burst) }
      switch thread {
      case 0, 1:
        // The second setting thread starts a moment after the first, a longer moment each
        // burst, so that their sets meet at every point of them.
        for _ in 0..<(burst % 16 * 32 * thread) { _ = moments.load(ordering: .relaxed) }
        for number in (burst * sets + 1)...((burst + 1) * sets) {
          handed.observable.value = Stamp(thread: thread, number: number)
        }
      case 2:
        for _ in 0..<(4 * sets) where !handed.observable.value.isWhole {
          torn.append("the value read was torn")
        }
      default:
        for step in 1...sets {
          handed.observable.addObserver(
            owner, removeIfExists: true, options: Observed.Options.initial.union(.new)
          ) { value, option in
            if !value.isWhole {
              torn.append(
                "D's \(option == .initial ? ".initial" : ".new") call showed a torn value")
            }
          }
          if step % 8 == 0 { handed.observable.removeObserver(owner) }
        }
      }
    }
    withExtendedLifetime(owner) {}
    let counts = [bursts * sets, bursts * sets]
    let steps =
      "two threads set values (\(grouped(counts[0])) and \(grouped(counts[1])), each ten "
      + "numbers and a string) while a third read the value and a fourth added and removed D, "
      + "asking for .initial; A, B and C asked for .old and .new"
    if let stray = torn.all.first {
      return .flaw(
        "\(steps): \(stray), half of one value and half of another: the value was read "
          + "while another thread wrote it, outside the lock")
    }
    let set = (0..<2).flatMap { thread in
      (0..<counts[thread]).map { Stamp(thread: thread, number: $0 + 1) }
    }
    let last = handed.observable.value
    for index in owners.indices {
      if let flaw = flaw(
        names[index], new: news[index].all, old: olds[index].all, set: set, first: first,
        last: last, steps)
      {
        return flaw
      }
    }
    return withExtendedLifetime(owners) {
      .holds(
        "\(steps): every value read was whole, and A, B and C were each shown every value "
          + "set, once, each thread's in order, and the values they replaced")
    }
  }

  /// What is wrong with what `name` was shown: `new` and `old` values, when `set` were set, the
  /// observable held `first`, and holds `last` now.
  private static func flaw(
    _ name: String, new: [Stamp], old: [Stamp], set: [Stamp], first: Stamp, last: Stamp,
    _ steps: String
  ) -> Outcome? {
    if (new + old).contains(where: { !$0.isWhole }) {
      return .flaw(
        "\(steps): \(name) was called with a torn value, half of one and half of another: "
          + "the value was read while another thread wrote it, outside the lock")
    }
    let received = counted(new)
    if let twice = new.first(where: { received[$0, default: 0] > 1 }) {
      return .flaw(
        "\(steps): \(name) was called with \(twice) \(received[twice, default: 0]) times as the "
          + "new value: each set must deliver the value it stored, not the value read again "
          + "when the closure is called")
    }
    if let missed = set.first(where: { received[$0] == nil }) {
      return .flaw(
        "\(steps): \(name) was never called with \(missed) as the new value: every set must "
          + "deliver the value it stored to every observer")
    }
    for thread in 0..<2 {
      let numbers = new.filter { $0.thread == thread }.map(\.number)
      if let index = numbers.indices.dropFirst().first(where: { numbers[$0] < numbers[$0 - 1] }) {
        return .flaw(
          "\(steps): \(name) was called with \(thread):\(numbers[index - 1]) before "
            + "\(thread):\(numbers[index]), which the same thread set first")
      }
    }
    var expected = counted(set + [first])
    expected[last, default: 0] -= 1
    let shown = counted(old)
    let values = Set(expected.keys).union(shown.keys).sorted {
      ($0.thread, $0.number) < ($1.thread, $1.number)
    }
    if let wrong = values.first(where: { expected[$0, default: 0] != shown[$0, default: 0] }) {
      return .flaw(
        "\(steps): \(name) was shown \(wrong) \(times(shown[wrong, default: 0])) as the old "
          + "value, not \(times(expected[wrong, default: 0])): each set's old value must be the "
          + "one it replaced, read under the lock it stores under")
    }
    return nil
  }

  /// `once`, `twice`, `3 times`.
  private static func times(_ count: Int) -> String {
    count == 0 ? "never" : count == 1 ? "once" : count == 2 ? "twice" : "\(count) times"
  }

  /// How many times each value comes in `values`.
  private static func counted(_ values: [Stamp]) -> [Stamp: Int] {
    values.reduce(into: [:]) { $0[$1, default: 0] += 1 }
  }
}
