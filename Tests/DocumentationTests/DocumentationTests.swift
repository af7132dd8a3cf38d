import CommandSupport
import CompareStagesKit
import DesignCatalog
import Foundation
import KeepingScoreKit
import StageBench
import Support
import TestSupport
import Testing
import TutorialKit

/// What a command shown in the docs prints, run in-process, on the main actor, where
/// `swift run tutorial` runs its demos.
@MainActor
private func output(of command: String) async throws -> String {
  var words = command.split(separator: " ").map(String.init)
  guard words.starts(with: ["swift", "run"]), words.count >= 3 else {
    throw DocumentationError("a documented command must start with 'swift run PRODUCT': \(command)")
  }
  words.removeFirst(2)
  let product = words.removeFirst()
  let arguments = words
  let run: CommandRun
  switch product {
  case "compare-stages":
    run = CommandRun { CompareStagesCommand.run(arguments, io: $0) }
  case "tutorial":
    // A demo or chapter 5c's picture, and nothing else: the usage is not documented output.
    guard
      words.count == 1 && TutorialChapter.Number(words[0]) != nil
        || words == ["5c", "--picture"]
    else {
      throw DocumentationError("no demo for '\(command)'")
    }
    run = await CommandRun(awaiting: { await TutorialCommand.run(arguments, io: $0) })
  case "keeping-score" where words == ["--help"]:
    run = CommandRun { KeepingScoreCommand.run(arguments, io: $0) }
  default:
    throw DocumentationError("no way to run '\(product)' in the tests: \(command)")
  }
  guard run.status == .success else {
    throw DocumentationError("\(command) exited \(run.status.rawValue): \(run.error)")
  }
  return run.output
}

/// Whether what `path` says, or the output of `command` shown there, is checked on this
/// platform.
///
/// What the platform's own observers do was measured on Linux, and the docs say so: chapter 8,
/// and any command that runs a reference (`--with-platform`, or a reference's `--stage`), show
/// Linux's Foundation and Observation. On an Apple platform, whose Foundation is another
/// implementation and whose `Observations` needs OS 26, those are not compared.
func checkedHere(_ path: String, command: String = "") -> Bool {
  #if os(Linux) && !FORCE_APPLE_BRANCHES
    return true
  #else
    let runsAReference =
      command.contains("--with-platform")
      || CatalogEntry.references.contains { command.contains("--stage \($0.id)") }
    return path != "Tutorial/08-beyond-the-stages.md" && !runsAReference
  #endif
}

struct DocumentationError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

