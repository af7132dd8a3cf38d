import Foundation
import ObserverScenarios
import Support
import Synchronization

// Exercise 9's check of what happens between threads while an observer is added: the value
// its .initial call shows, and every value set after it, each once.

extension SendableOptionsAdapter {
  /// How many observers the adding thread adds, one after another, and rounds at most: as
  /// many as fit in the check's time.
  private static var observersAdded: Int { 2000 }
  private static var addingRounds: Int { 20 }

  /// The observable, handed to two threads.
  private struct Handed: @unchecked Sendable {
    let observable: Observable
  }

  /// One thread sets 1, 2, 3, … while another adds observers asking for `.initial`, one after
  /// another, each removed once a few more are added: each must be shown, by its
  /// `.initial` call, the value it was added at, then the values set after it, in order, none
  /// skipped, until it is removed.
  static func addedWhileAnotherThreadSets() -> Outcome {
    let steps =
      "one thread set 1, 2, 3, … while another added observers asking for .initial (up to "
      + "\(observersAdded) a round), one after another, each removed once 3 more were added"
    // However loaded the machine, the check takes under a second.
    let deadline = now() + 800_000_000
    var rounds = 0
    for _ in 0..<addingRounds where now() < deadline {
      rounds += 1
      let handed = Handed(observable: Observable(0))
      let owners = (0..<observersAdded).map(SendableOwner.init)
      let initials = owners.map { _ in Recording<Int>() }
      let news = owners.map { _ in Recording<Int>() }
      let adding = Atomic<Bool>(true)
      let added = Atomic<Int>(0)
      onThreads(2) { thread in
        if thread == 0 {
          var value = 0
          // A cap, for code that stops the adding thread: the check then fails on what it got.
          while adding.load(ordering: .acquiring), value < 1_000_000 {
            value += 1
            handed.observable.value = value
          }
          return
        }
        // Each add comes just after a set, when the other thread is about to set again: the
        // moment a race needs. This thread waits for that set for 200 µs at most, as a loaded
        // machine may not run the other for a while, and stops adding at the deadline. Each
        // observer is removed once three more are added.
        for (index, owner) in owners.enumerated() where now() < deadline {
          let before = handed.observable.value
          let due = now() + 200_000
          while handed.observable.value == before, now() < due {}
          let (initial, new) = (initials[index], news[index])
          handed.observable.addObserver(
            owner, removeIfExists: true, options: .asked(ProgramOptions(initial: true))
          ) { value, option in
            if option == .initial { initial.append(value) } else { new.append(value) }
          }
          added.store(index + 1, ordering: .relaxed)
          if index >= 3 { handed.observable.removeObserver(owners[index - 3]) }
        }
        adding.store(false, ordering: .releasing)
      }
      // The observers added before the deadline.
      for index in 0..<added.load(ordering: .relaxed) {
        if let flaw = flaw(initials[index].all, news[index].all, of: index + 1, steps) {
          return flaw
        }
      }
      withExtendedLifetime(owners) {}
    }
    return .holds(
      "\(steps), \(rounds) times: each was shown the value it was added at, then the "
        + "later values in order, none skipped")
  }

  /// The time, in nanoseconds.
  private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

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
          + "\(early), set before: the .initial call must show the value read when the "
          + "observer was stored, under the same lock")
    }
    let lost = ((shown + 1)...(new.max() ?? shown + 1)).first { !new.contains($0) }
    if let lost {
      return .flaw(
        "\(steps): \(observer)'s .initial call showed \(shown), then it received \(listed(new.map(String.init))), "
          + "never \(lost): the value was read and the observer stored under two locks, and a "
          + "set came between")
    }
    return .flaw(
      "\(steps): \(observer)'s .initial call showed \(shown), then it received "
        + "\(listed(new.map(String.init))), not in the order they were set")
  }
}
