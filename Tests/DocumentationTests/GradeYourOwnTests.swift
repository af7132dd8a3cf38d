import Foundation
import TestSupport
import Testing

/// How long a `swift run` of the example may take before it is taken for hung: it builds the
/// package's library on a busy machine, and is stopped only when it hangs.
private let buildTimeLimit = Duration.seconds(1800)

@Suite("REFERENCE.md: grade your own observable")
struct GradeYourOwnTests {
  private let example = "Examples/GradeYourOwn"

  @Test("the reference page shows the outside example's source, line for line")
  func sourceMatches() throws {
    let page = try MarkdownDocument("REFERENCE.md")
    let block = try #require(
      page.fencedBlocks.first { $0.marker == "example: grade-your-own" },
      "REFERENCE.md has no <!-- example: grade-your-own --> block")
    let source = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "\(example)/Sources/GradeYourOwn/main.swift"),
      encoding: .utf8)
    #expect(block.language == "swift")
    #expect(block.content == source, "REFERENCE.md:\(block.line): copy \(example)'s main.swift")
  }

  @Test(
    "the example builds as an outside package, importing only ObserverScenarios, and prints what the reference page shows; its library shapes get the verdicts they must"
  )
  func outsidePackageRuns() throws {
    let page = try MarkdownDocument("REFERENCE.md")
    let shown = try #require(
      page.fencedBlocks.first { $0.marker == "example-output: grade-your-own" },
      "REFERENCE.md has no <!-- example-output: grade-your-own --> block")
    let source = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "\(example)/Sources/GradeYourOwn/main.swift"),
      encoding: .utf8)
    let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") }
    #expect(imports == ["import ObserverScenarios"], "the example imports the product alone")

    let shapesOutput = try withTemporaryFolder("grade-your-own") { scratch in
      let run = try ProcessRun(
        [
          "swift", "run", "--package-path", packageRoot.appendingPathComponent(example).path,
          "--scratch-path", scratch.path, "--quiet", "GradeYourOwn",
        ], timeLimit: buildTimeLimit)
      try #require(run.status == 0, "the example did not build or run:\n\(run.error)")
      #expect(
        run.output == shown.content, "REFERENCE.md:\(shown.line): the example's output changed")

      // The same build, another product: observables shaped like real libraries' storage, and
      // one graded through a ready-made adapter.
      let shapes = try ProcessRun(
        [
          "swift", "run", "--package-path", packageRoot.appendingPathComponent(example).path,
          "--scratch-path", scratch.path, "--quiet", "LibraryShapes",
        ], timeLimit: buildTimeLimit)
      try #require(shapes.status == 0, "LibraryShapes did not build or run:\n\(shapes.error)")
      return shapes.output
    }
    let verdicts = try Self.verdicts(inJSON: shapesOutput)
    let required: [(design: String, scenario: String, verdict: String, why: String)] = [
      ("threshold-bag", "delivery-order", "flaw", "its order breaks past 31 observers"),
      ("threshold-bag", "sixteen-in-order", "holds", "16 observers stay below its threshold"),
      ("slots", "delivery-order", "flaw", "a newcomer reuses a freed slot, before older ones"),
      ("token-in-owner", "released-observer-not-called", "holds", "its token dies with the owner"),
      ("token-in-owner", "same-observer-twice", "n/a", "anonymous closures, marked not applicable"),
      ("token-in-owner", "delivery-order", "holds", "an array that appends"),
      ("named", "delivery-order", "holds", "the ready-made KeyedAdapter, over an array"),
      ("named", "explicit-unsubscribe", "holds", "KeyedAdapter removes by the request's key"),
      ("named", "same-key-two-observers", "flaw", "a second owner's closure replaces the first's"),
      ("main-actor-store", "delivery-order", "holds", "graded on the main thread, in an array"),
      (
        "main-actor-store", "explicit-unsubscribe", "holds", "its adapter cancels on the main actor"
      ),
      ("sendable-closures", "delivery-order", "holds", "@Sendable closures in an array"),
      ("sendable-closures", "unsubscribe-during-notification", "flaw", "it calls a copy"),
      ("sendable-closures", "sendable", "holds", "a Mutex guards its state"),
    ]
    for (design, scenario, verdict, why) in required {
      #expect(
        verdicts[design]?[scenario] == verdict,
        "\(design) must get \(verdict) on \(scenario) (\(why)); it got \(verdicts[design]?[scenario] ?? "nothing")"
      )
    }
  }

  /// Each design's verdict on each scenario, from `ScenarioReport.json`.
  private static func verdicts(inJSON json: String) throws -> [String: [String: String]] {
    struct Report: Decodable {
      struct Row: Decodable {
        struct Result: Decodable {
          var graded: String?
          var verdict: String
        }
        var name: String
        var results: [Result]
      }
      var scenarios: [Row]
    }
    let report = try JSONDecoder().decode(Report.self, from: Data(json.utf8))
    var verdicts: [String: [String: String]] = [:]
    for row in report.scenarios {
      for result in row.results {
        verdicts[result.graded ?? "?", default: [:]][row.name] = result.verdict
      }
    }
    return verdicts
  }

  @Test(
    "every ```swift example in ObserverScenarios' doc comments is compiled by the outside package")
  func docExamplesCompile() throws {
    let compiled = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "\(example)/Sources/LibraryShapes/DocExamples.swift"),
      encoding: .utf8
    ).split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let folder = packageRoot.appendingPathComponent("Sources/Lab/ObserverScenarios")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".swift") }.sorted()
    var found = 0
    for file in files {
      let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
      var block: (start: Int, lines: [String])?
      for (index, line) in lines.enumerated() where line.hasPrefix("///") {
        let text = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
        if text == "```swift" {
          block = (index + 1, [])
        } else if text == "```", let current = block {
          found += 1
          let code = current.lines
          let matches = compiled.indices.contains {
            compiled[$0...].starts(with: code)
          }
          #expect(
            matches,
            "Sources/Lab/ObserverScenarios/\(file):\(current.start): copy this example into \(example)/Sources/LibraryShapes/DocExamples.swift, where it is compiled"
          )
          block = nil
        } else if block != nil {
          block?.lines.append(text)
        }
      }
    }
    #expect(found >= 5, "the doc comments' examples were not found")
  }
}
