#if os(macOS) || os(Linux)
  import Foundation
  import TestSupport
  import Testing

  /// Compiles `snippet` in Swift 6 mode, with stage 5's lesson sources beside it when
  /// `withStage5` is set, and returns the compiler's diagnostics, or `nil` if it compiled.
  /// Isolation is checked by a pass after type checking, so the snippet is compiled to SIL.
  /// With `asAnApp`, only the lesson's copy list is compiled beside it, with no package name,
  /// as an app target that copied it would be; with `copying`, those files of the package are
  /// compiled beside it instead.
  private func diagnostics(
    compiling snippet: String, withStage5: Bool = false, asAnApp: Bool = false,
    copying: [String] = [], flags: [String] = []
  ) throws -> String? {
    let sources = packageRoot.appending(path: "Sources/Stage5Concurrency")
    var files = copying.map { packageRoot.appending(path: $0).path }
    if copying.isEmpty && (withStage5 || asAnApp) {
      files = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        .filter { $0.hasSuffix(".swift") && (!asAnApp || lessonCopyList.contains($0)) }
        .map { sources.appending(path: $0).path }
    }
    return try compilerDiagnostics(
      compiling: snippet, with: files,
      flags: (asAnApp ? [] : ["-package-name", "Snippet"]) + [
        "-wmo", "-emit-sil", "-o", "/dev/null",
      ]
        + flags)
  }

  /// The files of `Sources/Stage5Concurrency` that an app copies: all but the test hooks.
  let lessonCopyList: Set<String> = [
    "Change.swift", "Locked.swift", "Observable.swift", "ObservableOptions.swift",
    "ObservationToken.swift", "Queue.swift", "Subscription.swift",
  ]

  /// A step's class as chapter 5 shows it: its source in `Chapter5Steps.swift`, from `start` to
  /// the first `end` after it.
  private func stepSource(from start: String, to end: String) throws -> String {
    let source = try String(
      contentsOf: packageRoot.appending(path: "Sources/Lab/TutorialKit/Chapter5Steps.swift"),
      encoding: .utf8)
    let from = try #require(source.range(of: start)).lowerBound
    let to = try #require(source.range(of: end, range: from..<source.endIndex)).lowerBound
    return String(source[from..<to])
  }

  /// Hands a value to code that may run on another thread: it must be `Sendable`.
  private let shareStep1 = """
    func share<T: Sendable>(_ value: T) {}
    func start() { share(QueuedObservable(0)) }
    """

  /// Step 3: an owner that is a plain class, refused by stage 5's `observe`.
  private let plainOwner = #"""
    final class PlainLabel { var text = "" }

    @MainActor final class PlainScreen {
      let label = PlainLabel()
      let score = Observable(0)

      func start() {
        score.observe(label) { label, change in label.text = "\(change.newValue)" }
      }
    }
    """#

  /// What the compiler says to ``plainOwner``: chapter 5c quotes it.
  private let plainOwnerError =
    "error: type 'PlainLabel' does not conform to the 'Sendable' protocol"

  /// Step 2: why not an actor. Every use from outside is `await`, and a handler written on the
  /// main actor cannot be handed to it.
  private let actorObservable = #"""
    actor ActorObservable {
      var value = 0
      var handlers: [(Int) -> Void] = []

      func observe(_ handler: @escaping (Int) -> Void) { handlers.append(handler) }
    }

    @MainActor final class ActorScreen {
      var text = ""
      let score = ActorObservable()

      func set() { score.value = 1 }
      func start() async { await score.observe { self.text = "\($0)" } }
    }
    """#

  /// What the compiler says to ``actorObservable``: chapter 5 quotes both.
  private let actorErrors = [
    "error: actor-isolated property 'value' can not be mutated from the main actor",
    "error: sending value of non-Sendable type '(Int) -> ()' risks causing data races",
  ]

  /// Step 4: the designs not taken, measured. The observable, with two names or with two
  /// overloads told apart by a label.
  private let box = """
    final class Box: Sendable {
      func watch(isolation: isolated any Actor = #isolation, _ handler: @escaping (Int) -> Void) {}
      func watchOnAnyThread(_ handler: @escaping @Sendable (Int) -> Void) {}
      func watch(onAnyThread handler: @escaping @Sendable (Int) -> Void) {}
    }
    @MainActor final class Screen {
      var text = ""
      let box = Box()
      func start() { %@ }
    }
    """

  @Suite("Chapter 5's claims, compiled here")
  struct Chapter5CompileTests {
    @Test("step 1's observable is not Sendable: a plain class shared is refused")
    func stepOneIsNotSendable() throws {
      let source = try stepSource(
        from: "package final class QueuedObservable", to: "// MARK: - Step 2")
      let errors = try diagnostics(compiling: source + shareStep1)
      #expect(
        errors?.contains("type 'QueuedObservable<Int>' does not conform to the 'Sendable'") == true,
        "\(errors ?? "it compiled")")
    }

    @Test("with -default-isolation MainActor (SE-0466), the same class is Sendable, unchanged")
    func defaultMainActorIsolation() throws {
      let source = try stepSource(
        from: "package final class QueuedObservable", to: "// MARK: - Step 2")
      let errors = try diagnostics(
        compiling: source + shareStep1, flags: ["-default-isolation", "MainActor"])
      #expect(errors == nil, "\(errors ?? "")")
    }

    @Test("step 2's class is step 1's with @MainActor, nothing else")
    func stepTwoIsStepOneOnTheMainActor() throws {
      let one = try stepSource(
        from: "package final class QueuedObservable", to: "// MARK: - Step 2")
      let two = try stepSource(
        from: "@MainActor package final class MainActorObservable", to: "// MARK: - Step 3")
      #expect(
        "@MainActor " + one.replacing("QueuedObservable", with: "MainActorObservable") == two)
    }

    @Test("stage 5: an owner that is a plain class is refused, with the error chapter 5c shows")
    func plainOwnerIsRefused() throws {
      let errors = try diagnostics(compiling: plainOwner, withStage5: true)
      #expect(errors?.contains(plainOwnerError) == true, "\(errors ?? "it compiled")")
      let chapter = try MarkdownDocument("Tutorial/05c-handlers-on-the-main-actor.md")
      #expect(chapter.text.contains(plainOwnerError))
    }

    @Test("step 2: an actor makes every set an await, and cannot take a main-actor handler")
    func actorIsRefused() throws {
      let chapter = try MarkdownDocument("Tutorial/05-concurrency-age.md")
      // The second error comes from a later pass, which runs only once the first is gone.
      let withoutTheSet = actorObservable.replacingOccurrences(
        of: "  func set() { score.value = 1 }\n", with: "")
      #expect(withoutTheSet != actorObservable)
      for (snippet, error) in zip([actorObservable, withoutTheSet], actorErrors) {
        let errors = try diagnostics(compiling: snippet)
        #expect(errors?.contains(error) == true, "\(errors ?? "it compiled")")
        #expect(chapter.text.contains(error))
      }
    }

    @Test("step 4: two names work: a trailing closure reaches the isolated one")
    func twoNamesWork() throws {
      let twoNames = box.replacingOccurrences(
        of: "  func watch(onAnyThread handler: @escaping @Sendable (Int) -> Void) {}\n", with: "")
      let errors = try diagnostics(
        compiling: twoNames.replacingOccurrences(
          of: "%@", with: #"box.watch { self.text = "\($0)" }"#))
      #expect(errors == nil, "\(errors ?? "")")
    }

    @Test("step 4: overloads told apart by a label: with the label written, it works")
    func explicitLabelWorks() throws {
      let errors = try diagnostics(
        compiling: box.replacingOccurrences(
          of: "%@", with: #"box.watch(isolation: MainActor.shared) { self.text = "\($0)" }"#))
      #expect(errors == nil, "\(errors ?? "")")
    }

    @Test(
      "the lesson's copy list compiles in an app target: Swift 6, no package name, no test hooks"
    )
    func copyListCompilesAsAnApp() throws {
      let sources = packageRoot.appending(path: "Sources/Stage5Concurrency")
      let all = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        .filter { $0.hasSuffix(".swift") }
      #expect(
        Set(all).subtracting(lessonCopyList) == ["Observable+Testing.swift"],
        "every file of the lesson but its test hooks is on the copy list")
      let errors = try diagnostics(
        compiling: """
          @MainActor final class Label { var text = "" }
          @MainActor final class Screen {
            let label = Label()
            let score = Observable(0)
            func start() {
              score.observe(label, options: .initial) { label, change in
                label.text = "\\(change.newValue)"
              }
            }
          }
          """, asAnApp: true)
      #expect(errors == nil, "\(errors ?? "")")
    }

    @Test(
      "step 3's SharedObservable compiles alone in an app target: Swift 6, no package name"
    )
    func sharedObservableCompilesAsAnApp() throws {
      let path = "Sources/Lab/TutorialKit/Chapter5SharedObservable.swift"
      let source = try String(contentsOf: packageRoot.appending(path: path), encoding: .utf8)
      #expect(
        source.firstMatch(of: /\bpackage (func|var|let|init|final|struct|enum|static)\b/) == nil,
        "the reader's copy has no package access")
      let errors = try diagnostics(
        compiling: """
          final class Label: Sendable { let name = "score label" }
          func start() {
            let score = SharedObservable(0)
            let label = Label()
            let subscription = score.observe(label) { label, value in print(label.name, value) }
            score.set(1)
            score.cancel(subscription)
            let shared: any Sendable = score
            _ = shared
          }
          """, asAnApp: true, copying: [path])
      #expect(errors == nil, "\(errors ?? "")")
    }

    @Test("step 4: overloads told apart by a label: a trailing closure picks the @Sendable one")
    func trailingClosurePicksSendable() throws {
      let errors = try diagnostics(
        compiling: box.replacingOccurrences(of: "%@", with: #"box.watch { self.text = "\($0)" }"#))
      #expect(
        errors?.contains("can not be mutated from a Sendable closure") == true,
        "\(errors ?? "it compiled")")
    }
  }
#endif
