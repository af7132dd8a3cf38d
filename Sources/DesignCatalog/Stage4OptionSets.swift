import ObserverScenarios
import Stage4Options
import StageBench
import Support

extension Design {
  /// Stage 4: option sets and automatic removal.
  package static let optionSets = Design(
    observable: .optionSets,
    contenders: [Contender(.optionSets) { OptionSetsBench() }],
    graph: ReferenceGraph(
      nodes: [
        ("O", "Observable"), ("B", "callbacks: [Callback]"), ("C", "closure"), ("S", "screen"),
      ],
      edges: [
        .init(from: "O", to: "B", path: "callbacks", isStrong: true),
        .init(from: "B", to: "S", path: "callbacks[].observer", isStrong: false),
        .init(from: "B", to: "C", path: "callbacks[].closure", isStrong: true),
        .init(from: "C", to: "S", path: "captured self", isStrong: true, leaks: true),
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
  static let optionSets = ObservableDesign(
    id: "4", name: "stage 4", shortName: "options", title: "option sets and automatic removal",
    module: "Stage4Options", typeName: "Stage4Options.Observable<Int>",
    chapter: TutorialChapter.optionSets.path, role: .stage(4), identity: .object,
    // Adding removes the observer's earlier callbacks first: O(n) per subscription.
    capabilities: [.unsubscribe, .storedEntryCount, .initialValue, .oldValue, .linearSubscribe],
    isSendable: isSendable(Stage4Options.Observable<Int>.self),
    documentedFlaws: [
      .strongCaptureFreedWithoutUnsubscribe, .unsubscribeDuringNotification,
      .reentrantSetEndsOnLatest, .sendable,
    ],
    makeObservable: { OptionSetsAdapter($0) })
}

final class OptionSetsAdapter: ScenarioObservable {
  let observable: Stage4Options.Observable<Int>

  init(_ value: Int) { observable = .init(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.observerCount }

  func subscribe(_ subscription: ScenarioSubscription) {
    var options: ObservableOptions = [.new]
    if subscription.wantsInitial { options.insert(.initial) }
    if subscription.wantsOld { options.insert(.old) }
    let closure = subscription.closure { (value: Int, option: ObservableOptions) -> Delivery in
      switch option {
      case .initial: .initial(value)
      case .old: .old(value)
      default: .new(value)
      }
    }
    observable.addObserver(subscription.owner, options: options) { closure(($0, $1)) }
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    observable.removeObserver(subscription.owner)
  }
}

private final class OptionSetsBench: BenchSubject {
  let observable = Stage4Options.Observable(0)
  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observable.addObserver(owner) { value, _ in sum.add(value) }
  }
  func unsubscribe(_ owner: BenchOwner, index: Int) { observable.removeObserver(owner) }
  func set(_ value: Int) { observable.value = value }
}