@Suite("Documentation matches the code")
struct DocumentationTests {
  // On the main actor, where `swift run tutorial` runs its demos: chapter 5's shows a screen
  // that lives there.
  @Test("every output block is what its command prints", arguments: try MarkdownDocument.all())
  @MainActor
  func outputBlocks(document: MarkdownDocument) async throws {
    // With OBSERVER_EVOLUTION_REWRITE_OUTPUTS=1 (bash Scripts/regenerate-docs), each changed
    // output is written into the document instead: the lines after the block's fence, or after
    // the raw output's opening comment, are replaced by what the command prints now. A new
    // block may be left empty, its two fences on consecutive lines: it is filled in.
    let rewriting = ProcessInfo.processInfo.environment["OBSERVER_EVOLUTION_REWRITE_OUTPUTS"] == "1"
    var replacements: [(firstLine: Int, lineCount: Int, content: String)] = []
    for block in document.fencedBlocks {
      guard let marker = block.marker, marker.hasPrefix("output: ") else { continue }
      let command = String(marker.dropFirst("output: ".count))
      guard checkedHere(document.path, command: command) else { continue }
      let printed = try await output(of: command)
      if rewriting && block.content != printed {
        replacements.append((block.line, block.lineCount, printed))
        continue
      }
      #expect(
        block.content == printed,
        "\(document.path):\(block.line): the output of '\(command)' has changed")
    }
    for raw in document.rawOutputs where checkedHere(document.path, command: raw.command) {
      let printed = try await output(of: raw.command)
      if rewriting && raw.content != printed {
        replacements.append((raw.line, raw.lineCount, printed))
        continue
      }
      #expect(
        raw.content == printed,
        "\(document.path):\(raw.line): the output of '\(raw.command)' has changed")
    }
    guard !replacements.isEmpty else { return }
    // From the last to the first, so that each one's line numbers still hold.
    var lines = document.lines
    for replacement in replacements.sorted(by: { $0.firstLine > $1.firstLine }) {
      let first = replacement.firstLine
      lines.replaceSubrange(
        first..<(first + replacement.lineCount),
        with: replacement.content.isEmpty
          ? [] : replacement.content.dropLast().components(separatedBy: "\n"))
    }
    try lines.joined(separator: "\n").write(
      to: packageRoot.appendingPathComponent(document.path), atomically: true, encoding: .utf8)
  }

  @Test(
    "every Swift block comes from a file the build compiles", arguments: try MarkdownDocument.all())
  func swiftBlocks(document: MarkdownDocument) throws {
    for block in document.fencedBlocks where block.language == "swift" {
      guard let marker = block.marker else {
        Issue.record(
          "\(document.path):\(block.line): a swift block needs <!-- from: PATH --> before it")
        continue
      }
      if marker.hasPrefix("apple-only") { continue }
      // An outside package's source, compared and built by GradeYourOwnTests.
      if marker.hasPrefix("example: ") { continue }
      // A file of chapter 9's app, built as an outside package by Chapter9AppTests.
      if marker.hasPrefix("file: ") { continue }
      guard marker.hasPrefix("from: ") else {
        Issue.record("\(document.path):\(block.line): unknown marker '\(marker)'")
        continue
      }
      let path = String(marker.dropFirst("from: ".count))
      // The tests are compiled too (`swift build --build-tests`), and run by `swift test`.
      #expect(
        path.hasPrefix("Sources/") || path.hasPrefix("Tests/"),
        "\(document.path):\(block.line): \(path) is not compiled")
      let source = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
      #expect(
        containsLines(of: block.content, in: source),
        "\(document.path):\(block.line): this block is not, line for line, in \(path)")
    }
  }

  @Test(
    "every relative link points to a file or folder that exists",
    arguments: try MarkdownDocument.all())
  func links(document: MarkdownDocument) {
    let base = packageRoot.appendingPathComponent(document.path).deletingLastPathComponent()
    for link in document.relativeLinks {
      let target = base.appendingPathComponent(link).standardizedFileURL
      #expect(
        FileManager.default.fileExists(atPath: target.path),
        "\(document.path): broken link \(link)")
    }
  }
}

/// The title of the last section of a chapter, which holds what is off the reader's path.
let behindTheScenes = "Behind the scenes"

/// The sentence a box behind the scenes opens with.
let offThePath =
  "*Nothing here is needed for the next chapter: it is how the package is built and checked, and where its claims come from.*"

/// The attributes that only tune performance: a chapter shows code without them, as a reader
/// would write it, while the compiled source keeps them for the bench.
let performanceAttributes = [
  "@inlinable", "@usableFromInline", "@inline(__always)", "@inline(never)", "@_specialize",
]

/// `lines` without performance attributes: each one is taken out of its line, and a line that
/// held nothing else is dropped.
func withoutPerformanceAttributes(_ lines: [Substring]) -> [Substring] {
  lines.compactMap { line in
    var words = line.split(separator: " ", omittingEmptySubsequences: false)
    let before = words.count
    words.removeAll { word in performanceAttributes.contains { word.hasPrefix($0) } }
    guard words.count != before else { return line }
    let rest = words.joined(separator: " ")
    return rest.allSatisfy(\.isWhitespace) ? nil : Substring(rest)
  }
}

/// Whether the lines of `block`, once their common indentation is removed, stand in `source`
/// one after another, with the same indentation relative to each other. Performance
/// attributes (``performanceAttributes``) are the only difference allowed.
func containsLines(of block: String, in source: String) -> Bool {
  lineRange(of: block, in: source) != nil
}

