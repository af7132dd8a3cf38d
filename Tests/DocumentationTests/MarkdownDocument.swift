import Foundation
import TestSupport
import Testing

/// `text` with each run of white space (a line break in a paragraph, an indentation) as one space.
func collapsed(_ text: some StringProtocol) -> String {
  String(text).replacing(/\s+/, with: " ")
}

/// The Swift files below `folder` of the package.
func swiftFiles(under folder: String) -> [URL] {
  let root = packageRoot.appendingPathComponent(folder)
  return FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
    .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
}

/// A Markdown file of the package, read into the parts the sync checks need.
struct MarkdownDocument: CustomTestStringConvertible {
  /// A fenced block and the HTML comment just before it, if any.
  struct FencedBlock {
    var language: String
    var content: String
    /// The text of a `<!-- … -->` comment on the line before the fence.
    var marker: String?
    var line: Int
    /// How many lines it holds between its fences: none in a block just started.
    var lineCount: Int
  }

  /// Text between `<!-- begin output: COMMAND -->` and `<!-- end output -->`.
  struct RawOutput {
    var command: String
    var content: String
    var line: Int
    /// How many lines it holds between its comments: none in a region just started.
    var lineCount: Int
  }

  var path: String
  var text: String

  var testDescription: String { path }

  init(_ path: String) throws {
    self.path = path
    text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  /// The Markdown files whose code, output and links the tests check: the README, the
  /// chapters, the tools' reference, and the files a contributor reads.
  static func all() throws -> [MarkdownDocument] {
    let tutorial = try FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent("Tutorial").path)
    return try
      (["README.md"] + tutorial.filter { $0.hasSuffix(".md") }.sorted().map { "Tutorial/\($0)" }
      + ["REFERENCE.md", "CONTRIBUTING.md", "CHANGELOG.md"])
      .map(MarkdownDocument.init)
  }

  var lines: [String] { text.components(separatedBy: "\n") }

  var fencedBlocks: [FencedBlock] {
    var blocks: [FencedBlock] = []
    var current: (language: String, start: Int, marker: String?, body: [String])?
    for (index, line) in lines.enumerated() {
      if var block = current {
        if line.hasPrefix("```") {
          blocks.append(
            FencedBlock(
              language: block.language, content: Self.text(of: block.body),
              marker: block.marker, line: block.start + 1, lineCount: block.body.count))
          current = nil
        } else {
          block.body.append(line)
          current = block
        }
      } else if line.hasPrefix("```") {
        let previous = index > 0 ? lines[index - 1] : ""
        current = (String(line.dropFirst(3)), index, Self.comment(in: previous), [])
      }
    }
    return blocks
  }

  var rawOutputs: [RawOutput] { regions(from: "begin output: ", to: "end output") }

  /// Text between `<!-- bench: COMMAND -->` and `<!-- end bench -->`: a bench run's tables.
  var benchBlocks: [RawOutput] { regions(from: "bench: ", to: "end bench") }

  /// Text between `<!-- variants: COMMAND -->` and `<!-- end variants -->`: a run of
  /// `bash Benchmarks/variants`, appendix 05a's table.
  var variantBlocks: [RawOutput] { regions(from: "variants: ", to: "end variants") }

  /// The lines between a comment that starts with `opening` (the rest of it names the command)
  /// and the next comment that is exactly `closing`.
  private func regions(from opening: String, to closing: String) -> [RawOutput] {
    var regions: [RawOutput] = []
    var current: (command: String, start: Int, body: [String])?
    for (index, line) in lines.enumerated() {
      if let comment = Self.comment(in: line), comment.hasPrefix(opening) {
        current = (String(comment.dropFirst(opening.count)), index, [])
      } else if Self.comment(in: line) == closing, let region = current {
        regions.append(
          RawOutput(
            command: region.command, content: Self.text(of: region.body),
            line: region.start + 1, lineCount: region.body.count))
        current = nil
      } else {
        current?.body.append(line)
      }
    }
    return regions
  }

  /// Targets of relative Markdown links, `[text](target)`, without any `#fragment`.
  var relativeLinks: [String] {
    let pattern = /\]\(([^)\s]+)\)/
    return text.matches(of: pattern).map { String($0.output.1) }
      .filter { !$0.contains("://") && !$0.hasPrefix("#") && !$0.hasPrefix("mailto:") }
      .map { String($0.split(separator: "#", maxSplits: 1)[0]) }
  }

  /// `lines` as a command prints them, each ended by a newline: nothing for no line.
  private static func text(of lines: [String]) -> String {
    lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  private static func comment(in line: String) -> String? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("<!--"), trimmed.hasSuffix("-->") else { return nil }
    return trimmed.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
  }
}
