import DesignCatalog
import ObserverScenarios
import Stage5Concurrency
import StageBench
import Testing

@Suite("Who holds whom: each stage's reference graph")
struct ReferenceGraphTests {
  @Test(
    "every edge names a stored property a real observable of the stage has",
    arguments: CatalogEntry.stages)
  func edgesAreStoredProperties(stage: CatalogEntry) {
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
    arguments: CatalogEntry.stages)
  func leakMatchesTheScenario(stage: CatalogEntry) throws {
    let scenario = Scenario.Name.strongCaptureFreedWithoutUnsubscribe.scenario
    let leaks = scenario.run(on: stage.design).verdict == .flaw
    let graph = try #require(stage.graph)
    #expect(graph.edges.contains(where: \.leaks) == leaks)
  }

  @Test(
    "the graph's weak edges are the stages that skip a released observer",
    arguments: CatalogEntry.stages
  )
  func weakEdgesMatchTheScenario(stage: CatalogEntry) throws {
    let scenario = Scenario.Name.releasedObserverNotCalled.scenario
    let skips = scenario.run(on: stage.design).verdict == .holds
    let graph = try #require(stage.graph)
    #expect(graph.edges.contains { !$0.isStrong } == skips)
  }
}

// MARK: - Walking a real observable

extension ReferenceGraph {
  /// The edges of `entry`'s graph whose stored property cannot be found, walking `Mirror`s
  /// of a real observable of its design with one owner subscribed. Captures
  /// (``Edge/isCapture``) are the caller's, not stored properties, and are not walked.
  static func missingPaths(of entry: CatalogEntry) -> [String] {
    guard let graph = entry.graph else { return [] }
    let observable = sampleWithOneOwner(of: entry)
    return graph.edges.filter { !$0.isCapture }.map(\.path).filter { path in
      !reaches(observable, path: path)
    }
  }

  /// A real observable of `stage` with an owner subscribed, kept beside it while the graph is
  /// walked. Stages 1 to 4 are their bench contenders' observables, subscribed as the bench
  /// subscribes. Stage 5 is subscribed for a screen; `Mirror` cannot see inside the `Mutex`
  /// that holds its state, so the sample shows the state copied out of it, under the same name,
  /// with the same subscription objects.
  static func sampleWithOneOwner(of stage: CatalogEntry) -> Any {
    guard stage == .concurrency else {
      let owner = BenchOwner()
      let observable = stage.contenders[0].make()
      observable.subscribe(owner, index: 0, sum: Sum(0))
      return (observable: observable, owner: owner)
    }
    final class Screen: Sendable {}
    let screen = Screen()
    let observable = Stage5Concurrency.Observable(0)
    observable.observeOnAnyThread(screen) { _, _ in }
    return (state: observable._state, observable: observable, screen: screen)
  }

  /// Whether `path` names stored properties from `root` down: `entries[].observer` is the
  /// `observer` of an element of `entries`; `observers[key]`, a value of the dictionary
  /// `observers`. A name not found on a value is looked for up to three levels further down,
  /// through the lock that wraps stage 5's state. `Mirror` sees inside a `pthread_mutex_t` box,
  /// but never inside a `Mutex` (measured on Linux: a stored `Mutex` reflects as `()`), so a
  /// type that holds its state in a `Mutex` must be `CustomReflectable`, showing a copy of the
  /// state taken under the lock, for its paths to be found.
  static func reaches(_ root: Any, path: String) -> Bool {
    var current: [Any] = [root]
    for part in path.split(separator: ".") {
      let isElement = part.contains("[")
      let name = String(part.prefix { $0 != "[" })
      var next: [Any] = []
      for value in current {
        next += children(named: name, of: value, levels: 3)
      }
      guard !next.isEmpty else { return false }
      if isElement {
        next = next.flatMap { collection in
          Mirror(reflecting: collection).children.map { element in elementValue(element.value) }
        }
        if next.isEmpty { return false }
      }
      current = next
    }
    return true
  }

  /// The children of `value` labelled `name`, looking up to `levels` levels down.
  static func children(named name: String, of value: Any, levels: Int) -> [Any] {
    let children = Mirror(reflecting: value).children
    let found = children.filter { $0.label == name }.map(\.value)
    guard found.isEmpty, levels > 1 else { return found }
    return children.flatMap { self.children(named: name, of: $0.value, levels: levels - 1) }
  }

  /// An element as stored: a dictionary's value, an optional's wrapped value, or itself.
  static func elementValue(_ element: Any) -> Any {
    let mirror = Mirror(reflecting: element)
    if let value = mirror.children.first(where: { $0.label == "value" }),
      mirror.children.contains(where: { $0.label == "key" })
    {
      return value.value
    }
    if mirror.displayStyle == .optional, let wrapped = mirror.children.first {
      return wrapped.value
    }
    return element
  }
}
