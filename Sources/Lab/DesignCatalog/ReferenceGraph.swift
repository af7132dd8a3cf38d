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

extension ReferenceGraph: Equatable {
  /// Two are the same when they draw the same picture and say the same of it.
  package static func == (lhs: ReferenceGraph, rhs: ReferenceGraph) -> Bool {
    lhs.mermaid == rhs.mermaid && lhs.caption == rhs.caption
  }
}
