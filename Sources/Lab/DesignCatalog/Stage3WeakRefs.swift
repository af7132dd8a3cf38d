import ObserverScenarios
import Stage3WeakRefs
import StageBench
import Support

extension CatalogEntry {
  /// Stage 3: observers held weakly.
  package static let weakRefs = stage(
    3, shortName: "weak", title: "information age: observers held weakly", chapter: .weakRefs,
    adapter: WeakAdapter<Stage3WeakRefs.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Stage3WeakRefs.Observable<Int>.self),
    // Binding cleans every dead entry first: O(n) per subscription.
    addingCapabilities: [.linearSubscribe],
    documentedFlaws: [
      .deadEntriesRemovedOnSet, .explicitUnsubscribe, .strongCaptureFreedAfterUnsubscribe,
      .strongCaptureFreedWithoutUnsubscribe, .sameObserverTwice, .initialValue, .oldValue,
      .unsubscribeDuringNotification, .reentrantSetSeenOnceInOrder, .sendable,
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
        + "never gets the chance to become nil."))
}

extension Stage3WeakRefs.Observable: AdaptableObservable, WeakObservable, BenchObservable
where Value == Int {
  package func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    bindObserver(owner) { sum.add($0) }
  }
}
