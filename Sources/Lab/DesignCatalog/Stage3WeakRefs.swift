import ObserverScenarios
import Stage3WeakRefs
import StageBench
import Support

extension Design {
  /// Stage 3: observers held weakly.
  package static let weakRefs = Design(
    observable: .weakRefs,
    contenders: [
      Contender(.weakRefs, allocationsPerSet: { _ in 0 }) { WeakRefsBench() }
    ],
    graph: ReferenceGraph(
      nodes: [
        ("O", "Observable"), ("E", "entries: [Entry]"), ("C", "closure"), ("S", "screen"),
      ],
      edges: [
        .init(from: "O", to: "E", path: "entries", isStrong: true),
        .init(from: "E", to: "S", path: "entries[].observer", isStrong: false),
        .init(from: "E", to: "C", path: "entries[].closure", isStrong: true),
        .capturedSelf(from: "C", to: "S"),
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
  static let weakRefs = ObservableDesign(
    id: "3", name: "stage 3", shortName: "weak", title: "information age: observers held weakly",
    module: "Stage3WeakRefs", typeName: "Stage3WeakRefs.Observable<Int>",
    chapter: TutorialChapter.weakRefs.path, role: .stage(3),
    // Binding cleans every dead entry first: O(n) per subscription.
    addingCapabilities: [.linearSubscribe],
    isSendable: isSendable(Stage3WeakRefs.Observable<Int>.self),
    documentedFlaws: [
      .deadEntriesRemovedOnSet, .explicitUnsubscribe, .strongCaptureFreedAfterUnsubscribe,
      .strongCaptureFreedWithoutUnsubscribe, .sameObserverTwice, .initialValue, .oldValue,
      .unsubscribeDuringNotification, .reentrantSetSeenOnceInOrder, .sendable,
    ],
    adapter: WeakAdapter<Stage3WeakRefs.Observable<Int>>.self)
}

extension Stage3WeakRefs.Observable: AdaptableObservable, WeakObservable where Value == Int {}

private final class WeakRefsBench: BenchSubject {
  let observable = Stage3WeakRefs.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observable.bindObserver(owner) { sum.add($0) }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) {}
  func set(_ value: Int) { observable.value = value }
}
