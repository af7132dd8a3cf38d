import LifetimeTracking
import Support

/// What happened in one run of a scenario, as events: the subscriptions, the sets (nested ones
/// marked), each call with the value it received, the unsubscriptions, the owners released and
/// the entries counted. Recorded by wrapping each observable the experiment makes; nothing in
/// the experiments changes, and nothing in a trace depends on timing or addresses.
package struct Trace: Sendable, Equatable {
  /// One thing that happened.
  package enum Event: Sendable, Equatable {
    /// `owner` subscribed to observable `observable`, asking for the parts named in `asking`.
    case subscribe(observable: Int, owner: String, asking: String)
    /// The value was set; `by` is the owner whose handler set it, `nil` for the experiment;
    /// `depth` counts the sets under way around it.
    case set(observable: Int, value: Int, by: String?, depth: Int)
    /// A handler was called, by the set `depth` levels deep.
    case call(observable: Int, owner: String, delivery: Delivery, depth: Int)
    /// `owner`'s subscription ended; `by` is the owner whose handler ended it, `nil` for the
    /// experiment; `depth` counts the sets under way around it.
    case unsubscribe(observable: Int, owner: String, by: String?, depth: Int)
    /// The owner was released.
    case released(owner: String)
    /// The experiment counted the entries stored.
    case stored(observable: Int, count: Int)
  }

  /// The events, in order, cut to the first observers (see ``hiddenOwners``).
  package var events: [Event]
  /// How many observers took part but are not shown.
  package var hiddenOwners: Int
  /// How many observables the experiment made; only the first is shown.
  package var observables: Int
  /// For a run with no events, which subscribed, set and called nothing (a question for the
  /// compiler, or a capability the design lacks): the verdict it gave, so that the trace still
  /// says something.
  package var verdictWithoutEvents: Outcome?

  /// What a trace calls an owner cut from it whose handler sets the value or unsubscribes
  /// another: its name would make a participant the trace does not otherwise show.
  package static let unshownOwner = "an observer not shown"

  /// The owners shown, in the order they first appear.
  package var owners: [String] {
    var seen: [String] = []
    for event in events {
      let owners: [String?] =
        switch event {
        case .subscribe(_, let owner, _), .call(_, let owner, _, _), .released(let owner):
          [owner]
        case .unsubscribe(_, let owner, let by, _): [by, owner]
        case .set(_, _, let by, _): [by]
        case .stored: []
        }
      for owner in owners.compactMap(\.self) where !seen.contains(owner) { seen.append(owner) }
    }
    return seen
  }
}

/// Collects a trace while a scenario runs, handed to each observable the traced design makes.
/// Unchecked `Sendable`: a trace is recorded by one scenario on one thread, inside
/// ``Scenario/trace(on:)``.
final class TraceRecorder: @unchecked Sendable {
  /// How many owners a trace shows before it cuts the rest.
  static let shownOwners = 3

  var events: [Trace.Event] = []
  var observables = 0
  var shown: [String] = []
  var hidden: Set<String> = []
  /// The owners whose handlers are running now, innermost last: who a set inside one comes from.
  var calling: [String] = []
  /// How many sets of the traced observable are under way.
  var settingDepth = 0

  func isShown(_ owner: String) -> Bool {
    if shown.contains(owner) { return true }
    if hidden.contains(owner) { return false }
    if shown.count < Self.shownOwners {
      shown.append(owner)
      return true
    }
    hidden.insert(owner)
    return false
  }

  /// Who a set or an unsubscription inside a handler comes from, as the trace names it: the
  /// owner whose handler is running, or, when that owner is cut from the trace, a stand-in that
  /// says so.
  var caller: String? {
    guard let owner = calling.last else { return nil }
    return shown.contains(owner) ? owner : Trace.unshownOwner
  }

  func record(_ event: Trace.Event, owner: String? = nil) {
    if let owner, !isShown(owner) { return }
    events.append(event)
  }

  func released(_ owner: String) {
    // A release is shown only for an owner that took part in the shown observable.
    guard shown.contains(owner) else { return }
    events.append(.released(owner: owner))
  }
}

/// An observable that records, in the current trace, what passes through it: the first one an
/// experiment makes. The others run untouched.
final class TracingObservable: ScenarioObservable {
  let inner: any ScenarioObservable
  let recorder: TraceRecorder

  init(_ inner: any ScenarioObservable, recorder: TraceRecorder) {
    self.inner = inner
    self.recorder = recorder
  }

  var value: Int {
    get { inner.value }
    set {
      recorder.record(
        .set(
          observable: 1, value: newValue, by: recorder.caller, depth: recorder.settingDepth))
      recorder.settingDepth += 1
      inner.value = newValue
      recorder.settingDepth -= 1
    }
  }

  var storedEntryCount: Int {
    let count = inner.storedEntryCount
    recorder.record(.stored(observable: 1, count: count))
    return count
  }

  func subscribe(_ subscription: ScenarioSubscription) {
    // A scenario's owner says when it is released, to the trace of the observable it took
    // part in.
    (subscription.owner as? ScenarioOwner)?.tracked?.onRelease = { [recorder] in
      recorder.released($0)
    }
    var traced = subscription
    let owner = subscription.ownerName
    let asking = [
      subscription.wantsInitial ? "initial" : nil, subscription.wantsOld ? "old" : nil,
    ].compactMap { $0 }.joined(separator: ", ")
    recorder.record(.subscribe(observable: 1, owner: owner, asking: asking), owner: owner)
    let handler = subscription.handler
    traced.handler = { [recorder] delivery in
      recorder.record(
        .call(observable: 1, owner: owner, delivery: delivery, depth: recorder.settingDepth),
        owner: owner)
      recorder.calling.append(owner)
      handler(delivery)
      recorder.calling.removeLast()
    }
    inner.subscribe(traced)
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    let owner = subscription.ownerName
    recorder.record(
      .unsubscribe(
        observable: 1, owner: owner, by: recorder.caller, depth: recorder.settingDepth),
      owner: owner)
    inner.unsubscribe(subscription)
  }
}

