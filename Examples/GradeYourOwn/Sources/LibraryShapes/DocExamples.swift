import ObserverScenarios

// The examples in ObserverScenarios' doc comments, compiled here, outside the package, against
// its public API alone. DocumentationTests checks that each doc comment's ```swift block appears
// here line for line (indentation aside).

/// What the examples call `MyObservable`.
typealias MyObservable = TokenInOwnerObservable

/// What the examples call `MyAdapter`: a token-based observable whose tokens live in the owner.
final class MyAdapter: ScenarioObservable {
  let observable: MyObservable<Int>

  init(_ value: Int) { observable = MyObservable(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  // ScenarioSubscription.storeInOwner(_:)
  func subscribe(_ subscription: ScenarioSubscription) {
    subscription.storeInOwner(observable.observe(subscription.closure { .new($0) }))
  }
}

/// What the examples call `MyKeyedObservable`: one of stage 2's shape.
typealias MyKeyedObservable = NamedClosures

// ObservableDesign.init(id:name:shortName:title:module:typeName:chapter:role:...:adapter:),
// which declares NamedClosures' shape for the whole module.
extension MyKeyedObservable: AdaptableObservable, KeyedObservable where Value == Int {}

let mine = ObservableDesign(
  id: "mine", title: "my observable: closures by key", module: "MyApp",
  typeName: "MyKeyedObservable<Int>",
  isSendable: ObservableDesign.isSendable(MyKeyedObservable<Int>.self),
  adapter: KeyedAdapter<MyKeyedObservable<Int>>.self)

/// ObservableDesign.
func describingADesign() -> ObservableDesign {
  let mine = ObservableDesign(
    id: "mine", name: "my observable", title: "my observable: closures in an array",
    module: "MyApp", typeName: "MyObservable<Int>", identity: .none,
    capabilities: [.unsubscribe, .storedEntryCount],
    inapplicableScenarios: [
      .sameObserverTwice: "closures are anonymous: there is no idea of the same observer"
    ],
    isSendable: ObservableDesign.isSendable(MyObservable<Int>.self),
    makeObservable: { MyAdapter($0) })
  print(ScenarioReport(designs: [mine]).text())
  return mine
}

/// ScenarioReport.
func printingAReport(_ mine: ObservableDesign) {
  let report = ScenarioReport(designs: [mine])
  print(report.text(), terminator: "")
}

/// Scenario.init(_:title:story:sizing:chapter:experiment:).
func runningAScenarioOfYourOwn(_ mine: ObservableDesign) -> ScenarioReport {
  let settlesOnLastValue = Scenario(
    Scenario.Name(custom: "last-value-read-back"),
    title: "the value reads back what was set last",
    story: "Sets 1, 2 and 3, then reads the value; it must be 3.",
    sizing: "Three sets: enough to see a value that stopped changing.",
    chapter: "README.md"
  ) { design in
    let observable = design.makeObservable(0)
    for value in 1...3 { observable.value = value }
    return observable.value == 3
      ? Outcome(verdict: .holds, detail: "read back 3")
      : Outcome(verdict: .flaw, detail: "read back \(observable.value), not 3")
  }
  let report = ScenarioReport(running: Scenario.all + [settlesOnLastValue], designs: [mine])
  return report
}

/// ScenarioSubscription.init(owner:key:handler:).
func testingAnAdapter() -> [Int] {
  let owner = ScenarioOwner(name: "screen")
  var received: [Int] = []
  let adapter = MyAdapter(0)
  adapter.subscribe(ScenarioSubscription(owner: owner) { received.append($0.newValue ?? -1) })
  adapter.value = 1  // received == [1]
  return received
}
