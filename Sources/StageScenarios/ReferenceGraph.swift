import Stage1Closures
import Stage2KeyedDict
import Stage3WeakRefs
import Stage4Options
import Stage5Concurrency

/// Who holds whom in one stage, once an owner (a screen) has subscribed with a closure that uses
/// it: the observable, its storage, the closure, the owner. Drawn as a Mermaid flowchart, weak
/// references dashed, the edge that leaks in red.
///
/// Each edge names the stored property that makes it (`path`), and a test checks, with
/// `Mirror` on a real observable of the stage, that the property is there; the scenarios check
/// the strong and weak claims on real objects.
package struct ReferenceGraph: Sendable {
  /// One reference.
  package struct Edge: Sendable {
    /// The node that holds.
    package var from: String
    /// The node held.
    package var to: String
    /// The stored property, as a path from the observable: `observers`, `entries[].observer`.
    package var path: String
    /// Whether the reference keeps its target alive.
    package var isStrong: Bool
    /// Whether this is the edge that keeps a gone screen alive: the leak.
    package var leaks = false
  }

  /// Node identifiers and their labels, in drawing order.
  package var nodes: [(id: String, label: String)]
  /// The references.
  package var edges: [Edge]
  /// What the picture says: the leak, the cycle if any, and which edge to break.
  package var caption: String

  /// The graph of `stage`.
  package static func of(_ stage: Stage) -> ReferenceGraph {
    switch stage {
    case .stoneAge:
      ReferenceGraph(
        nodes: [
          ("O", "Observable"), ("A", "observers: [closure]"), ("C", "closure"),
          ("S", "screen"),
        ],
        edges: [
          Edge(from: "O", to: "A", path: "observers", isStrong: true),
          Edge(from: "A", to: "C", path: "observers[]", isStrong: true),
          Edge(from: "C", to: "S", path: "captured self", isStrong: true, leaks: true),
        ],
        caption:
          "No cycle: a leak rooted in the observable. Nothing can remove the closure, so only "
          + "a weak capture breaks the red edge.")
    case .ironAge:
      ReferenceGraph(
        nodes: [
          ("O", "Observable"), ("D", "observers: [key: closure]"), ("C", "closure"),
          ("S", "screen"),
        ],
        edges: [
          Edge(from: "O", to: "D", path: "observers", isStrong: true),
          Edge(from: "D", to: "C", path: "observers[key]", isStrong: true),
          Edge(from: "C", to: "S", path: "captured self", isStrong: true, leaks: true),
        ],
        caption:
          "The same chain, now breakable: removeObserver(forKey:) cuts observers[key]; a screen "
          + "that forgets leaks as in stage 1.")
    case .informationAge:
      ReferenceGraph(
        nodes: [
          ("O", "Observable"), ("E", "entries: [Entry]"), ("C", "closure"), ("S", "screen"),
        ],
        edges: [
          Edge(from: "O", to: "E", path: "entries", isStrong: true),
          Edge(from: "E", to: "S", path: "entries[].observer", isStrong: false),
          Edge(from: "E", to: "C", path: "entries[].closure", isStrong: true),
          Edge(from: "C", to: "S", path: "captured self", isStrong: true, leaks: true),
        ],
        caption:
          "The entry holds the screen weakly, but its closure holds it strongly: the weak edge "
          + "never gets the chance to become nil.")
    case .optionSets:
      ReferenceGraph(
        nodes: [
          ("O", "Observable"), ("B", "callbacks: [Callback]"), ("C", "closure"),
          ("S", "screen"),
        ],
        edges: [
          Edge(from: "O", to: "B", path: "callbacks", isStrong: true),
          Edge(from: "B", to: "S", path: "callbacks[].observer", isStrong: false),
          Edge(from: "B", to: "C", path: "callbacks[].closure", isStrong: true),
          Edge(from: "C", to: "S", path: "captured self", isStrong: true, leaks: true),
        ],
        caption:
          "Stage 3's picture with removal and options: a closure that captures its screen still "
          + "keeps it.")
    case .concurrency:
      ReferenceGraph(
        nodes: [
          ("O", "Observable"), ("L", "state: list of Subscription"), ("U", "Subscription"),
          ("H", "handler"), ("S", "screen"),
        ],
        edges: [
          Edge(from: "O", to: "L", path: "state", isStrong: true),
          Edge(from: "L", to: "U", path: "slots[]", isStrong: true),
          Edge(from: "U", to: "S", path: "slots[].owner", isStrong: false),
          Edge(from: "U", to: "H", path: "slots[].deliver", isStrong: true),
        ],
        caption:
          "No strong edge reaches the screen: the handler is handed the screen as a parameter, "
          + "so it need not capture it, and the subscription ends when the screen goes.")
    }
  }

  /// The graph as a Mermaid flowchart.
  package var mermaid: String {
    var lines = ["flowchart LR"]
    for node in nodes {
      lines.append("  \(node.id)[\"\(node.label)\"]")
    }
    for edge in edges {
      let arrow = edge.isStrong ? "-->" : "-.->"
      let strength = edge.isStrong ? "strong" : "weak"
      lines.append("  \(edge.from) \(arrow)|\"\(edge.path) (\(strength))\"| \(edge.to)")
    }
    for (index, edge) in edges.enumerated() where edge.leaks {
      lines.append("  linkStyle \(index) stroke:#d62728,stroke-width:3px")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension ReferenceGraph {
  /// The edges whose stored property cannot be found, walking `Mirror`s of a real observable of
  /// `stage` with one owner subscribed. Captures (`captured self`) are the caller's, not stored
  /// properties, and are not walked.
  ///
  /// - Parameter stage: The stage whose graph to check.
  /// - Returns: The paths not found; empty when every edge names a real stored property.
  package static func missingPaths(of stage: Stage) -> [String] {
    final class Screen: Sendable {}
    let screen = Screen()
    let observable: Any
    switch stage {
    case .stoneAge:
      let stone = Stage1Closures.Observable(0)
      stone.bindObserver { _ in }
      observable = stone
    case .ironAge:
      let iron = Stage2KeyedDict.Observable(0)
      iron.bindObserver(forKey: "screen") { _ in }
      observable = iron
    case .informationAge:
      let information = Stage3WeakRefs.Observable(0)
      information.bindObserver(screen) { _ in }
      observable = information
    case .optionSets:
      let options = Stage4Options.Observable(0)
      options.addObserver(screen) { _, _ in }
      observable = options
    case .concurrency:
      let concurrency = Stage5Concurrency.Observable(0)
      concurrency.observe(screen) { _, _ in }
      observable = concurrency
    }
    defer { withExtendedLifetime(screen) {} }
    return of(stage).edges.filter { $0.path != "captured self" }.map(\.path).filter { path in
      !reaches(observable, path: path)
    }
  }

  /// Whether `path` names stored properties from `root` down: `entries[].observer` is the
  /// `observer` of an element of `entries`; `observers[key]`, a value of the dictionary
  /// `observers`. A name not found on a value is looked for up to three levels further down,
  /// through the lock that wraps stage 5's state, where `Mirror` can see it.
  package static func reaches(_ root: Any, path: String) -> Bool {
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
