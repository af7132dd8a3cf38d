import Dispatch
import Foundation
import Synchronization

#if os(Linux) && !FORCE_APPLE_BRANCHES
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif
#endif

/// Tells, without hopping and without trapping, whether this code runs on the main actor.
@usableFromInline
enum MainActorCheck {
  /// Whether this thread is the main actor's now: the main thread, or the main queue's work.
  /// The same test `MainActor.assumeIsolated` makes, answered instead of enforced.
  @usableFromInline
  static var isCurrent: Bool {
    #if os(Linux) && !FORCE_APPLE_BRANCHES
      isMainThread || DispatchQueue.getSpecific(key: mainQueueMark.key) != nil
    #else
      Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueMark.key) != nil
    #endif
  }

  /// A mark on the main dispatch queue, which runs the main actor's jobs. Measured on Linux:
  /// once a program hands its main thread to Dispatch, as a test runner does, the main queue's
  /// work runs on another thread, where `Thread.isMainThread` is `false`; the mark is found
  /// there all the same. On Apple platforms the main queue runs on the main thread, so the
  /// first test answers there.
  static let mainQueueMark = MainQueueMark()

  /// Holds the mark's key. Unchecked `Sendable`: the key is made once and never changed.
  final class MainQueueMark: @unchecked Sendable {
    let key = DispatchSpecificKey<Void>()

    init() {
      DispatchQueue.main.setSpecific(key: key, value: ())
    }
  }

  #if os(Linux) && !FORCE_APPLE_BRANCHES

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
