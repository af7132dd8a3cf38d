import ObserverScenarios
import Stage3WeakRefs
import StageBench
import Support

extension Design {
  /// Stage 3: observers held weakly.
  package static let informationAge = Design(
    observable: .informationAge,
    contenders: [Contender(.informationAge) { InformationAgeBench() }],
    graph: ReferenceGraph(
      nodes: [
        ("O", "Observable"), ("E", "entries: [Entry]"), ("C", "closure"), ("S", "screen"),
      ],
      edges: [
        .init(from: "O", to: "E", path: "entries", isStrong: true),
        .init(from: "E", to: "S", path: "entries[].observer", isStrong: false),
        .init(from: "E", to: "C", path: "entries[].closure", isStrong: true),
        .init(from: "C", to: "S", path: "captured self", isStrong: true, leaks: true),
      ],
      caption:
        "The entry holds the screen weakly, but its closure holds it strongly: the weak edge "
        + "never gets the chance to become nil."),
    sampleWithOneOwner: { owner in
      let observable = Stage3WeakRefs.Observable(0)
      observable.bindObserver(owner) { _ in }
      return observable
    })
}

extension ObservableDesign {
  /// Stage 3, as the scenarios see it.
  static let informationAge = ObservableDesign(
    id: "3", name: "stage 3", shortName: "info", title: "information age: observers held weakly",
    module: "Stage3WeakRefs", typeName: "Stage3WeakRefs.Observable<Int>",
    chapter: TutorialChapter.informationAge.path, role: .stage(3), identity: .object,
    // Binding cleans every dead entry first: O(n) per subscription.
    capabilities: [.storedEntryCount, .linearSubscribe],
    isSendable: isSendable(Stage3WeakRefs.Observable<Int>.self),
    documentedFlaws: [
      .deadEntriesRemovedOnSet, .explicitUnsubscribe, .strongCaptureFreedAfterUnsubscribe,
      .strongCaptureFreedWithoutUnsubscribe, .sameObserverTwice, .initialValue, .oldValue,
      .unsubscribeDuringNotification, .reentrantSetEndsOnLatest, .sendable,
    ],
    makeObservable: { InformationAgeAdapter($0) })
}

final class InformationAgeAdapter: ScenarioObservable {
  let observable: Stage3WeakRefs.Observable<Int>

  init(_ value: Int) { observable = .init(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.observerCount }

  func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(subscription.owner, closure: subscription.closure { .new($0) })
  }
}

private final class InformationAgeBench: BenchSubject {
  let observable = Stage3WeakRefs.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observable.bindObserver(owner) { sum.add($0) }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) {}
  func set(_ value: Int) { observable.value = value }
}
