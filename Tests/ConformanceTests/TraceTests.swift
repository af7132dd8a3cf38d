import DesignCatalog
import ObserverScenarios
import Testing

@Suite("Traces: what happened in a scenario's run")
struct TraceTests {
  @Test("recording a trace changes nothing: the outcome is the run's", arguments: Scenario.all)
  func sameOutcome(scenario: Scenario) {
    for stage in CatalogEntry.stages.map(\.design) {
      #expect(scenario.trace(on: stage).outcome == scenario.run(on: stage), "\(stage)")
    }
  }

  // Stage 2 is left out on purpose: it calls its closures in dictionary order, which Swift seeds
  // per dictionary, so its traces show a different order from run to run. That is its flaw.
  @Test("a trace is the same every time: no timing, no addresses", arguments: Scenario.all)
  func deterministic(scenario: Scenario) {
    for stage in CatalogEntry.stages.map(\.design) where stage.id != CatalogEntry.keyedDict.id {
      #expect(
        scenario.trace(on: stage).trace == scenario.trace(on: stage).trace,
        "\(stage)")
    }
  }

  @Test("a value set inside a handler: depth first in stage 4, queued in stage 5")
  func reentrantSet() throws {
    let scenario = Scenario.Name.reentrantSetEndsOnLatest.scenario
    let depthFirst = scenario.trace(on: CatalogEntry.options.design).trace.text
    let queued = scenario.trace(on: CatalogEntry.concurrency.design).trace.text
    #expect(
      depthFirst.contains(
        """
          observer 0 sets 2, inside its handler
            observer 0 is called with 2
            observer 1 is called with 2
            observer 2 is called with 2
          observer 1 is called with 1
        """))
    #expect(
      queued.contains(
        """
          observer 0 sets 2, inside its handler
          observer 1 is called with 1
          observer 2 is called with 1
          observer 0 is called with 2
        """))
  }

  @Test("a large run is cut to three observers, and says how many are not shown")
  func cut() throws {
    let scenario = Scenario.Name.deadEntriesRemoved.scenario
    let trace = scenario.trace(on: CatalogEntry.closures.design).trace
    #expect(trace.owners.count <= 3)
    #expect(trace.hiddenOwners > 0)
    #expect(trace.text.contains("more observers took part and are not shown"))
  }

  @Test("the Mermaid rendering is a sequence diagram with a participant per owner shown")
  func mermaid() throws {
    let scenario = Scenario.Name.releasedObserverNotCalled.scenario
    let trace = scenario.trace(on: CatalogEntry.closures.design).trace
    let lines = trace.mermaid.split(separator: "\n")
    #expect(lines.first == "sequenceDiagram")
    #expect(lines.filter { $0.hasPrefix("  participant P") }.count == trace.owners.count)
    #expect(trace.mermaid.contains("Note over P1: released"))
  }

  @Test(
    "a run that subscribes and sets nothing still says something: its verdict, in both forms",
    arguments: CatalogEntry.all)
  func runWithoutEvents(entry: CatalogEntry) {
    for scenario in Scenario.all {
      let (trace, outcome) = scenario.trace(on: entry.design)
      guard trace.events.isEmpty else {
        #expect(trace.verdictWithoutEvents == nil)
        continue
      }
      let said = "nothing was subscribed, set or called in this run: \(outcome.verdict.symbol)"
      let unwrapped = trace.text.replacing("\n ", with: " ")
      #expect(unwrapped == "(\(said) \(outcome.detail))\n", "\(scenario.name)")
      #expect(trace.text.split(separator: "\n").allSatisfy { $0.count <= 100 })
      #expect(trace.mermaid.contains("  Note over E,O: \(said)"), "\(scenario.name)")
    }
  }

  @Test(
    "no Mermaid trace has a bare semicolon, which would end its statement",
    arguments: CatalogEntry.all)
  func mermaidSemicolons(entry: CatalogEntry) {
    for scenario in Scenario.all {
      let mermaid = scenario.trace(on: entry.design).trace.mermaid
      #expect(!mermaid.replacing("#59;", with: "").contains(";"), "\(scenario.name)")
    }
  }

  @Test("sendable runs nothing: its trace is the compiler's answer")
  func sendableTrace() {
    let trace = Scenario.Name.sendable.scenario.trace(on: CatalogEntry.concurrency.design).trace
    #expect(trace.events.isEmpty)
    #expect(
      trace.text
        == "(nothing was subscribed, set or called in this run: ✓ "
        + "Stage5Concurrency.Observable<Int> is Sendable:\n threads may share it)\n")
  }

  @Test("a semicolon in a note is written as Mermaid's code for one")
  func semicolonInNote() {
    let trace = Scenario.Name.oldValue.scenario.trace(on: CatalogEntry.observation.design).trace
    #expect(trace.text.contains("onChange carries no value; read there"))
    #expect(trace.mermaid.contains("onChange carries no value#59; read there"))
  }

  // Stage 2 calls in dictionary order, so which owner unsubscribes the others changes from run
  // to run: whoever it is, every owner the trace names must be one of its participants.
  @Test("stage 2's trace names only participants, whichever handler is called first")
  func stageTwoParticipants() {
    let scenario = Scenario.Name.unsubscribeDuringNotification.scenario
    for _ in 0..<50 {
      let trace = scenario.trace(on: CatalogEntry.keyedDict.design).trace
      let mermaid = trace.mermaid
      for owner in trace.owners {
        #expect(mermaid.contains(" as \(owner)\n"), "every owner named is a participant")
      }
    }
  }

  // Calling newest first makes the case certain: the first handler called is the fiftieth
  // owner's, which the trace cuts (it shows three), and it unsubscribes the shown ones.
  @Test("a handler cut from the trace that unsubscribes a shown owner is named as not shown")
  func unshownCaller() {
    let trace = Scenario.Name.unsubscribeDuringNotification.scenario
      .trace(on: NewestFirst.design).trace
    #expect(trace.hiddenOwners == 47)
    #expect(trace.owners.contains(Trace.unshownOwner))
    for owner in trace.owners {
      #expect(trace.mermaid.contains(" as \(owner)\n"), "every owner named is a participant")
    }
    #expect(trace.text.contains("\(Trace.unshownOwner) unsubscribes observer "))
  }
}

/// An observable for the trace tests that calls its observers newest first, and skips one
/// removed while it calls.
private final class NewestFirst: ScenarioObservable {
  static let design = ObservableDesign(
    id: "newest-first", title: "calls its observers newest first", module: "TraceTests",
    typeName: "NewestFirst", identity: .key, capabilities: [.unsubscribe], isSendable: false,
    makeObservable: { NewestFirst(value: $0) })

  private var observers: [(key: String, closure: (Int) -> Void)] = []

  init(value: Int) { self.value = value }

  var value: Int {
    didSet {
      for observer in observers.reversed()
      where observers.contains(where: { $0.key == observer.key }) {
        observer.closure(value)
      }
    }
  }

  func subscribe(_ subscription: ScenarioSubscription) {
    observers.append((subscription.key, subscription.closure { .new($0) }))
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    observers.removeAll { $0.key == subscription.key }
  }
}
