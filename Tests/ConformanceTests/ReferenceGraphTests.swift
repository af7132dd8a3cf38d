import StageScenarios
import Testing

@Suite("Who holds whom: each stage's reference graph")
struct ReferenceGraphTests {
  @Test(
    "every edge names a stored property a real observable of the stage has",
    arguments: Stage.allCases)
  func edgesAreStoredProperties(stage: Stage) {
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
    arguments: Stage.allCases)
  func leakMatchesTheScenario(stage: Stage) throws {
    let scenario = try #require(Scenario.named("strong-capture-freed-without-unsubscribe"))
    let leaks = scenario.run(on: stage).verdict == .flaw
    #expect(ReferenceGraph.of(stage).edges.contains(where: \.leaks) == leaks)
  }

  @Test(
    "the graph's weak edges are the stages that skip a released observer", arguments: Stage.allCases
  )
  func weakEdgesMatchTheScenario(stage: Stage) throws {
    let scenario = try #require(Scenario.named("released-observer-not-called"))
    let skips = scenario.run(on: stage).verdict == .holds
    #expect(ReferenceGraph.of(stage).edges.contains { !$0.isStrong } == skips)
  }
}
