import CommandSupport
import DesignCatalog
import Foundation
import Support
import TestSupport
import Testing
import TutorialKit

/// The folder of the products `swift test` built: see `testProductsFolder`, which says how it
/// is found on each platform.
let productsFolder = testProductsFolder

/// The chapters with a demo, as `tutorial` lists them: "0, 1, 2, …".
let demoChapters = Demo.chapters.map(\.chapter.number.description).joined(separator: ", ")

/// A chapter number past the last chapter's: no demo has it.
let pastTheLastDemo = "\((TutorialChapter.all.map(\.number.chapter).max() ?? 0) + 1)"

/// A product that `swift test` built, in ``productsFolder``, checked to be there.
func productURL(_ name: String) throws -> URL {
  let executable = productsFolder.appendingPathComponent(name)
  try #require(
    FileManager.default.isExecutableFile(atPath: executable.path),
    "\(name) should be built beside the tests, in \(productsFolder.path)")
  return executable
}

/// Runs a product that `swift test` built, in ``productsFolder``, with `arguments`, over this
/// process's environment with `environment` set, and `input` on its standard input: every
/// test's way of starting one.
func runProduct(
  _ name: String, _ arguments: [String] = [], environment: [String: String] = [:],
  input: String = "", standardOutput: FileHandle? = nil
) throws -> ProcessRun {
  try ProcessRun(
    [try productURL(name).path] + arguments, environment: environment, input: input,
    standardOutput: standardOutput)
}

@Suite("Every executable: one command shape")
struct CommandShapeTests {
  @Test(
    "bad usage with standard error closed still exits 64: only standard output makes it 74",
    arguments: ["compare-stages", "tutorial", "keeping-score", "workshop"])
  func usageWithoutStandardError(product: String) throws {
    // A process cannot be started with a stream closed; the shell can, and exec keeps the
    // process, so its status and signal are the product's.
    let result = try ProcessRun(
      ["/bin/sh", "-c", #"exec "$0" "$@" 2>&-"#, try productURL(product).path, "--no-such-option"],
      standardOutput: .nullDevice)
    #expect(result.ending == .exited(ExitCode.usage.rawValue))
  }

  @Test(
    "bad input: one line on stderr naming the problem, nothing on stdout, exit status .usage",
    arguments: [
      ("compare-stages", ["--colour"]), ("compare-stages", ["tables"]),
      ("tutorial", [pastTheLastDemo]),
      ("tutorial", ["--colour"]), ("keeping-score", ["--colour"]), ("keeping-score", ["1", "2"]),
      ("compare-stages", ["bench", "--colour"]),
    ])
  func badInputIsUsage(product: String, arguments: [String]) throws {
    let result = try runProduct(product, arguments)
    #expect(result.status == ExitCode.usage.rawValue)
    #expect(result.output.isEmpty)
    #expect(result.error.hasPrefix("\(product): "))
    #expect(result.error.hasSuffix("; see '\(product) --help'\n"))
    #expect(result.error.filter { $0 == "\n" }.count == 1)
  }

  @Test(
    "--help and -h print the help on stdout and exit .success",
    arguments: ["compare-stages", "tutorial", "keeping-score"],
    [["--help"], ["-h"]])
  func helpIsSuccess(product: String, arguments: [String]) throws {
    let result = try runProduct(product, arguments)
    #expect(result.status == ExitCode.success.rawValue)
    #expect(result.output.contains("USAGE: \(product)"))
    #expect(result.error.isEmpty)
  }
}

@Suite("compare-stages: the real executable")
struct ExecutableTests {
  @Test("it prints the table and exits 0 when every verdict matches")
  func runsClean() throws {
    let result = try runProduct("compare-stages", [])
    #expect(result.status == 0)
    #expect(result.error.isEmpty)
    // How many verdicts there are is checked in-process (InvocationTests); here, that all match.
    #expect(result.output.hasSuffix(" stage verdicts match the documented table.\n"))
    #expect(result.output.contains("\nAll "))
    #expect(!result.output.contains("\u{1B}["), "no colour when stdout is a pipe")
  }

  @Test("bad input: one line on stderr, nothing on stdout, exit status 64")
  func badInput() throws {
    let result = try runProduct("compare-stages", ["--stage", "seven"])
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    // The stages by number, then by name, as --help lists them, then the references.
    let valid =
      (CatalogEntry.stages.map(\.id) + CatalogEntry.stages.map(\.design.shortName)
      + CatalogEntry.references.map(\.id)).joined(separator: ", ")
    #expect(
      result.error
        == "compare-stages: unknown stage 'seven' (valid: \(valid)); see 'compare-stages --help'\n")
  }
}

