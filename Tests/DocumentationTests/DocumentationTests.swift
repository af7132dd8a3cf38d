import CompareStagesKit
import Foundation
import Testing

/// What a command shown in the docs prints, run in-process.
private func output(of command: String) throws -> String {
  var words = command.split(separator: " ").map(String.init)
  guard words.starts(with: ["swift", "run"]), words.count >= 3 else {
    throw DocumentationError("a documented command must start with 'swift run PRODUCT': \(command)")
  }
  words.removeFirst(2)
  let product = words.removeFirst()
  switch product {
  case "compare-stages":
    let result = CompareStages.run(words)
    guard result.status == 0 else {
      throw DocumentationError("\(command) exited \(result.status): \(result.standardError)")
    }
    return result.standardOutput
  default:
    throw DocumentationError("no way to run '\(product)' in the tests: \(command)")
  }
}

struct DocumentationError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

@Suite("Documentation matches the code")
struct DocumentationTests {
  @Test("every output block is what its command prints", arguments: try MarkdownDocument.all())
  func outputBlocks(document: MarkdownDocument) throws {
    for block in document.fencedBlocks {
      guard let marker = block.marker, marker.hasPrefix("output: ") else { continue }
      let command = String(marker.dropFirst("output: ".count))
      #expect(
        block.content == (try output(of: command)),
        "\(document.path):\(block.line): the output of '\(command)' has changed")
    }
    for raw in document.rawOutputs {
      #expect(
        raw.content == (try output(of: raw.command)),
        "\(document.path):\(raw.line): the output of '\(raw.command)' has changed")
    }
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
      guard marker.hasPrefix("from: ") else {
        Issue.record("\(document.path):\(block.line): unknown marker '\(marker)'")
        continue
      }
      let path = String(marker.dropFirst("from: ".count))
      #expect(path.hasPrefix("Sources/"), "\(document.path):\(block.line): \(path) is not compiled")
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

/// Whether the lines of `block`, once their common indentation is removed, stand in `source`
/// one after another, with the same indentation relative to each other.
func containsLines(of block: String, in source: String) -> Bool {
  func dedented(_ lines: [Substring]) -> [String] {
    let indent =
      lines.filter { !$0.allSatisfy(\.isWhitespace) }
      .map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }
  }
  let wanted = dedented(block.split(separator: "\n", omittingEmptySubsequences: false).dropLast())
  let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
  guard !wanted.isEmpty, wanted.count <= sourceLines.count else { return false }
  for start in 0...(sourceLines.count - wanted.count) {
    let window = Array(sourceLines[start..<(start + wanted.count)])
    if dedented(window) == wanted { return true }
  }
  return false
}
