import Foundation
import Testing

/// Runs `swift` with `arguments` in a process of its own, and returns what it printed on
/// standard output, on standard error, and its exit status.
private func swiftCommand(_ arguments: [String]) throws -> (
  output: String, error: String, status: Int32
) {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("swift-command-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let (outputFile, errorFile) = (
    folder.appendingPathComponent("output"), folder.appendingPathComponent("error")
  )
  _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
  _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["swift"] + arguments
  process.standardOutput = try FileHandle(forWritingTo: outputFile)
  process.standardError = try FileHandle(forWritingTo: errorFile)
  try process.run()
  process.waitUntilExit()
  return (
    try String(contentsOf: outputFile, encoding: .utf8),
    try String(contentsOf: errorFile, encoding: .utf8), process.terminationStatus
  )
}

@Suite("README: grade your own observable")
struct GradeYourOwnTests {
  private let example = "Examples/GradeYourOwn"

  @Test("the README shows the outside example's source, line for line")
  func sourceMatches() throws {
    let readme = try MarkdownDocument("README.md")
    let block = try #require(
      readme.fencedBlocks.first { $0.marker == "example: grade-your-own" },
      "README.md has no <!-- example: grade-your-own --> block")
    let source = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "\(example)/Sources/GradeYourOwn/main.swift"),
      encoding: .utf8)
    #expect(block.language == "swift")
    #expect(block.content == source, "README.md:\(block.line): copy \(example)'s main.swift")
  }

  @Test(
    "the example builds as an outside package, importing only ObserverScenarios, and prints what the README shows"
  )
  func outsidePackageRuns() throws {
    let readme = try MarkdownDocument("README.md")
    let shown = try #require(
      readme.fencedBlocks.first { $0.marker == "example-output: grade-your-own" },
      "README.md has no <!-- example-output: grade-your-own --> block")
    let source = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "\(example)/Sources/GradeYourOwn/main.swift"),
      encoding: .utf8)
    let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") }
    #expect(imports == ["import ObserverScenarios"], "the example imports the product alone")

    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("grade-your-own-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let run = try swiftCommand([
      "run", "--package-path", packageRoot.appendingPathComponent(example).path,
      "--scratch-path", scratch.path, "--quiet",
    ])
    try #require(run.status == 0, "the example did not build or run:\n\(run.error)")
    #expect(run.output == shown.content, "README.md:\(shown.line): the example's output changed")
  }
}
