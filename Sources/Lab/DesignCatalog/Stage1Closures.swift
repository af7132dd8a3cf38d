import ObserverScenarios
import Stage1Closures
import StageBench
import Support

extension CatalogEntry {
  /// Stage 1: an array of closures.
  package static let closures = stage(
    1, shortName: "closures", title: "stone age: an array of closures", chapter: .closures,
    adapter: AppendOnlyAdapter<Stage1Closures.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Stage1Closures.Observable<Int>.self),
    documentedFlaws: [
      .releasedObserverNotCalled, .deadEntriesRemoved, .deadEntriesRemovedOnSet,
      .explicitUnsubscribe, .strongCaptureFreedAfterUnsubscribe,
      .strongCaptureFreedWithoutUnsubscribe, .sameObserverTwice, .initialValue, .oldValue,
      .unsubscribeDuringNotification, .reentrantSetSeenOnceInOrder, .sendable,
    ],
    graph: ReferenceGraph(
      nodes: [
        ("O", "Observable"), ("A", "observers: [closure]"), ("C", "closure"), ("S", "screen"),
      ],
      edges: [
        .init(from: "O", to: "A", path: "observers", isStrong: true),
        .init(from: "A", to: "C", path: "observers[]", isStrong: true),
        .capturedSelf(from: "C", to: "S"),
      ],
      caption:
        "No cycle: a leak rooted in the observable. Nothing can remove the closure, so only "
        + "a weak capture breaks the red edge."))
}

extension Stage1Closures.Observable: AdaptableObservable, AppendOnlyObservable, BenchObservable
where Value == Int {
  package func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) { bindObserver { sum.add($0) } }
}
