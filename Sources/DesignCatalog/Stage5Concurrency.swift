import ObserverScenarios
import Stage5Concurrency
import StageBench
import Support

extension Design {
  /// Stage 5: thread-safe, ordered delivery, immediate removal.
  package static let concurrency = Design(
    observable: .concurrency,
    contenders: [
      Contender(.concurrency) { ConcurrencyBench() },
      // A handler isolated to the main actor, set from the main actor: a label's path.
      // Measured only on the main actor, as compare-stages runs.
      Contender(.concurrency, name: "stage 5, main actor") { MainActorConcurrencyBench() },
    ],
    graph: ReferenceGraph(
      nodes: [
        ("O", "Observable"), ("L", "state: list of Subscription"), ("U", "Subscription"),
        ("H", "handler"), ("S", "screen"),
      ],
      edges: [
        .init(from: "O", to: "L", path: "state", isStrong: true),
        .init(from: "L", to: "U", path: "slots[]", isStrong: true),
        .init(from: "U", to: "S", path: "slots[].owner", isStrong: false),
        .init(from: "U", to: "H", path: "slots[].deliver", isStrong: true),
      ],
      caption:
        "No strong edge reaches the screen: the handler is handed the screen as a parameter, "
        + "so it need not capture it, and the subscription ends when the screen goes."),
    sampleWithOneOwner: { owner in
      let observable = Stage5Concurrency.Observable(0)
      observable.observe(owner) { _, _ in }
      return observable
    })
}

extension ObservableDesign {
  /// Stage 5, as the scenarios see it.
  static let concurrency = ObservableDesign(
    id: "5", name: "stage 5", shortName: "conc",
    title: "concurrency age: thread-safe, ordered, immediate removal",
    module: "Stage5Concurrency", typeName: "Stage5Concurrency.Observable<Int>",
    chapter: TutorialChapter.concurrency.path, role: .stage(5), identity: .object,
    capabilities: [
      .unsubscribe, .storedEntryCount, .initialValue, .oldValue, .handsOwnerToHandler,
    ],
    isSendable: isSendable(Stage5Concurrency.Observable<Int>.self),
    documentedFlaws: [],
    makeObservable: { ConcurrencyAdapter($0) })
}

/// Stage 5 behind the scenarios' interface. The handler is handed its owner, so it captures
/// nothing; the owner it subscribes is the scenario's `Sendable` stand-in.
final class ConcurrencyAdapter: ScenarioObservable {
  let observable: Stage5Concurrency.Observable<Int>

  init(_ value: Int) { observable = .init(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable._storedSubscriptionCount }

  func subscribe(_ subscription: ScenarioSubscription) {
    // Unchecked, and sound: a scenario sets on one thread, and stage 5 calls this handler
    // on the thread that sets.
    let carried = SingleThreaded(subscription.handler)
    let wantsOld = subscription.wantsOld
    observable.observe(
      subscription.sendableOwner, options: subscription.wantsInitial ? .initial : []
    ) { _, change in
      switch change.kind {
      case .initial:
        carried.value(.initial(change.newValue))
      case .update:
        if wantsOld, let oldValue = change.oldValue { carried.value(.old(oldValue)) }
        carried.value(.new(change.newValue))
      }
    }
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.sendableOwner)
  }
}

/// Stage 5 through its token API, the one that compares with the floor's plain closures. A
/// subscription with an owner costs more per call: a weak load, to hand the owner over.
private final class ConcurrencyBench: BenchSubject {
  let observable = Stage5Concurrency.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    owner.token = observable.observe { change in sum.value &+= change.newValue }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) {
    (owner.token as? ObservationToken)?.cancel()
    owner.token = nil
  }
  func set(_ value: Int) { observable.value = value }
}

/// Stage 5 with handlers isolated to the main actor, subscribed and set on the main actor: the
/// path a `@MainActor` screen's label takes. Its handler is called at once, through the
/// observable's main-actor mailbox.
private final class MainActorConcurrencyBench: BenchSubject {
  let observable = Stage5Concurrency.Observable(0)

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    let observable = observable
    owner.token = MainActor.assumeIsolated {
      observable.observe { change in sum.value &+= change.newValue }
    }
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    (owner.token as? ObservationToken)?.cancel()
    owner.token = nil
  }

  func set(_ value: Int) { observable.value = value }
}
