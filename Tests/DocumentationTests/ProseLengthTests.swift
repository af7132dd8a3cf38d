import Testing

/// The most words of prose a chapter may have: a learner reads one in a sitting.
let proseLimit = 2_500

/// The comments that open a region the tools write (a command's output, a bench run's tables,
/// appendix 5a's table of variants), each with the comment that closes it.
private let generatedRegions = [
  "<!-- begin output: ": "<!-- end output -->", "<!-- bench: ": "<!-- end bench -->",
  "<!-- variants: ": "<!-- end variants -->",
]

/// The words of `document` outside its fenced blocks, the regions the tools write and its
/// `<!-- … -->` marker lines: what a reader reads as prose, which a new stage's column or row
/// in a regenerated table leaves as it was.
func proseWords(of document: MarkdownDocument) -> Int {
  var inBlock = false
  var regionEnd: String?
  var words = 0
  for line in document.lines {
    if line.hasPrefix("```") {
      inBlock.toggle()
      continue
    }
    if inBlock { continue }
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if let end = regionEnd {
      if trimmed == end { regionEnd = nil }
      continue
    }
    regionEnd = generatedRegions.first { trimmed.hasPrefix($0.key) }?.value
    if trimmed.hasPrefix("<!--") && trimmed.hasSuffix("-->") { continue }
    words += line.split(whereSeparator: \.isWhitespace).count
  }
  return words
}

@Suite("Documentation: a chapter is read in a sitting")
struct ProseLengthTests {
  @Test(
    "every chapter's and appendix's prose stays within 2,500 words",
    arguments: try MarkdownDocument.all().filter { $0.path.hasPrefix("Tutorial/") })
  func proseStaysShort(document: MarkdownDocument) {
    let words = proseWords(of: document)
    #expect(
      words <= proseLimit, "\(document.path): \(words) words of prose, more than \(proseLimit)")
  }

  @Test("the word count skips code blocks and markers")
  func countSkipsCode() throws {
    var document = try MarkdownDocument("Tutorial/00-introduction.md")
    document.text = "One two three.\n<!-- from: X -->\n```swift\nlet a = 1\n```\nfour five\n"
    #expect(proseWords(of: document) == 5)
  }

  @Test("the word count skips the regions the tools write")
  func countSkipsGeneratedRegions() throws {
    var document = try MarkdownDocument("Tutorial/00-introduction.md")
    document.text =
      "One two.\n<!-- begin output: swift run x -->\n| a | b |\n<!-- end output -->\nthree\n"
      + "<!-- bench: swift run y -->\nfigures here\n<!-- end bench -->\nfour\n"
    #expect(proseWords(of: document) == 4)
  }
}