extension Scenario {
  /// Runs the scenario on `design`, the first observable it makes wrapped so that what passes
  /// through it is recorded.
  package func trace(on design: ObservableDesign) -> (trace: Trace, outcome: Outcome) {
    let recorder = TraceRecorder()
    var traced = design
    traced.makeObservable = { [make = design.makeObservable] value in
      recorder.observables += 1
      let observable = make(value)
      return recorder.observables == 1
        ? TracingObservable(observable, recorder: recorder) : observable
    }
    let outcome = run(on: traced)
    return (
      Trace(
        events: recorder.events, hiddenOwners: recorder.hidden.count,
        observables: recorder.observables,
        verdictWithoutEvents: recorder.events.isEmpty ? outcome : nil),
      outcome
    )
  }
}

// MARK: - Rendering

extension Trace {
  /// What a delivery says, in a line.
  private static func describe(_ delivery: Delivery) -> String {
    switch delivery {
    case .initial(let value): "initial \(value)"
    case .old(let value): "old \(value)"
    case .new(let value): "\(value)"
    }
  }

  /// Each event as a line of the text rendering, at its depth, and as a statement of the
  /// Mermaid diagram, in which `id` names an owner's participant.
  private func steps(id: (String) -> String) -> [(depth: Int, text: String, mermaid: String)] {
    var depth = 0
    return events.map { event in
      switch event {
      case .subscribe(_, let owner, let asking):
        return (
          0, "\(owner) subscribes" + (asking.isEmpty ? "" : ", asking for \(asking)"),
          "\(id(owner))->>O: subscribe" + (asking.isEmpty ? "" : " (\(asking))")
        )
      case .set(_, let value, nil, let setDepth):
        depth = setDepth
        return (setDepth, "set \(value)", "E->>O: set \(value)")
      case .set(_, let value, let by?, let setDepth):
        depth = setDepth
        return (
          setDepth, "\(by) sets \(value), inside its handler",
          "\(id(by))->>O: set \(value), inside its handler"
        )
      case .call(_, let owner, let delivery, let callDepth):
        depth = max(callDepth - 1, 0)
        return (
          callDepth, "\(owner) is called with \(Self.describe(delivery))",
          "O->>\(id(owner)): \(Self.describe(delivery))"
        )
      case .unsubscribe(_, let owner, nil, _):
        return (depth, "\(owner) unsubscribes", "\(id(owner))->>O: unsubscribe")
      case .unsubscribe(_, let owner, let by?, let unsubscribeDepth):
        return (
          unsubscribeDepth, "\(by) unsubscribes \(owner), inside its handler",
          "\(id(by))->>O: unsubscribe \(owner), inside its handler"
        )
      case .released(let owner):
        return (depth, "\(owner) is released", "Note over \(id(owner)): released")
      case .stored(_, let count):
        return (
          depth, "entries stored: \(grouped(count))",
          "Note over O: \(grouped(count)) entries stored"
        )
      }
    }
  }

  /// Why some of the run is not shown, if any is not, or why nothing is.
  private var cutNote: String? {
    if let outcome = verdictWithoutEvents {
      return "nothing was subscribed, set or called in this run: "
        + "\(outcome.verdict.symbol) \(outcome.detail)"
    }
    var parts: [String] = []
    if hiddenOwners > 0 {
      parts.append("\(grouped(hiddenOwners)) more observers took part and are not shown")
    }
    if observables > 1 {
      parts.append(
        "the experiment repeats on \(grouped(observables - 1)) more observables, not shown")
    }
    return parts.isEmpty ? nil : parts.joined(separator: "; ")
  }

  /// The trace as an indented list: a nested set and what it delivers sit under the handler
  /// that set it.
  package var text: String {
    // The text names owners by their names: the diagram's participants are not asked for.
    var lines = steps { $0 }.map { String(repeating: "  ", count: $0.depth) + $0.text }
    if let cutNote { lines += wrap("(\(cutNote))", firstPrefix: "", prefix: " ") }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The trace as a Mermaid sequence diagram, which GitHub draws.
  package var mermaid: String {
    let owners = self.owners
    // Every owner an event names is in `owners`, so every lookup finds its participant.
    let participants = Dictionary(
      uniqueKeysWithValues: owners.enumerated().map { ($1, "P\($0 + 1)") })
    func id(_ owner: String) -> String { participants[owner] ?? "E" }
    var lines = [
      "sequenceDiagram", "  participant E as experiment", "  participant O as observable",
    ]
    for owner in owners {
      lines.append("  participant \(id(owner)) as \(owner)")
    }
    lines += steps(id: id).map { "  " + $0.mermaid }
    if let cutNote { lines.append("  Note over E,O: \(cutNote)") }
    // Mermaid ends a sequence diagram's statement at a semicolon, even inside a message or a
    // note: "#59;" is its code for one.
    return lines.map { $0.replacing(";", with: "#59;") }.joined(separator: "\n")
      + "\n"
  }
}
