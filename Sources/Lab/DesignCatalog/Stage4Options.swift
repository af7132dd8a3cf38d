import Foundation
import ObserverScenarios
import Stage4Options
import StageBench
import Support

extension Design {
  /// Stage 4: option sets and automatic removal.
  package static let options = Design(
    observable: .options,
    contenders: [
      // The snapshot of the callbacks, then the filtered copy of it, each an array that grows
      // by doubling as it is filled: ⌈log₂N⌉ + 1 allocations each.
      Contender(.options, allocationsPerSet: { 2 * ((log2(Double($0))).rounded(.up) + 1) }) {
        OptionsBench()
      }
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
    sampleWithOneOwner: { owner in
      let observable = Stage4Options.Observable(0)
      observable.addObserver(owner) { _, _ in }
      return observable
    })
}

extension ObservableDesign {
  /// Stage 4, as the scenarios see it.
  static let options = ObservableDesign(
    id: "4", name: "stage 4", shortName: "options", title: "option sets and automatic removal",
    module: "Stage4Options", typeName: "Stage4Options.Observable<Int>",
    chapter: TutorialChapter.options.path, role: .stage(4),
    // Adding removes the observer's earlier callbacks first: O(n) per subscription.
    addingCapabilities: [.linearSubscribe],
    isSendable: isSendable(Stage4Options.Observable<Int>.self),
    documentedFlaws: [
      .strongCaptureFreedWithoutUnsubscribe, .unsubscribeDuringNotification,
      .reentrantSetEndsOnLatest, .reentrantSetSeenOnceInOrder, .sendable,
    ],
    adapter: OptionsAdapter<Stage4Options.Observable<Int>>.self)
}

extension Stage4Options.Observable: AdaptableObservable, OptionsObservable where Value == Int {}
extension Stage4Options.ObservableOptions: DeliveryOptions {}

private final class OptionsBench: BenchSubject {
  let observable = Stage4Options.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observable.addObserver(owner) { value, _ in sum.add(value) }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) { observable.removeObserver(owner) }
  func set(_ value: Int) { observable.value = value }
}
