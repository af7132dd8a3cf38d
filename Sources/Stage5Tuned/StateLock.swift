#if os(Linux) && !FORCE_APPLE_BRANCHES
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #endif
#else
  import Synchronization
#endif

/// The lock around an observable's state: the Synchronization module's `Mutex`, except on
/// Linux.
///
/// Measured on Linux (Swift 6.3.1, x86-64, 2026-11-23), when the switch was made: an
/// uncontended `Mutex` lock and unlock took 33 ns, a `pthread_mutex_t` 4 to 5 ns. So on Linux
/// the state sits behind an error-checking `pthread_mutex_t`: like `Mutex`, it stops the
/// program on a recursive lock rather than deadlocking. Measured alone on today's code
/// (appendix 05a's table, the row "Mutex, not pthread_mutex_t", 2026-11-27), `Mutex` costs ×1.3
/// at one and ten observers, and the same from a hundred on. Elsewhere `Mutex` is used as it is
/// (on Apple platforms it is an `os_unfair_lock`).
@usableFromInline
final class StateLock<State: Sendable>: @unchecked Sendable {
  // Unchecked: `state` is read and written only while `mutex` is held.
  #if os(Linux) && !FORCE_APPLE_BRANCHES
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Unchecked for exclusivity at run time: only ever reached under `mutex`, which already
    /// makes every access exclusive.
    @exclusivity(unchecked) @usableFromInline var state: State

    @usableFromInline
    init(_ state: State) {
      self.state = state
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      var attributes = pthread_mutexattr_t()
      pthread_mutexattr_init(&attributes)
      pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
      pthread_mutex_init(mutex, &attributes)
      pthread_mutexattr_destroy(&attributes)
    }

    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deinitialize(count: 1)
      mutex.deallocate()
    }

    /// Runs `body` with the state, holding the lock.
    @inlinable
    func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
      let status = pthread_mutex_lock(mutex)
      guard status == 0 else {
        fatalError("Recursive call to lock an Observable's state (pthread status \(status))")
      }
      defer { pthread_mutex_unlock(mutex) }
      return body(&state)
    }

    /// Runs `body` with the state if the lock is free now; returns `nil` without waiting if not.
    @inlinable
    func withLockIfAvailable<Result: Sendable>(_ body: (inout State) -> Result) -> Result? {
      guard pthread_mutex_trylock(mutex) == 0 else { return nil }
      defer { pthread_mutex_unlock(mutex) }
      return body(&state)
    }
  #else
    @usableFromInline let mutex: Mutex<State>

    @usableFromInline
    init(_ state: State) {
      mutex = Mutex(state)
    }

    /// Runs `body` with the state, holding the lock.
    @inlinable
    func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
      mutex.withLock { body(&$0) }
    }

    /// Runs `body` with the state if the lock is free now; returns `nil` without waiting if not.
    @inlinable
    func withLockIfAvailable<Result: Sendable>(_ body: (inout State) -> Result) -> Result? {
      mutex.withLockIfAvailable { body(&$0) }
    }
  #endif
}
