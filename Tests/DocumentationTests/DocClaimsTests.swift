import DesignCatalog
import Foundation
import TestSupport
import Testing

/// The chapters of the tutorial, numbered `NN-NAME.md`: not the appendices (`05a-…`, `05b-…`).
private func numberedChapters() throws -> [(number: Int, path: String)] {
  try FileManager.default.contentsOfDirectory(
    atPath: packageRoot.appendingPathComponent("Tutorial").path
  )
  .compactMap { file -> (Int, String)? in
    guard let match = file.wholeMatch(of: /([0-9]{2})-[a-z0-9-]+\.md/) else { return nil }
    return (Int(match.output.1)!, "Tutorial/\(file)")
  }
  .sorted { $0.0 < $1.0 }
}

@Suite("Documentation: what the README and the chapters say of themselves")
struct DocClaimsTests {
  @Test("the README says which chapters end with key points and a self-check, and they do")
  func keyPointsAndSelfCheck() throws {
    let ending = try numberedChapters().filter { chapter in
      let text = try String(
        contentsOf: packageRoot.appendingPathComponent(chapter.path), encoding: .utf8)
      return text.contains("\n## Key points\n")
        && text.contains("`swift run keeping-score \(chapter.number)`")
    }
    let first = try #require(ending.first?.number)
    let last = try #require(ending.last?.number)
    // The chapters that end so run without a gap.
    #expect(ending.map(\.number) == Array(first...last))
    let readme = collapsed(
      try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8))
    let claims = readme.matches(of: /ends with its key points/).count
    let right = readme.matches(
      of: try Regex("each of chapters \(first) to \(last) ends with its key points")
    ).count
    #expect(claims > 0)
    #expect(right == claims, "README.md says a chapter outside \(first) to \(last) ends so")
  }

  // A Swift block marked apple-only is not compiled; its reason must not name one of the
  // platform's observers that compare-stages runs on Linux.
  @Test("no apple-only marker says a reference that runs on Linux is missing there")
  func appleOnlyMarkersNameWhatIsMissing() throws {
    let runHere = [CatalogEntry.notificationCenter, .observation, .observations].map(\.design.name)
    var markers = 0
    for document in try MarkdownDocument.all() {
      for block in document.fencedBlocks {
        guard let marker = block.marker, marker.hasPrefix("apple-only") else { continue }
        markers += 1
        for name in runHere where marker.contains(try Regex("\\b\(name)\\b")) {
          Issue.record(
            "\(document.path):\(block.line): '\(marker)' names \(name), which runs on Linux")
        }
      }
    }
    #expect(markers > 0)
  }
}
