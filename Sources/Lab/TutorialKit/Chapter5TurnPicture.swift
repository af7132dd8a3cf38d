import Dispatch
import Foundation
import Stage5Concurrency
import Synchronization

/// Where a handler ran, or a set was made, in chapter 5c's picture: on the thread that sets the
/// value, on the main actor, or anywhere else (never expected, and drawn if it happens).
enum TurnPlace: String, Sendable {
  case setter = "T"
  case mainActor = "M"
  case elsewhere = "X"

  private static let setterMark = Mark(on: setterQueue)
  /// On the main dispatch queue, which runs the main actor's jobs.
  private static let mainMark = Mark(on: .main)
  /// The queue the picture's sets run on.
  static let setterQueue = DispatchQueue(label: "the thread that sets")

  /// Where the code that reads this runs now.
  static var current: TurnPlace {
    if DispatchQueue.getSpecific(key: setterMark.key) != nil { return .setter }
    // On Linux a test runner drains the main queue from another thread: both are the main
    // actor's.
    if Thread.isMainThread || DispatchQueue.getSpecific(key: mainMark.key) != nil {
      return .mainActor
    }
    return .elsewhere
  }

  /// Holds a key set on one queue. Unchecked `Sendable`: made once, never changed.
  private final class Mark: @unchecked Sendable {
    let key = DispatchSpecificKey<Void>()

    init(on queue: DispatchQueue) { queue.setSpecific(key: key, value: ()) }
  }
}

/// What happened in the picture's run, in order, wherever it happened.
final class TurnLog: Sendable {
  enum Event: Sendable {
    case set(Int)
    case returned
    case handler(String)
  }

  private let events = Mutex<[(place: TurnPlace, event: Event)]>([])
  /// An element for each event recorded, as it is.
  let recorded: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() { (recorded, continuation) = AsyncStream.makeStream() }

  var all: [(place: TurnPlace, event: Event)] { events.withLock { $0 } }

  /// Records `event` where it happens.
  func record(_ event: Event) {
    let place = TurnPlace.current
    events.withLock { $0.append((place, event)) }
    continuation.yield()
  }

  /// The run as a Mermaid sequence diagram. Where two handlers of one change ran in different
  /// places, the turn moved between them: an arrow says so.
  var mermaid: String {
    var lines = [
      "sequenceDiagram",
      "  participant T as the thread that sets",
      "  participant O as observable",
      "  participant M as main actor",
      "  Note over M: busy until the sets return",
    ]
    var lastHandlerPlace: TurnPlace?
    for (place, event) in all {
      switch event {
      case .set(let value):
        lines.append("  \(place.rawValue)->>O: set \(value)")
      case .returned:
        lines.append("  Note over \(place.rawValue): the setters returned")
      case .handler(let text):
        if let lastHandlerPlace, lastHandlerPlace != place {
          lines.append("  O-->>\(place.rawValue): the turn moves here, in one Task")
        }
        lines.append("  O->>\(place.rawValue): \(text)")
        lastHandlerPlace = place
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

extension Demo {
  /// Chapter 5c's picture, from a live run: a thread sets twice while the main actor is busy;
  /// the delivery reaches a main-actor handler, and the turn moves to the main actor.
  /// Returns the run as a Mermaid sequence diagram.
  @MainActor
  static func turnPicture() async -> String {
    let log = TurnLog()
    let screen = MainActorScreen()
    let score = screen.score
    let first = score.observeOnAnyThread { log.record(.handler("log sees \($0.newValue)")) }
    score.observe(screen.label) { label, change in
      label.text = "\(change.newValue)"
      log.record(.handler("label shows \(label.text)"))
    }
    let last = score.observeOnAnyThread { log.record(.handler("badge sees \($0.newValue)")) }
    // The main actor is busy (drawing a frame, say) while the other thread sets: it waits
    // here, and only when this returns is it free to take the turn.
    whileTheMainActorIsBusy {
      log.record(.set(1))
      score.value = 1
      log.record(.set(2))
      score.value = 2
      log.record(.returned)
    }
    // 2 sets, the setters' return, and 3 handlers for each of the 2 changes.
    for await _ in log.recorded.prefix(9) {}
    first.cancel()
    last.cancel()
    return log.mermaid
  }

  /// Runs `work` on the setter's queue and waits for it: the main actor does nothing else
  /// meanwhile.
  private static func whileTheMainActorIsBusy(_ work: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    TurnPlace.setterQueue.async {
      work()
      done.signal()
    }
    done.wait()
  }
}
