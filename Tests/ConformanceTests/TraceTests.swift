import DesignCatalog
import ObserverScenarios
import Testing

@Suite("Traces: what happened in a scenario's run")
struct TraceTests {
  @Test("recording a trace changes nothing: the outcome is the run's", arguments: Scenario.all)
  func sameOutcome(scenario: Scenario) {
    for stage in Design.stages.map(\.observable) {
      #expect(scenario.trace(on: stage).outcome == scenario.run(on: stage), "\(stage)")
    }
  }

  // Stage 2 is left out on purpose: it calls its closures in dictionary order, which Swift seeds
  // per dictionary, so its traces show a different order from run to run. That is its flaw.
  @Test("a trace is the same every time: no timing, no addresses", arguments: Scenario.all)
  func deterministic(scenario: Scenario) {
    for stage in Design.stages.map(\.observable) where stage.id != Design.ironAge.id {
      #expect(
        scenario.trace(on: stage).trace == scenario.trace(on: stage).trace,
        "\(stage)")
    }
  }

  @Test("a value set inside a handler: depth first in stage 4, queued in stage 5")
  func reentrantSet() throws {
    let scenario = Scenario.Name.reentrantSetEndsOnLatest.scenario
    let depthFirst = scenario.trace(on: Design.optionSets.observable).trace.text
    let queued = scenario.trace(on: Design.concurrency.observable).trace.text
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
    let trace = scenario.trace(on: Design.stoneAge.observable).trace
    #expect(trace.owners.count <= 3)
    #expect(trace.hiddenOwners > 0)
    #expect(trace.text.contains("more observers took part and are not shown"))
  }

  @Test("the Mermaid rendering is a sequence diagram with a participant per owner shown")
  func mermaid() throws {
    let scenario = Scenario.Name.releasedObserverNotCalled.scenario
    let trace = scenario.trace(on: Design.stoneAge.observable).trace
    let lines = trace.mermaid.split(separator: "\n")
    #expect(lines.first == "sequenceDiagram")
    #expect(lines.filter { $0.hasPrefix("  participant P") }.count == trace.owners.count)
    #expect(trace.mermaid.contains("Note over P1: released"))
  }
}
