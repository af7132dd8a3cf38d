import ObserverScenarios

// An adapter unit-tested from outside, with a subscription of our own.
do {
  let owner = ScenarioOwner(name: "screen")
  let adapter = TokenInOwnerAdapter(0)
  var received: [Int] = []
  let subscription = ScenarioSubscription(owner: owner) { received.append($0.newValue ?? -1) }
  adapter.subscribe(subscription)
  adapter.value = 1
  precondition(subscription.tokensInOwner.count == 1, "the token is kept by its owner")
  adapter.unsubscribe(subscription)
  adapter.value = 2
  precondition(received == [1], "received \(received), not [1]")
}

// The doc comments' examples, run.
precondition(testingAnAdapter() == [1], "the documented adapter test receives 1")
precondition(runningAScenarioOfYourOwn(.tokenInOwner).rows.count == Scenario.all.count + 1)

// A scenario of our own: the old `delivery-order`, 16 observers and no one leaving, which a
// storage that changes shape past 31 observers passes.
let sixteenInOrder = Scenario(
  Scenario.Name(custom: "sixteen-in-order"),
  title: "16 observers are called in subscription order",
  story: "16 observers subscribe, the value is set once, and they must be called in order.",
  sizing: "16 observers: below RxSwift's 31, the size the old delivery-order used.",
  chapter: "Examples/GradeYourOwn"
) { design in
  let observable = design.makeObservable(0)
  let owners = (0..<16).map { ScenarioOwner(name: "observer \($0)") }
  var calls: [String] = []
  for owner in owners {
    observable.subscribe(ScenarioSubscription(owner: owner) { _ in calls.append(owner.name) })
  }
  observable.value = 1
  return calls == owners.map(\.name)
    ? .holds("16 observers called in subscription order")
    : .flaw("16 observers called out of subscription order")
}

// Top-level code runs on the main thread, and so does the report it builds: the main-actor
// store's adapter may assert the main actor.
let report = ScenarioReport(
  running: Scenario.all + [sixteenInOrder],
  designs: [
    .thresholdBag, .slotReusing, .tokenInOwner, .namedClosures, .mainActorStore,
    .sendableClosures,
  ])
print(report.json, terminator: "")
