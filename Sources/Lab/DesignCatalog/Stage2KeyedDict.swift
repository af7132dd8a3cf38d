import ObserverScenarios
import Stage2KeyedDict
import StageBench
import Support

extension CatalogEntry {
  /// Stage 2: closures keyed by string.
  package static let keyedDict = stage(
    2, shortName: "keyed", title: "iron age: closures keyed by string", chapter: .keyedDict,
    adapter: KeyedAdapter<Stage2KeyedDict.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Stage2KeyedDict.Observable<Int>.self),
    documentedFlaws: [
      .deliveryOrder, .releasedObserverNotCalled, .deadEntriesRemoved, .deadEntriesRemovedOnSet,
      .strongCaptureFreedWithoutUnsubscribe, .sameKeyTwoObservers, .initialValue, .oldValue,
      .unsubscribeDuringNotification, .reentrantSetSeenOnceInOrder, .sendable,
    ],
    graph: ReferenceGraph(
      nodes: [
        ("O", "Observable"), ("D", "observers: [key: closure]"), ("C", "closure"),
        ("S", "screen"),
      ],
      edges: [
        .init(from: "O", to: "D", path: "observers", isStrong: true),
        .init(from: "D", to: "C", path: "observers[key]", isStrong: true),
        .capturedSelf(from: "C", to: "S"),
      ],
      caption:
        "The same chain, now breakable: removeObserver(forKey:) cuts observers[key]; a screen "
        + "that forgets leaks as in stage 1."))
}

extension Stage2KeyedDict.Observable: AdaptableObservable, KeyedObservable, BenchObservable
where Value == Int {
  package func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    bindObserver(forKey: "observer \(index)") { sum.add($0) }
  }

  package func unsubscribe(_ owner: BenchOwner, index: Int) {
    removeObserver(forKey: "observer \(index)")
  }
}
