import ObserverScenarios
import Stage1Closures
import StageBench
import Support

extension Design {
  /// Stage 1: an array of closures.
  package static let closures = Design(
    observable: .closures,
    contenders: [Contender(.closures, allocationsPerSet: { _ in 0 }) { ClosuresBench() }],
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
        + "a weak capture breaks the red edge."),
    sampleWithOneOwner: { _ in
      let observable = Stage1Closures.Observable(0)
      observable.bindObserver { _ in }
      return observable
    })
}

extension ObservableDesign {
  /// Stage 1, as the scenarios see it.
  static let closures = ObservableDesign(
    id: "1", name: "stage 1", shortName: "closures", title: "stone age: an array of closures",
    module: "Stage1Closures", typeName: "Stage1Closures.Observable<Int>",
    chapter: TutorialChapter.closures.path, role: .stage(1),
    isSendable: isSendable(Stage1Closures.Observable<Int>.self),
    documentedFlaws: [
      .releasedObserverNotCalled, .deadEntriesRemoved, .deadEntriesRemovedOnSet,
      .explicitUnsubscribe, .strongCaptureFreedAfterUnsubscribe,
      .strongCaptureFreedWithoutUnsubscribe, .sameObserverTwice, .initialValue, .oldValue,
      .unsubscribeDuringNotification, .reentrantSetSeenOnceInOrder, .sendable,
    ],
    adapter: AppendOnlyAdapter<Stage1Closures.Observable<Int>>.self)
}

extension Stage1Closures.Observable: AdaptableObservable, AppendOnlyObservable where Value == Int {}

private final class ClosuresBench: BenchSubject {
  let observable = Stage1Closures.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observable.bindObserver { sum.add($0) }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) {}
  func set(_ value: Int) { observable.value = value }
}
