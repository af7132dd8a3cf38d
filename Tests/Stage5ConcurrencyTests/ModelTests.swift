import Support
import TestSupport
import Testing

#if TUNED
  import Stage5Tuned
#else
  import Stage5Concurrency
#endif

/// What a handler does, once, the first time it is called.
private enum Reaction: Equatable {
  case none
  /// Ends subscription number `index`, mid-delivery.
  case cancel(Int)
  /// Sets the value from inside the handler.
  case set(Int)
}

/// One step of a sequence.
private enum Operation {
  case observe(initial: Bool, reaction: Reaction)
  case observeOwner(initial: Bool, reaction: Reaction)
  case set(Int)
  case cancel(Int)
  case releaseOwner(Int)
}

/// One delivery, as the log records it.
private struct Delivery: Equatable {
  var subscription: Int
  var change: Change<Int>
}

/// The rules, as plainly as they can be written: one thread, arrays, no locks.
///
/// A set is queued and delivered after the delivery under way; it reaches, in subscription
/// order, the subscriptions made before it that are still live when their turn comes. An
/// initial value is queued the same way, for its one subscription.
private struct Model {
  struct Entry {
    var live = true
    var reaction: Reaction
    /// Whether whoever cancels can reach it: a token exists only once `observe` returns, so a
    /// handler called with the initial value, inside `observe`, cannot cancel that token yet.
    var cancellable = true
    var ownerReleased = false
  }

  enum Queued {
    case change(Change<Int>, before: Int)
    case initial(Change<Int>, subscription: Int)
  }

  var value = 0
  var entries: [Entry] = []
  var queue: [Queued] = []
  var delivering = false
  var log: [Delivery] = []
  /// The subscriptions ended by a cancel or `removeObserver`, whose handlers must be released
  /// by the time the operation returns.
  var explicitlyEnded: Set<Int> = []

  mutating func apply(_ operation: Operation) {
    switch operation {
    case .observe(let initial, let reaction), .observeOwner(let initial, let reaction):
      let index = entries.count
      var isToken = false
      if case .observe = operation { isToken = true }
      entries.append(Entry(reaction: reaction, cancellable: !isToken))
      if initial {
        enqueue(
          .initial(Change(kind: .initial, oldValue: nil, newValue: value), subscription: index))
      }
      entries[index].cancellable = true
    case .set(let newValue):
      set(newValue)
    case .cancel(let index):
      end(index)
    case .releaseOwner(let index):
      entries[index].live = false
      entries[index].ownerReleased = true
    }
  }

  var liveCount: Int { entries.count { $0.live } }

  private mutating func end(_ index: Int) {
    if !entries[index].ownerReleased { explicitlyEnded.insert(index) }
    entries[index].live = false
  }

  private mutating func set(_ newValue: Int) {
    let change = Change(kind: .update, oldValue: value, newValue: newValue)
    value = newValue
    enqueue(.change(change, before: entries.count))
  }

  private mutating func enqueue(_ item: Queued) {
    queue.append(item)
    guard !delivering else { return }
    delivering = true
    while !queue.isEmpty {
      switch queue.removeFirst() {
      case .initial(let change, let index):
        call(index, with: change)
      case .change(let change, let before):
        for index in 0..<before {
          call(index, with: change)
        }
      }
    }
    delivering = false
  }

  private mutating func call(_ index: Int, with change: Change<Int>) {
    guard entries[index].live else { return }
    log.append(Delivery(subscription: index, change: change))
    let reaction = entries[index].reaction
    entries[index].reaction = .none
    switch reaction {
    case .none: break
    case .cancel(let target) where target < entries.count && entries[target].cancellable:
      end(target)
    case .cancel: break
    case .set(let newValue): set(newValue)
    }
  }
}

/// What a handler captures, to tell when the handler is released.
private final class Captured: Sendable {
  let name: String
  let deinits: SharedLog<String>

  init(_ name: String, deinits: SharedLog<String>) {
    self.name = name
    self.deinits = deinits
  }

  func touch() {}

  deinit { deinits.append(name) }
}

/// The same operations on the real observable.
private final class Harness: @unchecked Sendable {
  // Unchecked: a harness is made, used and dropped by one test on one thread (or on the main
  // actor); the handlers it registers run there too, because nothing here sets the value from
  // elsewhere.
  let observable = Observable(0)
  var tokens: [ObservationToken?] = []
  var owners: [Owner?] = []
  var isOwned: [Bool] = []
  var reactions: [Reaction] = []
  var log: [Delivery] = []
  let deinits = SharedLog<String>()
  /// The subscriptions whose handler has been released: each handler captures a `Captured`.
  let released = SharedLog<String>()

