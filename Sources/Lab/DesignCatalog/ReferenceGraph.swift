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
    /// Whether a closure's capture makes it, not a stored property: the caller's doing, which
    /// no `Mirror` of the observable can walk.
    package var isCapture = false

    /// The closure's capture of the screen that uses `self` in it, drawn as "captured self":
    /// strong, and the leak.
    package static func capturedSelf(from: String, to: String) -> Edge {
      Edge(from: from, to: to, path: "captured self", isStrong: true, leaks: true, isCapture: true)
    }
  }

  /// Node identifiers and their labels, in drawing order.
  package var nodes: [(id: String, label: String)]
  /// The references.
  package var edges: [Edge]
  /// What the picture says: the leak, the cycle if any, and which edge to break.
  package var caption: String

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
  /// The edges of `design`'s graph whose stored property cannot be found, walking `Mirror`s
  /// of a real observable of the design with one owner subscribed. Captures
  /// (``Edge/isCapture``) are the caller's, not stored properties, and are not walked.
  package static func missingPaths(of design: Design) -> [String] {
    guard let graph = design.graph, let sample = design.sampleWithOneOwner else { return [] }
    let screen = GraphScreen()
    let observable = sample(screen)
    defer { withExtendedLifetime(screen) {} }
    return graph.edges.filter { !$0.isCapture }.map(\.path).filter { path in
      !reaches(observable, path: path)
    }
  }

  /// Whether `path` names stored properties from `root` down: `entries[].observer` is the
  /// `observer` of an element of `entries`; `observers[key]`, a value of the dictionary
  /// `observers`. A name not found on a value is looked for up to three levels further down,
  /// through the lock that wraps stage 5's state. `Mirror` sees inside a `pthread_mutex_t` box,
  /// but never inside a `Mutex` (measured on Linux: a stored `Mutex` reflects as `()`), so a
  /// type that holds its state in a `Mutex` must be `CustomReflectable`, showing a copy of the
  /// state taken under the lock, for its paths to be found.
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

/// The screen a graph's sample observable is subscribed for: an owner of a concrete class, as a
/// screen of an app is.
package final class GraphScreen: Sendable {}
