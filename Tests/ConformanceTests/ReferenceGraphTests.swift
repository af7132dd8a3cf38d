import DesignCatalog
import ObserverScenarios
import Testing

@Suite("Who holds whom: each stage's reference graph")
struct ReferenceGraphTests {
  @Test(
    "every edge names a stored property a real observable of the stage has",
    arguments: Design.stages)
  func edgesAreStoredProperties(stage: Design) {
    #expect(ReferenceGraph.missingPaths(of: stage).isEmpty)
  }

  @Test("a path that names no stored property is caught")
  func missingPathCaught() {
    final class Holder { let kept = [1, 2] }
    #expect(ReferenceGraph.reaches(Holder(), path: "kept[]"))
    #expect(!ReferenceGraph.reaches(Holder(), path: "lost"))
  }

  @Test(
    "a red edge for every stage whose strong capture leaks, none for stage 5",
    arguments: Design.stages)
  func leakMatchesTheScenario(stage: Design) throws {
    let scenario = Scenario.Name.strongCaptureFreedWithoutUnsubscribe.scenario
    let leaks = scenario.run(on: stage.descriptor).verdict == .flaw
    let graph = try #require(stage.graph)
    #expect(graph.edges.contains(where: \.leaks) == leaks)
  }

  @Test(
    "the graph's weak edges are the stages that skip a released observer", arguments: Design.stages
  )
  func weakEdgesMatchTheScenario(stage: Design) throws {
    let scenario = Scenario.Name.releasedObserverNotCalled.scenario
    let skips = scenario.run(on: stage.descriptor).verdict == .holds
    let graph = try #require(stage.graph)
    #expect(graph.edges.contains { !$0.isStrong } == skips)
  }
}
