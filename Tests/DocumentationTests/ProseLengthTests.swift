import Testing

/// The most words of prose a chapter may have: a learner reads one in a sitting.
let proseLimit = 2_500

/// The words of `document` outside its fenced blocks and its `<!-- … -->` marker lines: what
/// a reader reads as prose.
func proseWords(of document: MarkdownDocument) -> Int {
  var inBlock = false
  var words = 0
  for line in document.lines {
    if line.hasPrefix("```") {
      inBlock.toggle()
      continue
    }
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if inBlock || trimmed.hasPrefix("<!--") && trimmed.hasSuffix("-->") { continue }
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
}
