import ObserverScenarios
import Stage5Concurrency
import Stage5Tuned
import StageBench
import Support

extension CatalogEntry {
  /// Stage 5: thread-safe, ordered delivery, immediate removal.
  package static let concurrency = CatalogEntry(
    design: .concurrency,
    contenders: [
      // Neither allocates a set: the lesson's queue keeps its storage, and its delivery shares
      // the list's.
      Contender(.concurrency, allocationsPerSet: { _ in 0 }) {
        ConcurrencyBench<Stage5Concurrency.Observable<Int>>()
      },
      // A handler isolated to the main actor, set from the main actor: a label's path.
      // Measured only on the main actor, as compare-stages runs.
      Contender(.concurrency, name: "stage 5, main actor", allocationsPerSet: { _ in 0 }) {
        ConcurrencyBench<Stage5Concurrency.Observable<Int>>(onMainActor: true)
      },
      // The same, tuned for speed: appendix 05a.
      Contender(.tuned, allocationsPerSet: { _ in 0 }) {
        ConcurrencyBench<Stage5Tuned.Observable<Int>>()
      },
      Contender(.tuned, name: "stage 5 tuned, main actor", allocationsPerSet: { _ in 0 }) {
        ConcurrencyBench<Stage5Tuned.Observable<Int>>(onMainActor: true)
      },
    ],
    graph: ReferenceGraph(
      nodes: [
        ("O", "Observable"), ("L", "state: list of Subscription"), ("U", "Subscription"),
        ("H", "handler"), ("S", "screen"),
      ],
      edges: [
        .init(from: "O", to: "L", path: "state", isStrong: true),
        .init(from: "L", to: "U", path: "subscriptions[]", isStrong: true),
        .init(from: "U", to: "S", path: "subscriptions[].owner", isStrong: false),
        .init(from: "U", to: "H", path: "subscriptions[].handler", isStrong: true),
      ],
      caption:
        "No strong edge reaches the screen: the handler is handed the screen as a parameter, "
        + "so it need not capture it, and the subscription ends when the screen goes."))
}

extension ObservableDesign {
  /// Stage 5, as the scenarios see it.
  static let concurrency = ObservableDesign(
    id: "5", name: "stage 5", shortName: "concurrency",
    title: "concurrency age: thread-safe, ordered, immediate removal",
    module: "Stage5Concurrency", typeName: "Stage5Concurrency.Observable<Int>",
    chapter: TutorialChapter.concurrency.path, role: .stage(5), identity: .object,
    capabilities: [
      .unsubscribe, .storedEntryCount, .initialValue, .oldValue, .handsOwnerToHandler,
    ],
    isSendable: isSendable(Stage5Concurrency.Observable<Int>.self),
    documentedFlaws: [],
    makeObservable: { ConcurrencyAdapter<Stage5Concurrency.Observable<Int>>($0) })

  /// Stage 5 tuned for speed (appendix 05a), as the scenarios see it: the same promises, so
  /// the same verdicts. Not a column of the comparison; its tests run every scenario on it.
  package static let tuned = ObservableDesign(
    id: "5-tuned", name: "stage 5 tuned", shortName: "tuned",
    title: "stage 5 tuned for speed",
    module: "Stage5Tuned", typeName: "Stage5Tuned.Observable<Int>",
    chapter: TutorialChapter.concurrency.path, role: .stage(5), identity: .object,
    capabilities: ObservableDesign.concurrency.capabilities,
    isSendable: isSendable(Stage5Tuned.Observable<Int>.self),
    documentedFlaws: [],
    makeObservable: { ConcurrencyAdapter<Stage5Tuned.Observable<Int>>($0) })
}

