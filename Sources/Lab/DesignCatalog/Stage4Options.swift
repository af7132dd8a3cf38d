import Foundation
import ObserverScenarios
import Stage4Options
import StageBench
import Support

extension CatalogEntry {
  /// Stage 4: option sets and automatic removal.
  package static let options = stage(
    4, shortName: "options", title: "option sets and automatic removal", chapter: .options,
    adapter: OptionsAdapter<Stage4Options.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Stage4Options.Observable<Int>.self),
    // Adding removes the observer's earlier callbacks first: O(n) per subscription.
    addingCapabilities: [.linearSubscribe],
    documentedFlaws: [
      .strongCaptureFreedWithoutUnsubscribe, .unsubscribeDuringNotification,
      .reentrantSetEndsOnLatest, .reentrantSetSeenOnceInOrder, .sendable,
    ],
    graph: ReferenceGraph(
      nodes: [
        ("O", "Observable"), ("B", "callbacks: [Callback]"), ("C", "closure"), ("S", "screen"),
      ],
      edges: [
        .init(from: "O", to: "B", path: "callbacks", isStrong: true),
        .init(from: "B", to: "S", path: "callbacks[].observer", isStrong: false),
        .init(from: "B", to: "C", path: "callbacks[].closure", isStrong: true),
        .capturedSelf(from: "C", to: "S"),
      ],
      caption:
        "Stage 3's picture with removal and options: a closure that captures its screen still "
        + "keeps it."),
    // The snapshot of the callbacks, then the filtered copy of it, each an array that grows by
    // doubling as it is filled: ⌈log₂N⌉ + 1 allocations each.
    allocationsPerSet: { 2 * ((log2(Double($0))).rounded(.up) + 1) })
}

extension Stage4Options.Observable: AdaptableObservable, OptionsObservable, BenchObservable
where Value == Int {
  package func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    addObserver(owner) { value, _ in sum.add(value) }
  }

  package func unsubscribe(_ owner: BenchOwner, index: Int) { removeObserver(owner) }
}

extension Stage4Options.ObservableOptions: DeliveryOptions {}
