#if os(macOS) || os(Linux)
  import Foundation
  import TestSupport
  import Testing

  /// Compiles a snippet together with stage 5's sources, as one module, and returns the
  /// compiler's diagnostics, or `nil` if it compiled. Diagnostics about isolation come from a
  /// later pass than type checking, so the snippet is compiled to SIL, not only type-checked.
  private func diagnostics(compiling snippet: String, swiftVersion: Int = 6) throws -> String? {
    #if TUNED
      let module = "Stage5Tuned"
    #else
      let module = "Stage5Concurrency"
    #endif
    let sources = packageRoot.appending(path: "Sources/\(module)")
    let files = try FileManager.default.contentsOfDirectory(atPath: sources.path)
      .filter { $0.hasSuffix(".swift") }.map { sources.appending(path: $0).path }
    return try compilerDiagnostics(
      compiling: snippet, with: files, swiftVersion: swiftVersion,
      flags: ["-package-name", "Snippet", "-wmo", "-emit-sil", "-o", "/dev/null"])
  }

  private let screen = """
    @MainActor final class Label { var text = "" }
    actor Elsewhere {}
    @MainActor final class Screen {
      let label = Label()
      let score = Observable(0)
      var tokens: [ObservationToken] = []
      func start() async {
        %@
      }
    }
    """

  /// The spelling the tutorial teaches, in a `@MainActor` type whose handler touches the label.
  private let rightSpelling =
    "score.observe(label) { label, change in label.text = \"\\(change.newValue)\" }"

  /// Other spellings of it, each of which would call the handler off the main actor, and the
  /// error the compiler must give.
  private let wrongSpellings: [(code: String, error: String)] = [
    (
      "score.observeOnAnyThread(label) { label, change in label.text = \"\\(change.newValue)\" }",
      "can not be mutated from a Sendable closure"
    ),
    (
      "tokens.append(score.observeOnAnyThread { _ in self.label.text = \"\" })",
      "can not be mutated from a Sendable closure"
    ),
    (
      "score.observe(label, isolation: nil) { label, change in label.text = \"\\(change.newValue)\" }",
      "'nil' is not compatible with expected argument type 'any Actor'"
    ),
    (
      "await score.observe(label, isolation: Elsewhere()) { label, _ in label.text = \"\" }",
      "risks causing data races"
    ),
  ]

  /// Chapter 5's reasons for two names, each a small program of its own (compiled beside stage
  /// 5's sources, which it does not use), and the error the compiler gives it.
  private let designsNotTaken: [(code: String, error: String)] = [
    (
      // An overload taking a @MainActor closure beside the @Sendable one cannot be declared.
      """
      final class Box: Sendable {
        func watch(_ handler: @escaping @Sendable (Int) -> Void) {}
        func watch(_ handler: @escaping @MainActor (Int) -> Void) {}
      }
      """,
      "invalid redeclaration of 'watch'"
    ),
    (
      // Two overloads named alike, the isolated one told apart by a defaulted label: given a
      // trailing closure, the compiler picks the @Sendable one and refuses the label's update.
      """
      final class Box: Sendable {
        func watch(_ handler: @escaping @Sendable (Int) -> Void) {}
        func watch(isolation: isolated any Actor = #isolation, _ handler: @escaping (Int) -> Void) {}
      }
      @MainActor final class Screen {
        var text = ""
        let box = Box()
        func start() { box.watch { self.text = "\\($0)" } }
      }
      """,
      "can not be mutated from a Sendable closure"
    ),
  ]

  @Suite("Stage 5 at compile time: a main-actor handler cannot be sent off the main actor")
  struct CompileTimeTests {
    @Test("the tutorial's spelling compiles: the handler is isolated to the main actor")
    func rightSpellingCompiles() throws {
      let errors = try diagnostics(
        compiling: screen.replacingOccurrences(of: "%@", with: rightSpelling))
      #expect(errors == nil, "\(errors ?? "")")
    }

    @Test(
      "every spelling that would run it off the main actor is refused",
      arguments: wrongSpellings.indices)
    func wrongSpellingsDoNotCompile(index: Int) throws {
      try expectRefused(wrongSpellings[index], in: screen)
    }

    @Test(
      "chapter 5's designs not taken: one overload cannot be declared, the other picks @Sendable",
      arguments: designsNotTaken.indices)
    func designsNotTakenFail(index: Int) throws {
      try expectRefused(designsNotTaken[index], in: "%@")
    }

    // What the `isolation:` parameter's doc warns of: Swift 6 refuses another actor, and the
    // Swift 5 language mode lets it through without a word.
    @Test("passing another actor as isolation: refused in Swift 6, silent in the Swift 5 mode")
    func anotherActorInSwift5Mode() throws {
      let code = """
        actor Elsewhere {}
        @MainActor final class Label { var text = "" }
        @MainActor func start(_ score: Observable<Int>, _ label: Label) async -> ObservationToken {
          await score.observe(isolation: Elsewhere()) { change in label.text = "\\(change.newValue)" }
        }
        """
      let swift6 = try diagnostics(compiling: code)
      #expect(swift6?.contains("risks causing data races") == true, "\(swift6 ?? "it compiled")")
      let swift5 = try diagnostics(compiling: code, swiftVersion: 5)
      #expect(swift5 == nil, "\(swift5 ?? "")")
    }

    /// Compiles `code`, put in `template` at `%@`, and expects the compiler's `error`.
    private func expectRefused(
      _ snippet: (code: String, error: String), in template: String
    ) throws {
      let (code, error) = snippet
      let errors = try diagnostics(compiling: template.replacingOccurrences(of: "%@", with: code))
      let refused = errors?.contains(error) == true
      #expect(refused, "\(code): expected \"\(error)\", got \(errors ?? "no error")")
    }
  }
#endif
