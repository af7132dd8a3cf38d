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
