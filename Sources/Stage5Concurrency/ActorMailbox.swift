import Dispatch
import Foundation
import Synchronization

#if os(Linux)
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif
#endif

/// Tells, without hopping and without trapping, whether this code runs on the main actor.
@usableFromInline
enum MainActorCheck {
  /// Whether this thread is the main actor's now: the main thread, or, on Linux, the main
  /// queue's work. The same test `MainActor.assumeIsolated` makes, answered instead of enforced.
  @usableFromInline
  static var isCurrent: Bool {
    #if os(Linux)
      isMainThread || DispatchQueue.getSpecific(key: mainQueueMark.key) != nil
    #else
      Thread.isMainThread
    #endif
  }

  #if os(Linux)
    /// A mark on the main dispatch queue, which runs the main actor's jobs. Measured on Linux:
    /// once a program hands its main thread to Dispatch, as a test runner does, the main queue's
    /// work runs on another thread, where `Thread.isMainThread` is `false`; the mark is found
    /// there all the same. (On Apple platforms the main queue always runs on the main thread.)
    static let mainQueueMark = MainQueueMark()

    /// Holds the mark's key. Unchecked `Sendable`: the key is made once and never changed.
    final class MainQueueMark: @unchecked Sendable {
      let key = DispatchSpecificKey<Void>()

      init() {
        DispatchQueue.main.setSpecific(key: key, value: ())
      }
    }

    /// Each thread's answer to `Thread.isMainThread`, which on Linux asks the kernel for the
    /// process and thread ids every time (measured: about 1 µs a set); a thread never changes
    /// its answer, so each asks once.
    static let isMainThreadKey: pthread_key_t = {
      var key = pthread_key_t()
      pthread_key_create(&key, nil)
      return key
    }()

    static var isMainThread: Bool {
      // 1 for the main thread, 2 for any other; nothing stored yet for a thread that never asked.
      if let answer = pthread_getspecific(isMainThreadKey) { return Int(bitPattern: answer) == 1 }
      let isMain = Thread.isMainThread
      pthread_setspecific(isMainThreadKey, UnsafeRawPointer(bitPattern: isMain ? 1 : 2))
      return isMain
    }
  #endif
}

/// Carries changes to handlers that are isolated to one actor, and calls them there, in order.
///
/// A handler written inside a `@MainActor` type is isolated to the main actor: it may touch the
/// screen's state, and so it must run on the main actor and nowhere else. The mailbox keeps the
/// changes meant for such handlers in the order they were delivered (one observable's main-actor
/// handlers share one mailbox, so they are called in subscription order too), and calls them:
///
/// - at once, when the change is delivered on the main thread and the handler is isolated to
///   the main actor (a set on the main actor reaches a label before the setter returns);
/// - otherwise later, on the handler's actor, from one task that empties the mailbox.
///
/// Each change is called once: whoever opens the mailbox takes the letters out one at a time,
/// under its lock, and calls the handler with none held.
@usableFromInline
final class ActorMailbox<Value: Sendable>: Sendable {
  /// One change on its way to one handler.
  @usableFromInline
  struct Letter: Sendable {
    @usableFromInline let subscription: Subscription<Value>
    @usableFromInline let change: Change<Value>
    @usableFromInline let handler: IsolatedHandler<Value>

    @inlinable
    init(
      subscription: Subscription<Value>, change: Change<Value>, handler: IsolatedHandler<Value>
    ) {
      self.subscription = subscription
      self.change = change
      self.handler = handler
    }
  }

  @usableFromInline
  struct Contents: Sendable {
    @usableFromInline
    init() {}

    /// Letters in delivery order; `nil` where one was taken out, until the mailbox is emptied.
    @usableFromInline var letters: [Letter?] = []
    @usableFromInline var next = 0
    /// Whether someone is calling the handler with the letters now, on the handler's actor.
    @usableFromInline var isOpen = false
    /// Whether a task is on its way to the handler's actor to open the mailbox.
    @usableFromInline var isScheduled = false
  }

  /// The actor the handler is isolated to.
  @usableFromInline let isolation: any Actor
  /// Whether ``isolation`` is the main actor, whose thread can be recognised without a hop.
  @usableFromInline let isMainActor: Bool
  /// Where to end a subscription whose owner has gone.
  @usableFromInline weak let observable: (any SubscriptionEnding)?
  @usableFromInline let contents = StateLock(Contents())

