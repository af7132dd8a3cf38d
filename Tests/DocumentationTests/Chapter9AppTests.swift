#if os(macOS) || os(Linux)
  import Foundation
  import TestSupport
  import Testing

  /// Chapter 9's app, and the traps the chapter warns of on the way to it.
  private let chapter = "Tutorial/09-in-your-app.md"

  /// The URL chapter 9's manifest names: the tests point it at a local copy of this package.
  private let shownURL = "https://example.com/your-copy/ObserverEvolution.git"

  /// The dependency as chapter 9's manifest spells it.
  private let shownDependency = ".package(url: \"\(shownURL)\", branch: \"main\")"

  /// A file of chapter 9's app: a Swift block after `<!-- file: PATH -->`, PATH relative to
  /// the reader's package folder.
  private struct AppFile {
    var path: String
    var content: String
    var line: Int
  }

  /// The app's files, as the chapter shows them.
  private func appFiles() throws -> [AppFile] {
    let files = try MarkdownDocument(chapter).fencedBlocks.compactMap { block -> AppFile? in
      guard let marker = block.marker, marker.hasPrefix("file: ") else { return nil }
      return AppFile(
        path: String(marker.dropFirst("file: ".count)), content: block.content, line: block.line)
    }
    #expect(Set(files.map(\.path)).count == files.count, "\(chapter): one block per file")
    return files
  }

  /// The app's file at `path`.
  private func appFile(_ path: String) throws -> AppFile {
    try #require(try appFiles().first { $0.path == path }, "\(chapter) shows no \(path)")
  }

  /// Chapter 9's prose, each run of white space one space: a quote may break across lines.
  private func chapterText() throws -> String {
    collapsed(try MarkdownDocument(chapter).text)
  }

  /// How long a `swift` command on the app may take before it is taken for hung: it builds
  /// stage 5 tuned and the app on a busy machine, and is stopped only when it hangs.
  private let buildTimeLimit = Duration.seconds(1800)

  /// Runs `arguments` in `folder`, or in this process's folder, and requires that it succeeds.
  ///
  /// - Returns: What it printed on standard output.
  @discardableResult
  private func succeed(_ arguments: [String], in folder: URL? = nil) throws -> String {
    let run = try ProcessRun(arguments, in: folder, timeLimit: buildTimeLimit)
    try #require(
      run.status == 0, "\(arguments.joined(separator: " ")) failed:\n\(run.outputAndError)")
    return run.output
  }

  /// A git repository at `folder/name` that holds this package's working tree as it is now,
  /// in one commit on `main`: every tracked file, changed or not, and every new file git does
  /// not ignore. So the app is built against the code under test, uncommitted work included,
  /// and never against a commit, a branch or a tag of the package's own repository.
  private func snapshot(into folder: URL, named name: String) throws -> URL {
    let copy = folder.appending(path: name)
    let listed = try succeed([
      "git", "-C", packageRoot.path, "ls-files", "-z", "--cached", "--others", "--exclude-standard",
    ])
    for path in listed.split(separator: "\0").map(String.init) {
      let source = packageRoot.appending(path: path)
      // A tracked file deleted in the working tree is left out, as it is from the tree.
      guard (try? source.checkResourceIsReachable()) == true else { continue }
      let destination = copy.appending(path: path)
      try FileManager.default.createDirectory(
        at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: source, to: destination)
    }
    let git = ["git", "-C", copy.path]
    try succeed(git + ["init", "--quiet", "--initial-branch=main"])
    try succeed(git + ["add", "--all"])
    try succeed(
      git + [
        "-c", "user.name=Chapter 9", "-c", "user.email=chapter9@example.com", "-c",
        "commit.gpgsign=false", "commit", "--quiet", "--message", "The working tree",
      ])
    return copy
  }

  /// Writes the app's files into `folder`, exactly as shown, but for the dependency of the
  /// manifest, replaced by `dependency`.
  private func pasteApp(into folder: URL, dependency: String) throws {
    for file in try appFiles() {
      var content = file.content
      if file.path == "Package.swift" {
        try #require(
          content.ranges(of: shownDependency).count == 1,
          "\(chapter):\(file.line): the manifest should depend on \(shownDependency)")
        content = content.replacing(shownDependency, with: dependency)
      }
      let destination = folder.appending(path: file.path)
      try FileManager.default.createDirectory(
        at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
      try content.write(to: destination, atomically: true, encoding: .utf8)
    }
  }

  /// The options of every `swift` command run on the app: its folder, and a build folder and
  /// a cache of its own, under `folder`, so that nothing outside it is read or written.
  private func packageOptions(app: URL, in folder: URL) -> [String] {
    [
      "--package-path", app.path, "--scratch-path", folder.appending(path: "scratch").path,
      "--cache-path", folder.appending(path: "cache").path,
    ]
  }

  @Suite("Chapter 9: the app, built as a reader builds it")
  struct Chapter9AppTests {
    // About a minute on a loaded two-core Linux machine: it builds Stage5Tuned and the app,
    // nothing else of the package.
    @Test(
      "the app's files, pasted into an empty folder, build and pass their tests against this package's working tree"
    )
    func appBuildsAndPasses() throws {
      try withTemporaryFolder("chapter-9-app") { folder in
        let copy = try snapshot(into: folder, named: "ObserverEvolution")
        let app = folder.appending(path: "ScoreKeeper")
        try pasteApp(
          into: app,
          dependency: shownDependency.replacing(shownURL, with: copy.path))
        let options = packageOptions(app: app, in: folder)
        try succeed(["swift", "build"] + options)
        let tests = try ProcessRun(["swift", "test"] + options, timeLimit: buildTimeLimit)
        try #require(tests.status == 0, "the app's tests failed:\n\(tests.outputAndError)")
        // Every test the chapter shows ran, and passed.
        let shown = try appFile("Tests/ScoreKeeperTests/ScoreKeeperTests.swift").content
          .ranges(of: "@Test(").count
        #expect(shown > 0)
        #expect(
          tests.outputAndError.contains("Test run with \(shown) tests"),
          "the app's \(shown) tests should have run:\n\(tests.outputAndError)")
      }
    }

    @Test(
      "a path dependency is named by its folder, as the chapter quotes SwiftPM; and no version of the package resolves"
    )
    func packageIdentity() throws {
      try withTemporaryFolder("chapter-9-identity") { folder in
        let copy = try snapshot(into: folder, named: "clone")
        let app = folder.appending(path: "ScoreKeeper")
        let options = packageOptions(app: app, in: folder)

        try pasteApp(into: app, dependency: ".package(path: \"\(copy.path)\")")
        let byPath = try ProcessRun(
          ["swift", "package", "show-dependencies"] + options, timeLimit: buildTimeLimit)
        let quoted =
          "unknown package 'ObserverEvolution' in dependencies of target 'ScoreKeeper'; valid packages are: 'clone'"
        #expect(byPath.status != 0)
        #expect(
          byPath.outputAndError.contains(quoted), "SwiftPM said:\n\(byPath.outputAndError)")
        let quotes = try chapterText().contains(quoted)
        #expect(quotes, "\(chapter) should quote: \(quoted)")

        // By URL, named by its last part as the manifest's products say: no tag, no version.
        let tagless = try snapshot(into: folder, named: "ObserverEvolution")
        try pasteApp(
          into: app, dependency: ".package(url: \"\(tagless.path)\", from: \"0.1.0\")")
        let byVersion = try ProcessRun(
          ["swift", "package", "show-dependencies"] + options, timeLimit: buildTimeLimit)
        #expect(byVersion.status != 0)
        #expect(
          byVersion.outputAndError.contains(
            "no versions of 'observerevolution' match the requirement 0.1.0..<1.0.0"),
          "SwiftPM said:\n\(byVersion.outputAndError)")
        let saysSo = try chapterText().contains("`from: \"0.1.0\"` finds nothing")
        #expect(saysSo, "\(chapter) should say that `from: \"0.1.0\"` finds nothing")
      }
    }
  }

  /// The Swift files of `module`, one of the two stage 5 modules, to compile beside a snippet.
  private func sources(of module: String) throws -> [String] {
    let folder = packageRoot.appending(path: "Sources/\(module)")
    return try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".swift") }.sorted().map { folder.appending(path: $0).path }
  }

  /// The app's source, to compile in one module with stage 5's files, as an app that copied
  /// them would: without its `import` of the stage 5 module.
  private func appSourceWithoutImport() throws -> String {
    let source = try appFile("Sources/ScoreKeeper/ScoreKeeper.swift").content
    let withoutImport = source.replacing("import Stage5Tuned\n", with: "")
    try #require(withoutImport != source, "the app's source should import Stage5Tuned")
    return withoutImport
  }

  /// What the compiler says of `snippet` beside the files of `module`: type checking is
  /// enough for these diagnostics.
  private func diagnostics(
    of snippet: String, with module: String, warningsAsErrors: Bool = false
  ) throws -> String? {
    try compilerDiagnostics(
      compiling: snippet, with: try sources(of: module),
      flags: ["-package-name", "Snippet", "-typecheck"]
        + (warningsAsErrors ? ["-warnings-as-errors"] : []))
  }

  @Suite("Chapter 9: the traps on the way to the app")
  struct Chapter9TrapTests {
    @Test(
      "the app's source compiles with either stage 5 module, with no warning",
      arguments: ["Stage5Tuned", "Stage5Concurrency"])
    func appSourceCompiles(module: String) throws {
      let said = try diagnostics(
        of: try appSourceWithoutImport(), with: module, warningsAsErrors: true)
      #expect(said == nil, "\(said ?? "")")
    }

    @Test(
      "observe outside any actor fails with the error the chapter quotes, which does not name observeOnAnyThread",
      arguments: ["Stage5Tuned", "Stage5Concurrency"])
    func observeOutsideAnActor(module: String) throws {
      let source = try appSourceWithoutImport()
      let wrong = source.replacing(
        "game.score.observeOnAnyThread(self)", with: "game.score.observe(self)")
      try #require(wrong != source, "ScoreHistory should call observeOnAnyThread(self)")
      let said = try #require(try diagnostics(of: wrong, with: module), "it compiled")
      let quoted = "'nil' is not compatible with expected argument type 'any Actor'"
      #expect(said.contains("error: \(quoted)"), "\(said)")
      // What the compiler says, without the lines of source it shows.
      let messages = said.split(separator: "\n").filter {
        $0.contains("error:") || $0.contains("note:")
      }
      #expect(
        !messages.contains { $0.contains("observeOnAnyThread") },
        "the compiler now names the fix: \(messages)")
      let quotes = try chapterText().contains("`\(quoted)`")
      #expect(quotes, "\(chapter) should quote: \(quoted)")
    }

    @Test(
      "a token not kept is a warning only, the one the chapter quotes",
      arguments: ["Stage5Tuned", "Stage5Concurrency"])
    func droppedToken(module: String) throws {
      let dropped =
        try appSourceWithoutImport() + """

          func keepNothing(game: Game) {
            game.score.observeOnAnyThread { _ in }
          }
          """
      #expect(try diagnostics(of: dropped, with: module) == nil, "not an error")
      let said = try #require(
        try diagnostics(of: dropped, with: module, warningsAsErrors: true), "no warning")
      let quoted = "result of call to 'observeOnAnyThread(options:_:)' is unused"
      #expect(said.contains(quoted), "\(said)")
      let quotes = try chapterText().contains("`\(quoted)`")
      #expect(quotes, "\(chapter) should quote: \(quoted)")
    }

    /// A command-line program, top-level code, on stage 5 tuned: it blocks its main thread on
    /// a semaphore while a main-actor handler waits for a change set on another thread, then
    /// awaits it, and says where it ran.
    private let commandLineProgram = """
      import Dispatch
      import Foundation

      let score = Observable(0)
      let delivered = DispatchSemaphore(value: 0)
      let (values, continuation) = AsyncStream.makeStream(of: Int.self)
      let token = score.observe { change in
        continuation.yield(change.newValue)
        delivered.signal()
      }
      Thread.detachNewThread { score.value = 1 }
      let blocked = delivered.wait(timeout: .now() + .milliseconds(500))
      print("blocked: delivered \\(blocked == .success)")
      for await value in values {
        print("awaited: delivered \\(value)")
        break
      }
      await MainActor.run {
        print("main actor: isMainThread \\(Thread.isMainThread)")
        dispatchPrecondition(condition: .onQueue(.main))
        MainActor.assumeIsolated { print("main actor: on the main queue") }
      }
      token.cancel()
      print("backlogLimit \\(Observable<Int>.backlogLimit)")
      print("longestWait ms \\(Int(Observable<Int>.longestWait / .milliseconds(1)))")
      """

    @Test(
      "a command-line program that blocks its main thread never sees a main-actor delivery; once it has awaited, isMainThread is false on Linux, the main queue check holds; the backlog the chapter gives"
    )
    func commandLineProgramOnTheMainActor() throws {
      let printed = try withTemporaryFolder("chapter-9-program") { folder in
        let main = folder.appending(path: "main.swift")
        try commandLineProgram.write(to: main, atomically: true, encoding: .utf8)
        let program = folder.appending(path: "program")
        try succeed(
          [
            "swiftc", "-swift-version", "6", "-package-name", "Program", "-module-name",
            "Program", "-o", program.path,
          ] + (try sources(of: "Stage5Tuned")) + [main.path])
        return try succeed([program.path]).split(separator: "\n")
      }
      #expect(printed.contains("blocked: delivered false"), "\(printed)")
      #expect(printed.contains("awaited: delivered 1"), "\(printed)")
      #expect(printed.contains("main actor: on the main queue"), "\(printed)")
      #if os(Linux)
        #expect(printed.contains("main actor: isMainThread false"), "\(printed)")
      #endif
      let text = try chapterText()
      for claim in [
        "On Linux it is `false` for main-actor work once top-level code has awaited",
        "`dispatchPrecondition(condition: .onQueue(.main))`",
        "A command-line tool that waits on a `DispatchSemaphore` for a main-actor handler waits for ever",
      ] {
        let saysIt = text.contains(claim)
        #expect(saysIt, "\(chapter) should say: \(claim)")
      }
      let limit = try #require(text.firstMatch(of: /`Observable.backlogLimit` \((\d+)\)/))
      #expect(printed.contains("backlogLimit \(limit.output.1)"), "\(printed)")
      let wait = try #require(
        text.firstMatch(of: /at most (\d+) ms\s+\(`Observable.longestWait`\)/))
      #expect(printed.contains("longestWait ms \(wait.output.1)"), "\(printed)")
    }
  }
#endif