/// Where the lines of `block` stand in `source`, as ``containsLines(of:in:)`` finds them: the
/// indices of the first match among the source's lines without performance attributes.
func lineRange(of block: String, in source: String) -> Range<Int>? {
  func dedented(_ lines: [Substring]) -> [String] {
    let indent =
      lines.filter { !$0.allSatisfy(\.isWhitespace) }
      .map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }
  }
  let wanted = dedented(
    withoutPerformanceAttributes(
      Array(block.split(separator: "\n", omittingEmptySubsequences: false).dropLast())))
  let sourceLines = withoutPerformanceAttributes(
    source.split(separator: "\n", omittingEmptySubsequences: false))
  guard !wanted.isEmpty, wanted.count <= sourceLines.count else { return nil }
  for start in 0...(sourceLines.count - wanted.count) {
    let window = Array(sourceLines[start..<(start + wanted.count)])
    if dedented(window) == wanted { return start..<(start + wanted.count) }
  }
  return nil
}

@Suite("Documentation: structure")
struct DocumentationStructureTests {
  // A demo's command is run here, whether or not the chapter shows its output: a chapter with
  // no demo would send its reader to a command that fails.
  @Test("each chapter opens with the one command that runs its demo, and that command runs")
  @MainActor
  func chaptersOpenWithACommand() async throws {
    for document in try MarkdownDocument.all() where document.path.hasPrefix("Tutorial/") {
      let first = try #require(document.fencedBlocks.first, "\(document.path) has no code block")
      #expect(first.language == "sh", "\(document.path)")
      let lines = first.content.split(separator: "\n")
      #expect(lines.count == 1 && lines[0].hasPrefix("swift run "), "\(document.path): \(lines)")
      guard let command = lines.first, command.hasPrefix("swift run tutorial ") else { continue }
      do {
        _ = try await output(of: String(command))
      } catch {
        let fix = "write its demo in Sources/Lab/TutorialKit, with its line in Demo.chapters"
        Issue.record("\(document.path) opens with '\(command)', which fails (\(error)): \(fix)")
      }
    }
  }

