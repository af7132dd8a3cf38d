import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A child process in a process group of its own, whose output is read through pipes: what
/// grading and `--watch` start, so that everything the child starts can be stopped with it.
///
/// `posix_spawn` with `POSIX_SPAWN_SETPGROUP` exists on Linux and macOS alike (not on tvOS
/// and watchOS, nor for apps on iOS: there it throws); Foundation's `Process` puts its child in
/// the parent's group, so a `fork()` in the learner's code would outlive a kill of the child
/// alone.
package final class ChildProcess {
  /// How a child ended.
  package enum Ending: Equatable, Sendable {
    case exited(Int32)
    case signaled(Int32)
  }

  /// The child's process id, which is also its process group's id.
  package let pid: pid_t
  /// The read ends of its pipes, in the order of the descriptors asked for.
  private var pipes: [Int32]
  /// How it ended, once it has.
  package private(set) var ending: Ending?

  /// Starts `arguments[0]` with `arguments`, standard input from `/dev/null`, in a new process
  /// group, with one pipe per entry of `outputs`: each lists the child's descriptors that write
  /// to it (`[[1, 2], [3]]`: standard output and error to the first pipe, descriptor 3 to the
  /// second).
  package init(_ arguments: [String], environment: [String: String], outputs: [[Int32]]) throws {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
      // posix_spawn is unavailable there (spawn.h: __API_UNAVAILABLE(watchos, tvos)), and an
      // app may not start processes: grading in children is for the command line.
      throw SpawnError(code: ENOSYS)
    #else
      // One spawn at a time in this process: a pipe is close-on-exec only once fcntl has run, and
      // a child spawned by another thread in between would inherit it and hold it open.
      Self.spawning.lock()
      defer { Self.spawning.unlock() }
      var readEnds: [Int32] = []
      var writeEnds: [Int32] = []
      for _ in outputs {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SpawnError(code: errno) }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        readEnds.append(ends[0])
        writeEnds.append(ends[1])
      }
      defer { for end in writeEnds { close(end) } }

      #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
      #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
      #endif
      posix_spawn_file_actions_init(&actions)
      posix_spawnattr_init(&attributes)
      defer {
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
      }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      for (writeEnd, descriptors) in zip(writeEnds, outputs) {
        for descriptor in descriptors {
          posix_spawn_file_actions_adddup2(&actions, writeEnd, descriptor)
        }
      }
      // Its own process group (0: the child's pid), so that killing the group kills whatever
      // the child started too.
      posix_spawnattr_setpgroup(&attributes, 0)
      // No signal blocked, and the interrupting ones at their default: a child inherits both,
      // and a test runner's thread may block SIGINT and SIGTERM.
      var noSignals = sigset_t()
      sigemptyset(&noSignals)
      posix_spawnattr_setsigmask(&attributes, &noSignals)
      var interrupting = sigset_t()
      sigemptyset(&interrupting)
      for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&interrupting, signal) }
      posix_spawnattr_setsigdefault(&attributes, &interrupting)
      posix_spawnattr_setflags(
        &attributes,
        Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

      let argv = arguments.map { strdup($0) } + [nil]
      let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer {
        for pointer in argv + envp { free(pointer) }
      }
      var child: pid_t = 0
      var result = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
      // An executable just written (a compiled exercise, a test's stand-in) is "busy" while a
      // process forked elsewhere at that moment still holds the writer's descriptor: wait a
      // little for it to close, as Go's os/exec does.
      for _ in 0..<50 where result == ETXTBSY {
        usleep(20_000)
        result = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
      }
      guard result == 0 else {
        for end in readEnds { close(end) }
        throw SpawnError(code: result)
      }
      pid = child
      pipes = readEnds
    #endif
  }

  private static let spawning = NSLock()

  deinit {
    for end in pipes where end >= 0 { close(end) }
  }

  /// Waits up to `milliseconds` for output, and returns what each pipe had, by index, at most
  /// `maximum` bytes a pipe.
  package func read(waiting milliseconds: Int32, maximum: Int = 1 << 20) -> [Data] {
    var descriptors = pipes.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
    var chunks: [Data] = []
    // Foundation copies with memcpy even in a debug build, where a byte loop over an array
    // read 160 MB of a learner's output slower than the learner's code wrote it.
    var buffer = Data(count: 1 << 16)
    for index in pipes.indices {
      var chunk = Data()
      while pipes[index] >= 0, chunk.count < maximum {
        let count = buffer.withUnsafeMutableBytes {
          Foundation.read(pipes[index], $0.baseAddress, $0.count)
        }
        if count > 0 {
          chunk.append(buffer.prefix(count))
        } else {
          if count == 0 {
            // End of file: every writer is gone.
            close(pipes[index])
            pipes[index] = -1
          }
          break
        }
      }
      chunks.append(chunk)
    }
    return chunks
  }

  /// The first pipe's output, read as ``outputs(keeping:waiting:each:stopIf:)`` reads every
  /// pipe until the child ends: its last 256 KiB (enough to find a compiler's errors in), each
  /// chunk handed to `each`; `nil` once `stop()`, asked after each read, says to stop.
  package func output(each: (Data) -> Void = { _ in }, stopIf stop: () -> Bool) -> TailBuffer? {
    outputs(each: { each($0[0]) }, stopIf: stop)?[0]
  }

  /// Reads every pipe until the child ends, waiting up to `milliseconds` a read, keeping the
  /// last `capacity` bytes of each, and handing each read's chunks, by pipe, to `each`; `nil`
  /// once `stop()`, asked after each read, says to stop.
  package func outputs(
    keeping capacity: Int = 256 * 1024, waiting milliseconds: Int32 = 100,
    each: ([Data]) -> Void = { _ in }, stopIf stop: () -> Bool
  ) -> [TailBuffer]? {
    var kept = pipes.map { _ in TailBuffer(capacity: capacity) }
    while true {
      // Whatever a child wrote before it ended is still in the pipes, read once more.
      let ended = checkEnding() != nil
      let chunks = read(waiting: ended ? 0 : milliseconds)
      for (index, chunk) in chunks.enumerated() { kept[index].append(chunk) }
      each(chunks)
      if ended { return kept }
      if stop() { return nil }
    }
  }

  /// Checks, without waiting, whether the child has ended; reaps it if so.
  @discardableResult
  package func checkEnding() -> Ending? {
    ending ?? reap(options: WNOHANG)
  }

  /// Kills the child's whole process group with `SIGKILL`, which nothing can catch, then reaps
  /// the child.
  package func killGroup() {
    kill(-pid, SIGKILL)
    if ending == nil { reap(options: 0) }
  }

  /// Waits for the child as `waitpid`'s `options` say, and notes how it ended if it has.
  @discardableResult
  private func reap(options: Int32) -> Ending? {
    var status: Int32 = 0
    guard waitpid(pid, &status, options) == pid else { return nil }
    let signal = status & 0x7f
    ending = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    return ending
  }
}

/// Why a child could not be started: an `errno` value, and the system's words for it.
package struct SpawnError: Error, CustomStringConvertible {
  package var code: Int32
  package var description: String { String(cString: strerror(code)) }
}