  @usableFromInline
  init(isolation: any Actor, observable: any SubscriptionEnding) {
    self.isolation = isolation
    self.isMainActor = isolation === MainActor.shared
    self.observable = observable
  }

  /// Hands a change to its handler: calls it now if this thread is already the handler's
  /// actor's, or else has a task call it there soon.
  @inlinable
  func post(_ letter: Letter) {
    let onActorNow = isMainActor && MainActorCheck.isCurrent
    let next = contents.withLock { contents -> NextStep in
      let isEmpty = contents.next == contents.letters.count
      // Someone emptying it on the actor will reach this letter too, in its turn.
      if contents.isOpen {
        contents.letters.append(letter)
        return .leave
      }
      if onActorNow {
        contents.isOpen = true
        // The usual case on the main actor: nothing waiting, so this letter goes straight to
        // its handler, without entering the mailbox.
        if isEmpty { return .callNow }
        contents.letters.append(letter)
        return .empty
      }
      contents.letters.append(letter)
      if contents.isScheduled { return .leave }
      contents.isScheduled = true
      return .schedule
    }
    switch next {
    case .leave:
      break
    case .callNow:
      // On the main actor, as MainActorCheck found: the handlers may run here.
      deliver(letter)
      deliverLetters()
    case .empty:
      deliverLetters()
    case .schedule:
      Task { await self.openScheduled(on: self.isolation) }
    }
  }

  /// What ``post(_:)`` does once it has let go of the lock.
  @usableFromInline
  enum NextStep: Sendable {
    /// Nothing: the letter waits for whoever has the mailbox open, or for the scheduled task.
    case leave
    /// Call the handler with this letter here, then with whatever arrives meanwhile.
    case callNow
    /// Empty the mailbox here, this letter last.
    case empty
    /// Have a task empty the mailbox on the handler's actor.
    case schedule
  }

  /// Runs on the handler's actor, for the task ``post(_:)`` scheduled.
  @inlinable
  func openScheduled(on actor: isolated any Actor) {
    let mustOpen = contents.withLock { contents in
      contents.isScheduled = false
      guard !contents.isOpen else { return false }
      contents.isOpen = true
      return true
    }
    if mustOpen { deliverLetters() }
  }

  /// Calls the handler with each letter in turn, until none is left. Only on the handler's
  /// actor, by the one caller that found the mailbox closed and opened it.
  @inlinable
  func deliverLetters() {
    while let letter = nextLetter() {
      deliver(letter)
    }
  }

  /// Calls one letter's handler, unless its subscription has ended. Checked here, on the actor,
  /// just before the call: a cancel that returned before it, on this actor, is never outrun by
  /// a letter posted earlier.
  @inlinable
  func deliver(_ letter: Letter) {
    let subscription = letter.subscription
    guard subscription.isActive.load(ordering: .acquiring) else { return }
    if !letter.handler.call(subscription, letter.change) {
      observable?.endSubscription(subscription)
    }
  }

  /// Takes the next letter out, or closes the mailbox when none is left. The letter leaves the
  /// lock with the caller, so the change and the subscription it holds are released outside.
  @inlinable
  func nextLetter() -> Letter? {
    contents.withLock { contents in
      guard contents.next < contents.letters.count else {
        if !contents.letters.isEmpty {
          contents.letters.removeAll(keepingCapacity: true)
          contents.next = 0
        }
        contents.isOpen = false
        return nil
      }
      let letter = contents.letters[contents.next].take()
      contents.next += 1
      return letter
    }
  }
}

/// A handler as the caller wrote it, isolated to an actor and so not `Sendable`, with what it
/// needs to run: it returns `false` when its owner is gone.
///
/// Unchecked `Sendable`, and sound: an ``ActorMailbox`` calls it only on the actor it is
/// isolated to, one call at a time. Other threads only carry it there.
@usableFromInline
struct IsolatedHandler<Value: Sendable>: @unchecked Sendable {
  @usableFromInline let call: (Subscription<Value>, Change<Value>) -> Bool

  @inlinable
  init(_ call: @escaping (Subscription<Value>, Change<Value>) -> Bool) {
    self.call = call
  }
}
