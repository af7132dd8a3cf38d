import DesignCatalog
import StageBench
import Testing

/// The same numbers from the same seed: SplitMix64.
private struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

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

@Suite("The bench's contenders: a set reaches the observers still subscribed, and only those")
struct RemovalTests {
  /// The first step after which a set did not reach exactly the live observers, if any.
  @MainActor
  private func failure(of program: [Step], on contender: Contender) -> String? {
    let observable = contender.make()
    let sum = Sum(0)
    var owners: [BenchOwner] = []
    var live: [Int] = []
    var next = 0
    for step in program {
      switch step {
      case .subscribe:
        let owner = BenchOwner()
        owners.append(owner)
        observable.subscribe(owner, index: next, sum: sum)
        live.append(next)
        next += 1
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

  @Test(
    "under generated programs of subscribes, unsubscribes and sets, seeded",
    arguments: Design.contenders.filter { $0.canUnsubscribe && !$0.deliversOnAnotherThread })
  @MainActor
  func setReachesTheLive(contender: Contender) {
    var random = SplitMix64(state: 35)
    for _ in 0..<200 {
      let program = (0..<Int.random(in: 1...24, using: &random)).map { _ -> Step in
        switch Int.random(in: 0..<3, using: &random) {
        case 0: .subscribe
        case 1: .unsubscribe(Int.random(in: 0..<8, using: &random))
        default: .set(Int.random(in: 1...9, using: &random))
        }
      }
      guard failure(of: program, on: contender) != nil else { continue }
      // The shortest program that still fails: steps dropped one at a time while it does.
      var shortest = program
      var index = 0
      while index < shortest.count {
        var shorter = shortest
        shorter.remove(at: index)
        if failure(of: shorter, on: contender) != nil { shortest = shorter } else { index += 1 }
      }
      let steps = shortest.map(\.description).joined(separator: ", ")
      let found = failure(of: shortest, on: contender) ?? ""
      Issue.record(Comment(rawValue: "\(contender.name): \(steps) → \(found)"))
      return
    }
  }
}