@Suite("tutorial: the real executable")
struct TutorialExecutableTests {
  @Test("it runs a chapter's demo")
  func runsDemo() throws {
    let result = try runProduct("tutorial", ["4"])
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("--- Observable Example ---\nUser's name is Madeline\n"))
  }

  @Test("it runs chapter 5c's demo, and its picture")
  func runsChapterFiveC() throws {
    let demo = try runProduct("tutorial", ["5c"])
    #expect(demo.status == 0)
    #expect(demo.output.hasPrefix("-- stage 5: a set inside a handler is queued"))
    let picture = try runProduct("tutorial", ["5c", "--picture"])
    #expect(picture.status == 0)
    #expect(picture.output.hasPrefix("sequenceDiagram\n"))
  }

  @Test("no argument or --help lists the chapters with demos, and the exit statuses")
  func usage() throws {
    for arguments in [[], ["--help"]] {
      let result = try runProduct("tutorial", arguments)
      #expect(result.status == 0)
      #expect(result.output.contains("\n  5   The concurrency age\n"))
      #expect(result.output.contains("\n  5c  Handlers on the main actor: stage 5\n"))
      #expect(result.output.contains("\n  7   A small app: keeping score\n"))
      #expect(result.output.contains("\nEXIT STATUS:\n  0   "))
      #expect(result.output.contains("\n  64  bad usage"))
      #expect(result.output.contains("\n  74  standard output cannot be written"))
    }
  }

  @Test(
    "chapter 7 with a temporary folder that takes no file: one line on stderr, exit 74",
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/1"), "no /proc/1 here"))
  func chapter7WithoutATemporaryFolder() throws {
    let result = try runProduct("tutorial", ["7"], environment: ["TMPDIR": "/proc/1"])
    #expect(result.status == ExitCode.ioError.rawValue)
    #expect(result.output.isEmpty)
    #expect(
      result.error.hasPrefix(
        "tutorial: chapter 7's demo cannot write its save file in the temporary folder /proc/1"))
    #expect(result.error.filter { $0 == "\n" }.count == 1)
  }

  @Test(
    "bad input: one line on stderr naming the valid chapters, exit status 64",
    arguments: [
      (
        ["6"],
        "tutorial: no demo for chapter '6' (valid: \(demoChapters)); "
          + "see 'tutorial --help'\n"
      ),
      (
        ["one"],
        "tutorial: unknown command 'one' (valid: demo; or a chapter for demo: "
          + "\(demoChapters)); see 'tutorial --help'\n"
      ),
      (
        ["dmo", "1"],
        "tutorial: unknown command 'dmo' (valid: demo; or a chapter for demo: "
          + "\(demoChapters)); see 'tutorial --help'\n"
      ),
      (
        ["5c", "--picture", "--picture"],
        "tutorial: --picture given more than once; see 'tutorial --help'\n"
      ),
      (
        ["1", "2"],
        "tutorial: unexpected argument '2' (valid for demo: --picture); see 'tutorial --help'\n"
      ),
      (
        ["3", "--picture"],
        "tutorial: no picture for chapter '3' (valid: 5c); see 'tutorial --help'\n"
      ),
      (
        ["5", "--picture"],
        "tutorial: no picture for chapter '5' (valid: 5c); see 'tutorial --help'\n"
      ),
      (
        ["5C"],
        "tutorial: no demo for chapter '5C' (valid: \(demoChapters)); "
          + "see 'tutorial --help'\n"
      ),
      (
        ["05"],
        "tutorial: no demo for chapter '05' (valid: \(demoChapters)); "
          + "see 'tutorial --help'\n"
      ),
      (
        ["--picture"],
        "tutorial: --picture needs its chapter (valid: 5c --picture); see 'tutorial --help'\n"
      ),
      (
        ["--version"],
        "tutorial: unknown option '--version' (valid for demo: --picture); see 'tutorial --help'\n"
      ),
    ])
  func badInput(arguments: [String], message: String) throws {
    let result = try runProduct("tutorial", arguments)
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(result.error == message)
  }
}

