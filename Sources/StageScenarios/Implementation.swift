/// A reference: an observer API the platform ships, run through the same scenarios as the stages.
package enum Reference: String, CaseIterable, Sendable, Comparable {
  /// Foundation's `NotificationCenter`: block observers on a private center, the value in
  /// `userInfo`, removal with the returned token.
  case notificationCenter = "notificationcenter"
  /// Swift's Observation: an `@Observable` class, `withObservationTracking` re-armed in
  /// `onChange`.
  case observation
  /// Swift's `Observations` (SE-0475): an `@Observable` class, each observer a task iterating
  /// the asynchronous sequence of its value.
  case observations

  /// The references this platform can run: `Observations` needs the Observation module of
  /// Swift 6.2, which Apple's OS versions have from 26 on.
  package static var allCases: [Reference] {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      [.notificationCenter, .observation, .observations]
    } else {
      [.notificationCenter, .observation]
    }
  }

  /// The name `--stage` takes.
  package var name: String { rawValue }

  /// The module the API comes from.
  package var module: String {
    switch self {
    case .notificationCenter: "Foundation"
    case .observation, .observations: "Observation"
    }
  }

  /// A title for tables and legends.
  package var title: String {
    switch self {
    case .notificationCenter: "Foundation's NotificationCenter, block observers"
    case .observation: "Swift's Observation, withObservationTracking re-armed in onChange"
    case .observations: "Swift's Observations, an async sequence of values, one task each"
    }
  }

  /// A short name for column headings.
  package var shortName: String {
    switch self {
    case .notificationCenter: "nc"
    case .observation: "obs"
    case .observations: "obsns"
    }
  }

  /// Orders references as they are declared.
  package static func < (lhs: Reference, rhs: Reference) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// Something a scenario may need that an implementation may not have.
package enum Capability: Sendable {
  /// A way to end a subscription while its owner lives.
  case unsubscribe
  /// A count of the entries stored.
  case entryCount
  /// The current value, delivered on subscribing.
  case initialValue
  /// The value replaced by a set.
  case oldValue
}

/// What the scenarios run on: a stage, or one of the platform's references.
package enum Implementation: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// One of the stages.
  case stage(Stage)
  /// One of the platform's references.
  case reference(Reference)

  /// Every stage, in order.
  package static var stages: [Implementation] { Stage.allCases.map { .stage($0) } }

  /// Every reference, in order.
  package static var references: [Implementation] { Reference.allCases.map { .reference($0) } }

  /// The name `--stage` takes: "2", "observation".
  package var name: String {
    switch self {
    case .stage(let stage): String(stage.number)
    case .reference(let reference): reference.name
    }
  }

  /// "stage 2", "NotificationCenter".
  package var description: String {
    switch self {
    case .stage(let stage): stage.description
    case .reference(.notificationCenter): "NotificationCenter"
    case .reference(.observation): "Observation"
    case .reference(.observations): "Observations"
    }
  }

  /// A short name for column headings.
  package var shortName: String {
    switch self {
    case .stage(let stage): stage.shortName
    case .reference(let reference): reference.shortName
    }
  }

  /// The heading of its column: "2 iron", "nc".
  package var heading: String {
    switch self {
    case .stage(let stage): "\(stage.number) \(stage.shortName)"
    case .reference(let reference): reference.shortName
    }
  }

  /// Its title.
  package var title: String {
    switch self {
    case .stage(let stage): stage.title
    case .reference(let reference): reference.title
    }
  }

  /// How it tells subscribers apart.
  package var identity: Stage.Identity {
    switch self {
    case .stage(let stage): stage.identity
    case .reference: .none
    }
  }

  /// Whether it can do what `capability` names.
  package func has(_ capability: Capability) -> Bool {
    switch (self, capability) {
    case (.stage(let stage), .unsubscribe): stage.canUnsubscribe
    case (.stage, .entryCount): true
    case (.stage(let stage), .initialValue), (.stage(let stage), .oldValue): stage.offersOptions
    case (.reference(.notificationCenter), .unsubscribe): true
    case (.reference(.observation), .initialValue): true
    case (.reference(.observations), .initialValue), (.reference(.observations), .unsubscribe):
      true
    case (.reference, _): false
    }
  }

  /// Why a scenario that needs `capability` does not apply, for a reference that lacks it;
  /// `nil` for a stage, which is expected to have it (its lack is a flaw), or when it has it.
  package func inapplicability(for capability: Capability) -> String? {
    guard case .reference(let reference) = self, !has(capability) else { return nil }
    switch (reference, capability) {
    case (.notificationCenter, .entryCount):
      return "NotificationCenter does not say how many observers it holds"
    case (.observation, .entryCount):
      return "Observation does not say how many trackings are armed"
    case (.observation, .unsubscribe):
      return "Observation has no way to cancel a tracking: code stops re-arming it, and one "
        + "already armed still fires once"
    case (.notificationCenter, .initialValue):
      return "a notification is an event: the center has no current value to deliver"
    case (.notificationCenter, .oldValue):
      return "a notification carries only what its poster puts in userInfo"
    case (.observation, .oldValue):
      return "onChange carries no value; read there, the property still holds the value before "
        + "the write"
    case (.observations, .entryCount):
      return "Observations does not say how many consumers are iterating it"
    case (.observations, .oldValue):
      return "each element is the value read when the consumer runs; the one before is not kept"
    default:
      return nil
    }
  }

  /// Whether the observable type is `Sendable`, as the compiler sees it.
  package var isSendable: Bool {
    switch self {
    case .stage(let stage): stage.isSendable
    case .reference(let reference): ReferenceAdapters.isSendable(reference)
    }
  }

  /// The name of the observable type, for evidence lines.
  package var typeName: String {
    switch self {
    case .stage(let stage): stage.typeName
    case .reference(.notificationCenter): "NotificationCenter"
    case .reference(.observation): "An @Observable class"
    case .reference(.observations): "The @Observable class that Observations reads"
    }
  }

  /// Makes a fresh observable holding `value`, behind the scenarios' interface.
  ///
  /// - Parameter value: The initial value.
  /// - Returns: An observable with no subscribers.
  package func makeObservable(_ value: Int = 0) -> any ScenarioObservable {
    let observable: any ScenarioObservable =
      switch self {
      case .stage(let stage): stage.makeObservable(value)
      case .reference(let reference): ReferenceAdapters.make(reference, value: value)
      }
    // While a trace is recorded (see Scenario.trace(on:)), what passes through is written down.
    guard let recorder = TraceRecorder.current else { return observable }
    return TracingObservable(observable, recorder: recorder)
  }

  /// Stages first, in number order, then references.
  package static func < (lhs: Implementation, rhs: Implementation) -> Bool {
    switch (lhs, rhs) {
    case (.stage(let left), .stage(let right)): left < right
    case (.reference(let left), .reference(let right)): left < right
    case (.stage, .reference): true
    case (.reference, .stage): false
    }
  }
}
