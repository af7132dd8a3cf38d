import DesignCatalog
import StageBench
import Support
import TestSupport
import Testing

/// One step of a program run on a contender: what the bench's churn and fan-out do, mixed.
private enum Step: CustomStringConvertible {
  case subscribe
  /// Ends the subscription of the `n`th observer still subscribed, oldest first.
  case unsubscribe(Int)
  case set(Int)

  var description: String {
    switch self {
    case .subscribe: "subscribe"
    case .unsubscribe(let n): "unsubscribe the live observer #\(n)"
    case .set(let value): "set \(value)"
    }
  }
}

/// A wrong contender: its removal forgets the index and keeps the closure it calls, as the
/// bench's closure array once did.
private final class KeepingRemovedBenchObservable: BenchObservable {
  var observers: [Int: (Int) -> Void] = [:]
  var ordered: [(Int) -> Void] = []

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    let observer: (Int) -> Void = { sum.add($0) }
    observers[index] = observer
    ordered.append(observer)
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) { observers[index] = nil }

  func set(_ value: Int) {
    for observer in ordered { observer(value) }
  }
}

@Suite("The bench's contenders: a set reaches the observers still subscribed, and only those")
struct RemovalTests {
  /// What the first set that did not reach exactly the live observers added, if one did not.
  @MainActor
  private static func failure(of program: [Step], on contender: Contender) -> String? {
    let observable = contender.make()
    let sum = Sum(0)
    var owners: [BenchOwner] = []
    var live: [Int] = []
    for step in program {
      switch step {
      case .subscribe:
        owners.append(BenchOwner())
        observable.subscribe(owners.last!, index: owners.count - 1, sum: sum)
        live.append(owners.count - 1)
      case .unsubscribe(let n):
        guard !live.isEmpty else { continue }
        let index = live.remove(at: n % live.count)
        observable.unsubscribe(owners[index], index: index)
      case .set(let value):
        let before = sum.value
        observable.set(value)
        if sum.value - before != value * live.count {
          return "set \(value) added \(sum.value - before), not \(value) × \(live.count) live"
        }
      }
    }
    return nil
  }

  /// The shortest failing program of 200 drawn from `seed`, told with what failed; `nil` when
  /// every one passes. Shortest: its steps dropped one at a time while it still fails.
  @MainActor
  private static func counterexample(on contender: Contender, seed: UInt64) -> String? {
    var random = SeededRandom(seed: seed)
    for _ in 0..<200 {
      let program = (0..<Int.random(in: 1...24, using: &random)).map { _ -> Step in
        switch Int.random(in: 0..<3, using: &random) {
        case 0: .subscribe
        case 1: .unsubscribe(Int.random(in: 0..<8, using: &random))
        default: .set(Int.random(in: 1...9, using: &random))
        }
      }
      guard failure(of: program, on: contender) != nil else { continue }
      var shortest = program
      var index = 0
      while index < shortest.count {
        var shorter = shortest
        shorter.remove(at: index)
        if failure(of: shorter, on: contender) != nil { shortest = shorter } else { index += 1 }
      }
      let steps = shortest.map(\.description).joined(separator: ", ")
      return "\(steps) → \(failure(of: shortest, on: contender) ?? "")"
    }
    return nil
  }

  @Test(
    "under generated programs of subscribes, unsubscribes and sets, seeded",
    arguments: CatalogEntry.contenders.filter { $0.canUnsubscribe && !$0.deliversOnAnotherThread })
  @MainActor
  func setReachesTheLive(contender: Contender) {
    if let found = Self.counterexample(on: contender, seed: 35) {
      Issue.record(Comment(rawValue: "\(contender.name): \(found)"))
    }
  }

  @Test("a contender that keeps a removed closure is caught, with its shortest program")
  @MainActor
  func keepingRemovedIsCaught() {
    let wrong = Contender(name: "keeps removed", make: { KeepingRemovedBenchObservable() })
    #expect(
      Self.counterexample(on: wrong, seed: 35)
        == "subscribe, unsubscribe the live observer #7, set 6 → set 6 added 6, not 6 × 0 live")
  }
}
