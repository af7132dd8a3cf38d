import TestSupport
import Testing
import TutorialKit

/// What a program that locks a `Mutex` twice on one thread writes on standard error before it
/// stops, on this platform, or `nil` when it writes nothing there.
///
/// - Linux: the Synchronization module's `Mutex` is a futex; `lock()` calls
///   `fatalError("Recursive call to lock Mutex")` when the kernel answers `EDEADLK`
///   (swiftlang/swift, `stdlib/public/Synchronization/Mutex/LinuxImpl.swift`). Measured here:
///   the message is on standard error.
/// - Apple platforms: `Mutex` calls `os_unfair_lock_lock`
///   (`stdlib/public/Synchronization/Mutex/DarwinImpl.swift`), which, on a lock its own thread
///   holds, calls `_os_unfair_lock_recursive_abort`: `__LIBPLATFORM_CLIENT_CRASH__` with
///   "Trying to recursively lock an os_unfair_lock" (apple/darwin-libplatform,
///   `src/os/lock.c`). That macro sets the crash report's message and traps; nothing is written
///   on standard error, so only the exit is checked there.
private let recursiveLockMessage: String? = {
  #if os(Linux) && !FORCE_APPLE_BRANCHES
    "Recursive call to lock Mutex"
  #else
    nil
  #endif
}()

@Suite("Chapter 5's steps do what the chapter says")
struct Chapter5StepsTests {
  @Test("step 2 done wrong: a handler that reads the value stops the program")
  func handlersUnderTheLockStopTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let observable = LockedWhileCalling(0)
      observable.observe { _ in _ = observable.value }
      observable.value = 1
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    if let recursiveLockMessage {
      #expect(message.contains(recursiveLockMessage))
    }
  }

  @Test("step 2 done right: the same handler reads the value")
  func copyThenCallLetsAHandlerRead() {
    let observable = CopyThenCall(0)
    let seen = CopyThenCall(-1)
    observable.observe { _ in seen.value = observable.value }
    observable.value = 1
    #expect(seen.value == 1)
  }
}

/// The chapters that show stage 5's lesson: 5c arrives at it, 5b reads the rest.
let stage5Chapters = [
  "Tutorial/05c-handlers-on-the-main-actor.md", "Tutorial/05b-stage-5-whole.md",
]

@Suite("Chapters 5c and 5b show stage 5 whole")
struct Stage5WholeTests {
  @Test(
    "every line of code of Sources/Stage5Concurrency, its test hooks aside, is in a block of chapter 5c or 5b",
    arguments: swiftFiles(under: "Sources/Stage5Concurrency").map(\.lastPathComponent)
      .filter { $0 != "Observable+Testing.swift" })
  func everyLineShown(file: String) throws {
    let path = "Sources/Stage5Concurrency/\(file)"
    let source = try String(contentsOf: packageRoot.appending(path: path), encoding: .utf8)
    let lines = withoutPerformanceAttributes(
      source.split(separator: "\n", omittingEmptySubsequences: false))
    var shown = Set<Int>()
    for chapter in stage5Chapters {
      for block in try MarkdownDocument(chapter).fencedBlocks where block.marker == "from: \(path)"
      {
        if let range = lineRange(of: block.content, in: source) { shown.formUnion(range) }
      }
    }
    let missing = lines.indices.filter { index in
      let line = lines[index].trimmingCharacters(in: .whitespaces)
      return !line.isEmpty && !line.hasPrefix("//") && !shown.contains(index)
    }
    #expect(
      missing.isEmpty,
      "\(path): lines not shown: \(missing.map { "\($0 + 1): \(lines[$0])" }.joined(separator: "\n"))"
    )
  }
}