@Suite("keeping-score: the real executable")
struct KeepingScoreExecutableTests {
  @Test("scores are saved under $XDG_CONFIG_HOME and shown by the next run; --reset deletes them")
  func keepsScoreAcrossRuns() throws {
    // A folder not made yet, as on a first run.
    try withTemporaryFolder("keeping-score-e2e") { folder in
      let config = folder.appendingPathComponent("config")
      let environment = ["XDG_CONFIG_HOME": config.path, "KEEPING_SCORE_SEED": "5"]
      let saveFile = config.appendingPathComponent("observer-evolution/keeping-score.json")

      // With seed 5, chapter 1's right answers are a, b, b, a, a: the last answer here is wrong.
      let first = try runProduct(
        "keeping-score", ["1"], environment: environment, input: "a\nb\nb\na\nb\n")
      #expect(first.status == 0)
      #expect(first.output.contains("Game over: 4 of 5."))
      #expect(FileManager.default.fileExists(atPath: saveFile.path))

      let second = try runProduct("keeping-score", [], environment: environment, input: "")
      #expect(
        second.output.hasPrefix(
          "Question groups\n  1. Stone age: an array of closures: latest score 4 of 5\n"))

      try Data("garbage".utf8).write(to: saveFile)
      let third = try runProduct(
        "keeping-score", [], environment: environment, input: "1\na\nb\nb\na\na\n")
      #expect(third.status == 0)
      let setAside = try FileManager.default.contentsOfDirectory(
        atPath: saveFile.deletingLastPathComponent().path
      ).filter { $0.hasPrefix("keeping-score.json.unreadable-") }
      try #require(setAside.count == 1, "the damaged file is set aside, not overwritten")
      #expect(
        try Data(
          contentsOf: saveFile.deletingLastPathComponent().appendingPathComponent(setAside[0]))
          == Data("garbage".utf8))
      #expect(
        third.error
          == "keeping-score: the saved scores at \(saveFile.path) are damaged; it is kept as "
          + "\(saveFile.deletingLastPathComponent().appendingPathComponent(setAside[0]).path), "
          + "and the game starts fresh\n")
      #expect(third.output.contains("Game over: 5 of 5."))

      let reset = try runProduct("keeping-score", ["--reset"], environment: environment)
      #expect(reset.output == "Deleted the saved scores at \(saveFile.path).\n")
      #expect(!FileManager.default.fileExists(atPath: saveFile.path))
    }
  }
}

@Suite("workshop: the real executable")
struct WorkshopExecutableTests {
  // Nothing here depends on whether the learner has solved anything: these check the process,
  // its streams and the grading children, never a verdict.

  @Test(
    "away from its package it grades nothing: one line on stderr, exit 64; hint still works",
    arguments: [["3"], [], ["--format", "json"], ["--watch"]])
  func awayFromItsPackage(arguments: [String]) throws {
    try withTemporaryFolder("workshop-away") { away in
      let copy = away.appendingPathComponent("workshop")
      try copyExecutable(try productURL("workshop"), to: copy)
      // Run from its own folder too: the workshop also looks for its package from there.
      let result = try ProcessRun([copy.path] + arguments, in: away)
      #expect(result.status == ExitCode.usage.rawValue)
      #expect(result.output.isEmpty)
      #expect(
        result.error.hasPrefix("workshop: no package with an Exercises package above \(copy.path)"))
      #expect(result.error.filter { $0 == "\n" }.count == 1)
      let hint = try ProcessRun([copy.path, "hint", "1"], in: away)
      #expect(hint.status == 0 && !hint.output.isEmpty)
    }
  }

  @Test("grading one exercise runs every aimed and kept scenario in a child process")
  func gradesThroughChildren() throws {
    let result = try runProduct("workshop", ["1", "--format", "json"])
    #expect(result.status == 0)
    #expect(result.error.isEmpty)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let exercises = try #require(object["exercises"] as? [[String: Any]])
    #expect(exercises.count == 1)
    let scenarios = try #require(exercises.first?["criteria"] as? [[String: Any]])
    #expect(scenarios.count >= 2)
    for scenario in scenarios {
      #expect(["holds", "flaw"].contains(scenario["verdict"] as? String))
    }
  }

  @Test("bad input: one line on stderr, nothing on stdout, exit status 64")
  func badInput() throws {
    let result = try runProduct("workshop", ["hint"])
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(result.error.split(separator: "\n").count == 1)
  }
}
