import ObserverScenarios
import Testing

/// Anonymous closures in an array, each until its token is freed; the adapter keeps nothing
/// and, by choice, reports no count of entries.
private final class TokenArray {
  final class Token {
    let onFree: () -> Void
    init(_ onFree: @escaping () -> Void) { self.onFree = onFree }
    deinit { onFree() }
  }
  private var observers: [(id: Int, observer: (Int) -> Void)] = []
  private var nextID = 0
  var value = 0 {
    didSet {
      for entry in observers {
        entry.observer(value)
      }
    }
  }

  func observe(_ observer: @escaping (Int) -> Void) -> Token {
    nextID += 1
    let id = nextID
    observers.append((id, observer))
    return Token { [weak self] in self?.observers.removeAll { $0.id == id } }
  }
}

private final class TokenArrayAdapter: ScenarioObservable {
  let observable = TokenArray()
  /// Where the tokens go: the owner, or this adapter, for the wrong answer.
  let keepsTokensItself: Bool
  private var kept: [TokenArray.Token] = []

  init(_ value: Int, keepsTokensItself: Bool) {
    self.keepsTokensItself = keepsTokensItself
    observable.value = value
  }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  func subscribe(_ subscription: ScenarioSubscription) {
    let token = observable.observe(subscription.closure { .new($0) })
    if keepsTokensItself {
      kept.append(token)
    } else {
      subscription.storeInOwner(token)
    }
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    subscription.removeTokensFromOwner()
  }
}

private func tokenArray(keepsTokensItself: Bool) -> ObservableDesign {
  ObservableDesign(
    id: keepsTokensItself ? "kept" : "owned", title: "tokens", module: "GraderContractTests",
    typeName: "TokenArray", identity: .none, capabilities: [.unsubscribe],
    inapplicableScenarios: [.sameObserverTwice: "closures are anonymous"],
    isSendable: false,
    makeObservable: { TokenArrayAdapter($0, keepsTokensItself: keepsTokensItself) })
}

@Suite("The grader's contract with an adapter")
struct GraderContractTests {
  @Test("a token kept on the owner dies with it: released-observer-not-called holds")
  func tokenInOwner() {
    let outcome = Scenario.Name.releasedObserverNotCalled.scenario.run(
      on: tokenArray(keepsTokensItself: false))
    #expect(outcome.verdict == .holds, "\(outcome.detail)")
  }

  @Test("the wrong answer, tokens kept by the adapter: released-observer-not-called fails")
  func tokenInAdapter() {
    let outcome = Scenario.Name.releasedObserverNotCalled.scenario.run(
      on: tokenArray(keepsTokensItself: true))
    #expect(outcome.verdict == .flaw, "\(outcome.detail)")
  }

  @Test("unsubscribing hands the owner's tokens back: explicit-unsubscribe holds")
  func unsubscribeTakesTokensBack() {
    let outcome = Scenario.Name.explicitUnsubscribe.scenario.run(
      on: tokenArray(keepsTokensItself: false))
    #expect(outcome.verdict == .holds, "\(outcome.detail)")
  }

  @Test("a scenario the design marks not applicable reads – with its reason")
  func markedNotApplicable() {
    let report = ScenarioReport(
      scenarios: [.sameObserverTwice], designs: [tokenArray(keepsTokensItself: false)])
    let outcome = report.rows[0].outcomes[0].outcome
    #expect(outcome == Outcome(verdict: .notApplicable, detail: "closures are anonymous"))
    let line = report.text().split(separator: "\n").first { $0.hasPrefix("same-observer-twice") }
    #expect(line?.hasSuffix("–") == true, "the table's row: \(line ?? "none")")
  }

  @Test("without a stored-entry count, the scenarios that count read –, never −1 entries")
  func noCountNoMinusOne() {
    let report = ScenarioReport(designs: [tokenArray(keepsTokensItself: true)])
    for row in report.rows {
      let outcome = row.outcomes[0].outcome
      #expect(!outcome.detail.contains("-1"), "\(row.scenario.name): \(outcome.detail)")
    }
    for name in [Scenario.Name.deadEntriesRemoved, .deadEntriesRemovedOnSet] {
      let outcome = report.rows.first { $0.scenario.id == name }?.outcomes[0].outcome
      #expect(outcome?.verdict == .notApplicable, "\(name.rawValue)")
    }
  }

  @Test("a scenario of one's own runs beside the sixteen, and renders in every format")
  func scenarioOfOnesOwn() {
    let own = Scenario(
      Scenario.Name(custom: "reads-back"), title: "the value reads back", story: "Sets 3.",
      sizing: "One set.", chapter: "README.md"
    ) { design in
      let observable = design.makeObservable(0)
      observable.value = 3
      return observable.value == 3 ? .holds("read back 3") : .flaw("read back another")
    }
    let report = ScenarioReport(
      running: Scenario.all + [own], designs: [tokenArray(keepsTokensItself: false)])
    #expect(report.rows.count == Scenario.all.count + 1)
    #expect(report.text().contains("reads-back"))
    #expect(report.markdown.contains("`reads-back`"))
    #expect(report.json.contains("\"reads-back\""))
    #expect(Scenario.Name(rawValue: "reads-back") == nil, "not one of the sixteen")
  }
}
