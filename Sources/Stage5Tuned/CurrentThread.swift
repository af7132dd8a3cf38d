import Dispatch

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Names the thread that runs this code, so that an observable can tell a set made by one of
/// its own handlers, on the delivering thread, from a set made by another thread.
@usableFromInline
enum CurrentThread {
  /// This thread's identity: never 0, and no two running threads share it. (A thread that
  /// has ended may leave its identity to a new one.)
  @inlinable
  static var id: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}

/// Where a turn handed on is taken up: a dispatch queue, whose threads are not the few that
/// Swift's tasks share, so that setters waiting on those (up to ``Observable/longestWait``)
/// never keep a handed-on turn from starting.
@usableFromInline
enum HandedOnTurns {
  /// Concurrent: one observable's turn never waits for another's.
  @usableFromInline static let queue = DispatchQueue(
    label: "Stage5Tuned.handed-on-turns", attributes: .concurrent)
}

/// Tells whether this thread is delivering a change, of any observable: such a thread never
/// waits behind a full queue, since the delivery it is in might be what another waits for.
///
/// Each thread's count sits in memory of its own, found through a thread-specific key once a
/// delivery and freed when the thread ends: one look-up a delivery, where setting the key on
/// the way in and out again cost three calls into the C library.
@usableFromInline
enum DeliveringThread {
  /// The key to each thread's count of the deliveries it is inside.
  @usableFromInline static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { free($0) }
    return key
  }()

  /// Whether this thread is inside a delivery.
  @inlinable static var isCurrent: Bool {
    (pthread_getspecific(key)?.assumingMemoryBound(to: Int.self).pointee ?? 0) > 0
  }

  /// Runs `body` counted as a delivery of this thread.
  @inlinable
  static func inside<Result>(_ body: () -> Result) -> Result {
    let depth = pthread_getspecific(key)?.assumingMemoryBound(to: Int.self) ?? makeDepth()
    depth.pointee += 1
    defer { depth.pointee -= 1 }
    return body()
  }

  /// This thread's count, made at its first delivery.
  @usableFromInline
  static func makeDepth() -> UnsafeMutablePointer<Int> {
    let depth = malloc(MemoryLayout<Int>.size)!.bindMemory(to: Int.self, capacity: 1)
    depth.initialize(to: 0)
    pthread_setspecific(key, depth)
    return depth
  }
}
