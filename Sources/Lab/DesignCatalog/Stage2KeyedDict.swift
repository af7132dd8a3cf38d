import ObserverScenarios
import Stage2KeyedDict
import StageBench
import Support

extension Design {
  /// Stage 2: closures keyed by string.
  package static let keyedDict = Design(
    observable: .keyedDict,
    contenders: [Contender(.keyedDict, allocationsPerSet: { _ in 0 }) { KeyedDictBench() }],
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
        + "that forgets leaks as in stage 1."),
    sampleWithOneOwner: { _ in
      let observable = Stage2KeyedDict.Observable(0)
      observable.bindObserver(forKey: "screen") { _ in }
      return observable
    })
}

extension ObservableDesign {
  /// Stage 2, as the scenarios see it.
  static let keyedDict = ObservableDesign(
    id: "2", name: "stage 2", shortName: "keyed", title: "iron age: closures keyed by string",
    module: "Stage2KeyedDict", typeName: "Stage2KeyedDict.Observable<Int>",
    chapter: TutorialChapter.keyedDict.path, role: .stage(2),
    isSendable: isSendable(Stage2KeyedDict.Observable<Int>.self),
    documentedFlaws: [
      .deliveryOrder, .releasedObserverNotCalled, .deadEntriesRemoved, .deadEntriesRemovedOnSet,
      .strongCaptureFreedWithoutUnsubscribe, .sameKeyTwoObservers, .initialValue, .oldValue,
      .unsubscribeDuringNotification, .reentrantSetSeenOnceInOrder, .sendable,
    ],
    adapter: KeyedAdapter<Stage2KeyedDict.Observable<Int>>.self)
}

extension Stage2KeyedDict.Observable: AdaptableObservable, KeyedObservable where Value == Int {}

private final class KeyedDictBench: BenchSubject {
  let observable = Stage2KeyedDict.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observable.bindObserver(forKey: "observer \(index)") { sum.add($0) }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) {
    observable.removeObserver(forKey: "observer \(index)")
  }
  func set(_ value: Int) { observable.value = value }
}
