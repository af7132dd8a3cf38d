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

/// Tells whether this thread is delivering a change, of any observable: such a thread never
/// waits behind a full queue, since the delivery it is in might be what another waits for.
@usableFromInline
enum DeliveringThread {
  /// A thread-local count of the deliveries this thread is inside: `nil` for none.
  @usableFromInline static let depth: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Whether this thread is inside a delivery.
  @inlinable static var isCurrent: Bool { pthread_getspecific(depth) != nil }

  /// Runs `body` counted as a delivery of this thread.
  @inlinable
  static func inside<Result>(_ body: () -> Result) -> Result {
    let outer = pthread_getspecific(depth)
    pthread_setspecific(depth, UnsafeRawPointer(bitPattern: Int(bitPattern: outer) + 1))
    defer { pthread_setspecific(depth, outer) }
    return body()
  }
}
