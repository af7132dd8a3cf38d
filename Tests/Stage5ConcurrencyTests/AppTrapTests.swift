#if os(macOS) || os(Linux)
  import Foundation
  import Stage5Concurrency
  import TestSupport
  import Testing

  // The traps of chapter 9's and 5c's self-checks: what stage 5 does in an app, or a
  // command-line tool, written the way a first use writes it. Each question's explanation says
  // what a test here shows.

  /// Stage 5's sources, compiled beside a snippet or a program.
  private func stageFiles() throws -> [String] {
    let sources = packageRoot.appending(path: "Sources/Stage5Concurrency")
    return try FileManager.default.contentsOfDirectory(atPath: sources.path)
      .filter { $0.hasSuffix(".swift") }.map { sources.appending(path: $0).path }
  }

  /// What the compiler says of `snippet`, compiled with stage 5's sources to SIL, where
  /// isolation is checked, warnings made errors so that they are reported; `nil` if it compiled
  /// with none.
  private func diagnostics(compiling snippet: String) throws -> String? {
    try compilerDiagnostics(
      compiling: snippet, with: stageFiles(),
      flags: [
        "-package-name", "Snippet", "-wmo", "-emit-sil", "-o", "/dev/null", "-warnings-as-errors",
      ])
  }

  @Suite("Stage 5 in an app: the traps a first use falls into")
  struct AppTrapTests {
    @Test("a token not kept ends its subscription at once: its handler is never called")
    func tokenNotKept() {
      let log = SharedLog<Int>()
      let score = Observable(0)
      _ = score.observeOnAnyThread { log.append($0.newValue) }
      score.value = 1
      #expect(log.entries.isEmpty)
      #expect(score.observerCount == 0)
    }

    @Test("a subscription as a statement is only warned of, as an unused result; _ = silences it")
    func unusedResultIsOnlyAWarning() throws {
      let statement = "func start(_ score: Observable<Int>) { score.observeOnAnyThread { _ in } }"
      let warning = try #require(try diagnostics(compiling: statement))
      #expect(
        warning.contains("result of call to 'observeOnAnyThread(options:_:)' is unused"),
        "\(warning)")
      // Made an error by -warnings-as-errors, and the only one: without the flag it compiles.
      #expect(
        try compilerDiagnostics(
          compiling: statement, with: stageFiles(),
          flags: ["-package-name", "Snippet", "-typecheck"]) == nil)
      let discarded =
        "func start(_ score: Observable<Int>) { _ = score.observeOnAnyThread { _ in } }"
      #expect(try diagnostics(compiling: discarded) == nil)
    }

    @Test("observe called outside any actor does not compile: #isolation is nil there")
    func observeOutsideAnActor() throws {
      let outside = "nonisolated func start(_ score: Observable<Int>) -> ObservationToken {"
      let errors = try #require(
        try diagnostics(compiling: outside + " score.observe { _ in } }"))
      #expect(
        errors.contains("'nil' is not compatible with expected argument type 'any Actor'"),
        "\(errors)")
      #expect(try diagnostics(compiling: outside + " score.observeOnAnyThread { _ in } }") == nil)
    }

    @Test("a tool whose main thread blocks gets no main-actor delivery, though the setter returned")
    func blockedMainThread() throws {
      // Top-level code runs on the main thread, which runs the main actor's work only between
      // statements it awaits: blocked in wait(), it runs none. The timeout only bounds the test.
      let program = """
        import Foundation
        @MainActor final class Label { var text = "" }
        let score = Observable(0)
        let label = Label()
        let delivered = DispatchSemaphore(value: 0)
        score.observe(label) { label, change in
          label.text = "\\(change.newValue)"
          delivered.signal()
        }
        let setterReturned = DispatchSemaphore(value: 0)
        Thread {
          score.value = 1
          setterReturned.signal()
        }.start()
        setterReturned.wait()
        print("the setter returned")
        let arrived = delivered.wait(timeout: .now() + 0.5) == .success
        print("delivered while the main thread waited: \\(arrived)")
        """
      let run = try programOutput(running: program, with: stageFiles())
      #expect(run.status == 0, "\(run.output)")
      #expect(
        run.output == "the setter returned\ndelivered while the main thread waited: false\n")
    }

    #if os(Linux) && !FORCE_APPLE_BRANCHES
      // Linux's: its main actor runs on the main queue, which dispatch drains from another
      // thread once top-level code has awaited. Nothing is said here of Apple platforms.
      @Test("on Linux, main-actor work after a top-level await is off the main thread")
      func mainActorOffTheMainThread() throws {
        let program = """
          import Foundation
          await Task.yield()
          await MainActor.run {
            print("Thread.isMainThread: \\(Thread.isMainThread)")
            MainActor.assumeIsolated { print("MainActor.assumeIsolated: passed") }
            dispatchPrecondition(condition: .onQueue(.main))
            print("dispatchPrecondition(condition: .onQueue(.main)): passed")
          }
          """
        let run = try programOutput(running: program)
        #expect(run.status == 0, "\(run.output)")
        #expect(
          run.output
            == "Thread.isMainThread: false\nMainActor.assumeIsolated: passed\n"
            + "dispatchPrecondition(condition: .onQueue(.main)): passed\n")
      }
    #endif
  }
#endif