/// What the scenarios and the bench use of a stage 5 observable: the lesson's or the tuned
/// one, which have the same API in two modules.
protocol Stage5Observable: AnyObject, Sendable {
  init(_ value: Int)
  var value: Int { get set }
  var storedSubscriptionCount: Int { get }
  /// Observes for `owner`'s lifetime on any thread: `update` is handed the change's kind
  /// (`true` for an initial value), old value and new value.
  func observe(
    _ owner: SendableStandIn, initial: Bool,
    _ update: @escaping @Sendable (_ isInitial: Bool, _ old: Int?, _ new: Int) -> Void)
  /// Observes until the token is cancelled, on any thread, adding each value to `sum`: the
  /// bench's callback, written straight in the handler, as the floor's is.
  func observeWithToken(adding sum: Sum) -> AnyObject & Sendable
  /// Observes until the token is cancelled, on the main actor, adding each value to `sum`.
  @MainActor func observeOnMainActor(adding sum: Sum) -> AnyObject & Sendable
  func removeObserver(_ owner: AnyObject)
  func cancel(_ token: AnyObject)
}

extension Stage5Concurrency.Observable<Int>: Stage5Observable {
  func observe(
    _ owner: SendableStandIn, initial: Bool,
    _ update: @escaping @Sendable (Bool, Int?, Int) -> Void
  ) {
    observeOnAnyThread(owner, options: initial ? .initial : []) { _, change in
      update(change.kind == .initial, change.oldValue, change.newValue)
    }
  }

  func observeWithToken(adding sum: Sum) -> AnyObject & Sendable {
    observeOnAnyThread { sum.add($0.newValue) }
  }

  @MainActor func observeOnMainActor(adding sum: Sum) -> AnyObject & Sendable {
    observe { sum.add($0.newValue) }
  }

  func cancel(_ token: AnyObject) { (token as? Stage5Concurrency.ObservationToken)?.cancel() }
}

extension Stage5Tuned.Observable<Int>: Stage5Observable {
  func observe(
    _ owner: SendableStandIn, initial: Bool,
    _ update: @escaping @Sendable (Bool, Int?, Int) -> Void
  ) {
    observeOnAnyThread(owner, options: initial ? .initial : []) { _, change in
      update(change.kind == .initial, change.oldValue, change.newValue)
    }
  }

  func observeWithToken(adding sum: Sum) -> AnyObject & Sendable {
    observeOnAnyThread { sum.add($0.newValue) }
  }

  @MainActor func observeOnMainActor(adding sum: Sum) -> AnyObject & Sendable {
    observe { sum.add($0.newValue) }
  }

  func cancel(_ token: AnyObject) { (token as? Stage5Tuned.ObservationToken)?.cancel() }
}

/// Stage 5 behind the scenarios' interface. The handler is handed its owner, so it captures
/// nothing; the owner it subscribes is the scenario's `Sendable` stand-in.
final class ConcurrencyAdapter<Observable: Stage5Observable>: ScenarioObservable {
  let observable: Observable

  init(_ value: Int) { observable = .init(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.storedSubscriptionCount }

  func subscribe(_ subscription: ScenarioSubscription) {
    // Unchecked, and sound: a scenario sets on one thread, and stage 5 calls this handler
    // on the thread that sets.
    let carried = SingleThreaded(subscription.handler)
    let wantsOld = subscription.wantsOld
    observable.observe(subscription.sendableOwner, initial: subscription.wantsInitial) {
      isInitial, oldValue, newValue in
      if isInitial {
        carried.value(.initial(newValue))
      } else {
        if wantsOld, let oldValue { carried.value(.old(oldValue)) }
        carried.value(.new(newValue))
      }
    }
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.sendableOwner)
  }
}

/// Stage 5 through its token API, the one that compares with the floor's plain closures. A
/// subscription with an owner costs more per call: a weak load, to hand the owner over.
///
/// `onMainActor`: handlers isolated to the main actor, subscribed and set on the main actor, the
/// path a `@MainActor` screen's label takes. Its handler is called at once.
final class ConcurrencyBench<Observable: Stage5Observable>: BenchObservable {
  let observable = Observable(0)
  let onMainActor: Bool

  init(onMainActor: Bool = false) { self.onMainActor = onMainActor }

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    guard onMainActor else {
      owner.token = observable.observeWithToken(adding: sum)
      return
    }
    let observable = observable
    owner.token = MainActor.assumeIsolated {
      observable.observeOnMainActor(adding: sum)
    }
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    if let token = owner.token { observable.cancel(token) }
    owner.token = nil
  }

  func set(_ value: Int) { observable.value = value }
}