  @Test(
    "every chapter numbered from 1 on ends with key points and the command of its self-check, then at most a box behind the scenes"
  )
  func keyPointsAndSelfCheck() throws {
    for chapter in TutorialChapter.all where chapter.number.chapter >= 1 {
      let number = chapter.number
      let document = try MarkdownDocument(chapter.path)
      #expect(document.text.contains("\n## Key points\n"), "\(document.path)")
      // What is off the reader's path (how the package is built and checked) may follow the
      // self-check, in one last section, and nothing else may.
      let path = document.text.components(separatedBy: "\n## \(behindTheScenes)\n")
      #expect(path.count <= 2, "\(document.path): one box behind the scenes at most")
      if path.count == 2 {
        #expect(!path[1].contains("\n## "), "\(document.path): the box must be the last section")
      }
      #expect(
        path[0].hasSuffix(
          "Check yourself: `swift run keeping-score \(number)`.\n"),
        "\(document.path) must end with its self-check, before any box behind the scenes")
    }
  }

  @Test(
    "a box behind the scenes says it is off the reader's path",
    arguments: try MarkdownDocument.all())
  func behindTheScenesBoxes(document: MarkdownDocument) {
    let boxes = document.text.components(separatedBy: "\n## \(behindTheScenes)\n").dropFirst()
    for box in boxes {
      #expect(
        box.hasPrefix("\n" + offThePath),
        "\(document.path): the box should open with: \(offThePath)")
    }
  }

  @Test(
    "a chapter shows code without performance attributes", arguments: try MarkdownDocument.all())
  func noPerformanceAttributes(document: MarkdownDocument) {
    for block in document.fencedBlocks where block.language == "swift" {
      for attribute in performanceAttributes {
        #expect(
          !block.content.contains(attribute),
          "\(document.path):\(block.line): shows \(attribute), which the chapters leave out")
      }
    }
  }

  @Test("only performance attributes may differ between a chapter's code and the source")
  func attributesAreTheOnlyDifference() {
    let source = """
        @inlinable public var value: Value {
          get { storedValue }
        }
        @usableFromInline var storedValue: Value
      """
    #expect(containsLines(of: "public var value: Value {\n  get { storedValue }\n}\n", in: source))
    #expect(containsLines(of: "var storedValue: Value\n", in: source))
    #expect(!containsLines(of: "public var value: Int {\n", in: source))
    #expect(!containsLines(of: "public var value: Value {\n  get { value }\n", in: source))
  }

  @Test(
    "the README's first screen: one scenario's trace before any table, the two commands, the first build's time"
  )
  func readmeFirstScreen() throws {
    let readme = try MarkdownDocument("README.md")
    let firstScreen = readme.lines.prefix(60).joined(separator: "\n")
    let landmarks = [
      "<!-- output: swift run compare-stages trace ", "```sh\nswift run compare-stages\n```",
      "```sh\nswift test\n```", "The first build takes",
    ]
    let positions = landmarks.map { firstScreen.range(of: $0)?.lowerBound }
    for (landmark, position) in zip(landmarks, positions) {
      #expect(position != nil, "README.md's first 60 lines should hold \(landmark)")
    }
    let found = positions.compactMap { $0 }
    #expect(found == found.sorted(), "README.md's first screen should follow that order")
    // No table before the scenario is explained: neither a Markdown table nor the output of
    // a comparison, whose rows are scenario names.
    let trace = try #require(readme.fencedBlocks.first { $0.marker?.contains(" trace ") == true })
    let firstTable = readme.lines.firstIndex {
      $0.hasPrefix("|") || $0.hasPrefix("scenario ") || $0.hasPrefix("<!-- begin output")
    }
    #expect(firstTable.map { $0 > trace.line } ?? true, "README.md shows a table before a scenario")
  }

  @Test("the README's reading path: chapter 0 first, the core, the optional chapters, the workshop")
  func readmeReadingPath() throws {
    let readme = try MarkdownDocument("README.md")
    let text = readme.text
    let landmarks = [
      "](Tutorial/00-introduction.md)", "The core, in order:", "Optional, when you want them:",
      "```sh\nswift run workshop\n```",
    ]
    let positions = landmarks.map { text.range(of: $0)?.lowerBound }
    for (landmark, position) in zip(landmarks, positions) {
      #expect(position != nil, "README.md should hold \(landmark)")
    }
    let found = positions.compactMap { $0 }
    #expect(found == found.sorted(), "README.md's reading path should follow that order")
    // Every chapter and appendix of Tutorial/ is on the path, core or optional: linked, or
    // named by its number in bold.
    let path = try #require(
      text.components(separatedBy: "\n## ").first { $0.hasPrefix("How to read it\n") })
    let chapters = try FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent("Tutorial").path
    ).filter { $0.hasSuffix(".md") }
    for chapter in chapters {
      let number = chapter.prefix { $0 != "-" }.drop { $0 == "0" }
      #expect(
        path.contains("](Tutorial/\(chapter))")
          || path.contains("**\(number.isEmpty ? "0" : number)**"),
        "README.md's reading path does not place \(chapter)")
    }
  }

  // The two tables that list the stages say in words what each fixes and keeps: written by
  // hand, so a new stage's row is asked for here.
  @Test("the README's table of the stages, and chapter 0's, have a row for every stage, in order")
  func stageTables() throws {
    let readme = try MarkdownDocument("README.md")
    let section = try #require(
      readme.text.components(separatedBy: "\n## ").first { $0.hasPrefix("The stages\n") })
    let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst()
      .filter { !$0.hasPrefix("| ---") }
    #expect(
      rows.count == CatalogEntry.stages.count, "README.md: one row per stage under 'The stages'")
    let intro = try MarkdownDocument(TutorialChapter.introduction.path)
    let introRows = intro.lines.filter { $0.hasPrefix("| [") }
    for (index, stage) in CatalogEntry.stages.enumerated() {
      let number = try #require(stage.stageNumber)
      let module = stage.design.module
      let chapter = try #require(stage.design.chapter)
      let chapterNumber = try #require(TutorialChapter.all.first { $0.path == chapter }?.number)
      let row = rows.dropFirst(index).first ?? ""
      #expect(
        row.hasPrefix("| \(number), ") && row.contains("| [`\(module)`](Sources/\(module)) |")
          && row.contains("[\(chapterNumber)](\(chapter))"),
        Comment(
          rawValue: "README.md, 'The stages': row \(index + 1) should be stage \(number)'s: "
            + "| \(number), NAME | [`\(module)`](Sources/\(module)) | what it fixes | "
            + "what it still has | [\(chapterNumber)](\(chapter)) |"))
      let file = chapter.dropFirst("Tutorial/".count)
      #expect(
        introRows.contains { $0.hasPrefix("| [\(chapterNumber). ") && $0.contains("](\(file))") }
          && introRows.contains { $0.contains("[`\(module)`](../Sources/\(module))") },
        Comment(
          rawValue: "\(intro.path), 'How to read the rest': its table needs stage \(number)'s "
            + "row: | [\(chapterNumber). TITLE](\(file)) | what it is | "
            + "[`\(module)`](../Sources/\(module)) |"))
    }
  }

  @Test("the reference page's JSON example uses only keys the real output has")
  @MainActor
  func jsonExampleKeys() async throws {
    let reference = try MarkdownDocument("REFERENCE.md")
    let example = try #require(reference.fencedBlocks.first { $0.language == "json" })
    let real = try JSONSerialization.jsonObject(
      with: Data(try await output(of: "swift run compare-stages --format json").utf8))
    let shown = try JSONSerialization.jsonObject(with: Data(example.content.utf8))
    #expect(keyPaths(of: shown).isSubset(of: keyPaths(of: real)))
    #expect(keyPaths(of: real) == keyPaths(of: shown), "the example should show every key")
  }
}