  /// Applies `operation`; the handler it registers is isolated to the main actor when
  /// `onMainActor` is true (the caller must then be on it), and may run on any thread if not.
  func apply(_ operation: Operation, onMainActor: Bool) {
    switch operation {
    case .observe(let initial, let reaction):
      let index = register(reaction, owned: false)
      let options: ObservableOptions = initial ? .initial : []
      let captured = Captured("\(index)", deinits: released)
      if onMainActor {
        tokens[index] = MainActor.assumeIsolated {
          observable.observe(options: options) { [unowned self] change in
            captured.touch()
            self.handle(index, change)
          }
        }
      } else {
        tokens[index] = observable.observeOnAnyThread(options: options) {
          [unowned self] change in
          captured.touch()
          self.handle(index, change)
        }
      }
    case .observeOwner(let initial, let reaction):
      let index = register(reaction, owned: true)
      let owner = Owner("owner \(index)", deinits: deinits)
      owners[index] = owner
      let options: ObservableOptions = initial ? .initial : []
      let captured = Captured("\(index)", deinits: released)
      if onMainActor {
        MainActor.assumeIsolated {
          observable.observe(owner, options: options) { [unowned self] _, change in
            captured.touch()
            self.handle(index, change)
          }
        }
      } else {
        observable.observeOnAnyThread(owner, options: options) { [unowned self] _, change in
          captured.touch()
          self.handle(index, change)
        }
      }
    case .set(let value):
      observable.value = value
    case .cancel(let index):
      end(index)
    case .releaseOwner(let index):
      owners[index] = nil
    }
  }

  private func register(_ reaction: Reaction, owned: Bool) -> Int {
    tokens.append(nil)
    owners.append(nil)
    isOwned.append(owned)
    reactions.append(reaction)
    return tokens.count - 1
  }

  private func end(_ index: Int) {
    if isOwned[index] {
      if let owner = owners[index] { observable.removeObserver(owner) }
    } else {
      tokens[index]?.cancel()
    }
  }

  private func handle(_ index: Int, _ change: Change<Int>) {
    log.append(Delivery(subscription: index, change: change))
    let reaction = reactions[index]
    reactions[index] = .none
    switch reaction {
    case .none: break
    case .cancel(let target) where target < tokens.count: end(target)
    case .cancel: break
    case .set(let value): observable.value = value
    }
  }
}

@Suite("Stage 5: against a reference model")
struct ModelTests {
  @Test(
    "3,000 seeded random sequences give the model's deliveries, and cancelled handlers released")
  func matchesModel() {
    let divergences = divergingSeeds(mainActorShare: 0)
    #expect(divergences.isEmpty, "seeds that diverge from the model: \(divergences.prefix(10))")
  }

  @Test("the same sequences with every handler isolated to the main actor, all on the main actor")
  @MainActor
  func matchesModelOnTheMainActor() {
    let divergences = divergingSeeds(mainActorShare: 1)
    #expect(divergences.isEmpty, "seeds that diverge from the model: \(divergences.prefix(10))")
  }

  @Test(
    "the same sequences with main-actor handlers and any-thread handlers mixed, on the main actor")
  @MainActor
  func matchesModelMixed() {
    let divergences = divergingSeeds(mainActorShare: 0.5)
    #expect(divergences.isEmpty, "seeds that diverge from the model: \(divergences.prefix(10))")
  }

  /// Runs 3,000 seeded sequences on the model and on the real observable, and returns the seeds
  /// whose deliveries, or whose released handlers, differ.
  ///
  /// - Parameter mainActorShare: The share of handlers isolated to the main actor; the caller
  ///   must be on the main actor when it is above 0.
  /// - Returns: The seeds that diverge, in order.
  private func divergingSeeds(mainActorShare: Double) -> [UInt64] {
    var divergences: [UInt64] = []
    for seed in 1...3_000 as ClosedRange<UInt64> {
      var random = SeededRandom(seed: seed)
      var model = Model()
      let harness = Harness()
      var subscriptions = 0
      var ownedSubscriptions: [Int] = []
      var nextValue = 1
      var handlersDiverge = false

      func reaction() -> Reaction {
        // A target may be a subscription made later than the one that reacts, or one that is
        // never made at all (then the reaction does nothing).
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return .cancel(Int.random(in: 0..<(subscriptions + 4), using: &random))
        case 1:
          nextValue += 1
          return .set(nextValue * 1_000)
        default: return .none
        }
      }

      for _ in 0..<Int.random(in: 5...30, using: &random) {
        let operation: Operation
        switch Int.random(in: 0..<10, using: &random) {
        case 0...1:
          operation = .observe(initial: Bool.random(using: &random), reaction: reaction())
          subscriptions += 1
        case 2:
          operation = .observeOwner(initial: Bool.random(using: &random), reaction: reaction())
          ownedSubscriptions.append(subscriptions)
          subscriptions += 1
        case 3 where subscriptions > 0:
          operation = .cancel(Int.random(in: 0..<subscriptions, using: &random))
        case 4 where !ownedSubscriptions.isEmpty:
          operation = .releaseOwner(ownedSubscriptions.randomElement(using: &random)!)
        default:
          nextValue += 1
          operation = .set(nextValue)
        }
        model.apply(operation)
        harness.apply(
          operation, onMainActor: Double.random(in: 0..<1, using: &random) < mainActorShare)
        // Every handler ended by a cancel is released by now, and no live one is.
        let released = Set(harness.released.entries.compactMap(Int.init))
        let liveReleased = model.entries.indices.contains {
          model.entries[$0].live && released.contains($0)
        }
        if !model.explicitlyEnded.isSubset(of: released) || liveReleased {
          handlersDiverge = true
        }
      }

      if handlersDiverge || model.log != harness.log || model.value != harness.observable.value
        || model.liveCount != harness.observable.observerCount
      {
        divergences.append(seed)
      }
    }
    return divergences
  }
}
