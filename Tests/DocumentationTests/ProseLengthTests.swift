import Testing

/// The most words of prose a chapter may have: a learner reads one in a sitting.
let proseLimit = 2_500

/// The chapters allowed more, each with its own limit and the reason.
let proseLimitExceptions: [String: (limit: Int, reason: String)] = [
  "Tutorial/05a-appendix-making-stage-5-fast.md": (
    3_000,
    "an appendix off the reader's path: the bench's measurements, one optimisation at a time, "
      + "read when wanted"
  )
]

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
    "every chapter's prose stays within 2,500 words, or its documented exception",
    arguments: try MarkdownDocument.all().filter { $0.path.hasPrefix("Tutorial/") })
  func proseStaysShort(document: MarkdownDocument) {
    let limit = proseLimitExceptions[document.path]?.limit ?? proseLimit
    let words = proseWords(of: document)
    #expect(words <= limit, "\(document.path): \(words) words of prose, more than \(limit)")
  }

  @Test("the word count skips code blocks and markers")
  func countSkipsCode() throws {
    var document = try MarkdownDocument("Tutorial/00-introduction.md")
    document.text = "One two three.\n<!-- from: X -->\n```swift\nlet a = 1\n```\nfour five\n"
    #expect(proseWords(of: document) == 5)
  }
}