/// Every key path in a JSON value, arrays flattened: "scenarios[].results[].verdict".
private func keyPaths(of value: Any, prefix: String = "") -> Set<String> {
  if let object = value as? [String: Any] {
    return object.reduce(into: []) { paths, entry in
      let path = prefix.isEmpty ? entry.key : "\(prefix).\(entry.key)"
      paths.insert(path)
      paths.formUnion(keyPaths(of: entry.value, prefix: path))
    }
  }
  if let array = value as? [Any] {
    return array.reduce(into: []) { $0.formUnion(keyPaths(of: $1, prefix: prefix + "[]")) }
  }
  return []
}

/// Each cell but the first of every table row replaced by a dot: what a copied bench table
/// (appendix 6a's, appendix 5a's) must keep, while its figures may differ from run to run.
func benchTableShape(_ markdown: String) -> String {
  markdown.split(separator: "\n", omittingEmptySubsequences: false).map { line in
    guard line.hasPrefix("| "), !line.hasPrefix("| contender"), !line.hasPrefix("| ---") else {
      return String(line)
    }
    let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    return "| " + ([cells[0]] + cells.dropFirst().map { _ in "·" }).joined(separator: " | ")
      + " |"
  }.joined(separator: "\n")
}

@Suite("Documentation: bench tables")
struct BenchTableTests {
  /// `markdown` without the rows of the references this platform cannot run: a table recorded
  /// where `Observations` runs has its row, which the bench of an Apple OS before 26 cannot
  /// print.
  private func withoutRowsMissingHere(_ markdown: String) -> String {
    let missing = CatalogEntry.namesOfReferencesMissingHere
    return markdown.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
      !missing.contains { line.hasPrefix("| \($0) |") }
    }.joined(separator: "\n")
  }

  @Test(
    "a copied bench table has the rows, columns and titles the bench prints",
    arguments: try MarkdownDocument.all())
  func benchTables(document: MarkdownDocument) {
    let expected = benchTableShape(
      BenchReport.shape(of: .full, contenders: CatalogEntry.contenders).markdown)
    for block in document.benchBlocks {
      #expect(
        benchTableShape(withoutRowsMissingHere(block.content)) == expected,
        "\(document.path):\(block.line): this bench table no longer has the bench's shape")
      let counts = block.content.components(separatedBy: "**Heap allocations per set")[1]
      #expect(
        counts.contains("| stage 4 | 2.0 | 10.0 | 16.0 | 22.0 |"),
        "\(document.path):\(block.line): stage 4's allocation counts are exact and must match")
    }
  }
}
