import Foundation
import Testing

/// Quotes in the prose that are the prose's own words, not a copy of anything the code prints
/// or names.
private let proseQuotes: Set<String> = [
  "tell me when this value changes", "tell me each value", "call me with each new value",
  "about to change", "this design leaks", "fixed", "duplicate", "their own",
  // The README's description of how a flaw's test is named.
  "flaw: …",
  // How chapter 6 describes the scenarios' request, not a string of it.
  "an owner subscribes under a name, asking for the initial value",
  // Chapter 4's KVO example runs on Apple platforms only; its print is in the block above.
  "User's name is Ray", "User's name is Rockin' Ray",
]

/// The titles of every test and suite in the package, as `@Test("…")` and `@Suite("…")` give
/// them.
private let testTitles: Set<String> = {
  var titles: Set<String> = []
  for file in swiftFiles(under: "Tests") {
    guard let source = try? String(contentsOf: file, encoding: .utf8) else { continue }
    for match in source.matches(of: /@(?:Test|Suite)\(\s*"((?:[^"\\]|\\.)*)"/) {
      titles.insert(String(match.output.1).replacing("\\\"", with: "\""))
    }
  }
  return titles
}()

/// The package's Swift sources (not its tests, whose expectations would vouch for any quote),
/// as one text with white space collapsed: where a demo's line or a message is written.
private let swiftSources: String = collapsed(
  swiftFiles(under: "Sources").map { (try? String(contentsOf: $0, encoding: .utf8)) ?? "" }
    .joined(separator: " "))

/// What the docs show printed or written as code: every fenced block and raw output region.
/// Each is compared with the code by the other documentation tests, so a quote found here is
/// current.
private func shownInTheDocs() throws -> String {
  collapsed(
    try MarkdownDocument.all().map { document in
      (document.fencedBlocks.map(\.content) + document.rawOutputs.map(\.content))
        .joined(separator: " ")
    }.joined(separator: " "))
}

extension MarkdownDocument {
  /// The prose's double-quoted passages: outside code blocks, comments and inline code, with
  /// white space collapsed. A quote inside a quote stays part of the outer one.
  var quotes: [String] {
    var prose: [String] = []
    var inFence = false
    for line in lines {
      if line.hasPrefix("```") {
        inFence.toggle()
      } else if !inFence {
        prose.append(line)
      }
    }
    let text = collapsed(
      prose.joined(separator: "\n")
        .replacing(/<!--[\s\S]*?-->/, with: "")
        .replacing(/`[^`]*`/, with: "CODE"))
    var quotes: [String] = []
    var depth = 0
    var start = text.startIndex
    for index in text.indices where text[index] == "\"" {
      let before = index > text.startIndex ? text[text.index(before: index)] : " "
      let next = text.index(after: index)
      let after = next < text.endIndex ? text[next] : " "
      if " (*".contains(before), after != " " {
        if depth == 0 { start = next }
        depth += 1
      } else if depth > 0, !after.isLetter, !after.isNumber {
        depth -= 1
        if depth == 0 { quotes.append(String(text[start..<index])) }
      }
    }
    return quotes
  }
}

@Suite("Documentation: quotes")
struct QuoteTests {
  @Test(
    "every quote is a test's title, what the docs show printed, a string of the code, or prose",
    arguments: try MarkdownDocument.all())
  func quotesAreReal(document: MarkdownDocument) throws {
    let shown = try shownInTheDocs()
    for quote in document.quotes {
      if quote.hasPrefix("flaw: "), !proseQuotes.contains(quote) {
        #expect(
          testTitles.contains(quote),
          "\(document.path) names a test that does not exist: \"\(quote)\"")
      } else {
        let isReal =
          testTitles.contains(quote) || shown.contains(quote) || swiftSources.contains(quote)
          || proseQuotes.contains(quote)
        #expect(
          isReal,
          """
          \(document.path) quotes "\(quote)", which no test is titled, the docs do not show \
          printed and the code does not say; if it is the prose's own words, add it to \
          proseQuotes
          """)
      }
    }
  }

  @Test("the quotes found include the test titles and evidence lines the chapters cite")
  func quotesAreFound() throws {
    let chapter3 = try MarkdownDocument("Tutorial/03-information-age-weak-references.md")
    #expect(
      chapter3.quotes.contains("flaw: dead entries stay stored however many times the value is set")
    )
    let chapter2 = try MarkdownDocument("Tutorial/02-iron-age-keyed-dictionary.md")
    #expect(
      chapter2.quotes.contains(
        "only the second observer was called: its bind under \"label\" replaced the first"))
  }
}
