import Foundation

/// A value of the YAML subset the workflow is written in: block mappings, block sequences, flow
/// sequences of plain scalars (`[a, b]`), and plain, single- or double-quoted scalars. Every
/// scalar stays a string, as PyYAML's `BaseLoader` leaves it.
indirect enum YAMLValue: Equatable {
  case scalar(String)
  case sequence([YAMLValue])
  case mapping([(key: String, value: YAMLValue)])

  static func == (lhs: YAMLValue, rhs: YAMLValue) -> Bool {
    switch (lhs, rhs) {
    case (.scalar(let left), .scalar(let right)): left == right
    case (.sequence(let left), .sequence(let right)): left == right
    case (.mapping(let left), .mapping(let right)):
      left.map(\.key) == right.map(\.key) && left.map(\.value) == right.map(\.value)
    default: false
    }
  }

  /// The value under `key`, for a mapping.
  subscript(key: String) -> YAMLValue? {
    guard case .mapping(let entries) = self else { return nil }
    return entries.first { $0.key == key }?.value
  }

  /// The string, for a scalar.
  var string: String? {
    guard case .scalar(let text) = self else { return nil }
    return text
  }

  /// The items, for a sequence.
  var items: [YAMLValue] {
    guard case .sequence(let items) = self else { return [] }
    return items
  }

  /// The entries, for a mapping.
  var entries: [(key: String, value: YAMLValue)] {
    guard case .mapping(let entries) = self else { return [] }
    return entries
  }

  /// The value as JSON's objects: what `JSONSerialization` gives for PyYAML's dump of it.
  var json: Any {
    switch self {
    case .scalar(let text): text
    case .sequence(let items): items.map(\.json)
    case .mapping(let entries):
      Dictionary(entries.map { ($0.key, $0.value.json) }, uniquingKeysWith: { $1 })
    }
  }
}

/// Why a text is not in the YAML subset, and where.
struct YAMLError: Error, CustomStringConvertible {
  var line: Int
  var message: String
  var description: String { "line \(line): \(message)" }
}

/// Parses the YAML subset of ``YAMLValue``: indentation-aware, and strict where the workflow's
/// YAML would be ambiguous (a tab, an indentation that opens nothing, a key given twice).
struct YAMLSubsetParser {
  private var lines: [(number: Int, indent: Int, text: String)] = []
  private var position = 0

  /// Parses `text` into one value.
  static func parse(_ text: String) throws -> YAMLValue {
    var parser = YAMLSubsetParser()
    for (index, raw) in text.components(separatedBy: "\n").enumerated() {
      if raw.contains("\t") { throw YAMLError(line: index + 1, message: "a tab") }
      let content = withoutComment(raw)
      guard !content.allSatisfy(\.isWhitespace) else { continue }
      let indent = content.prefix { $0 == " " }.count
      parser.lines.append((index + 1, indent, String(content.dropFirst(indent))))
    }
    guard let first = parser.lines.first else { return .mapping([]) }
    let value = try parser.block(at: first.indent)
    if parser.position < parser.lines.count {
      let line = parser.lines[parser.position]
      throw YAMLError(line: line.number, message: "indented by \(line.indent), which opens nothing")
    }
    return value
  }

  /// `line` without a `#` comment that starts it or follows a space outside quotes.
  private static func withoutComment(_ line: String) -> String {
    var quote: Character?
    var previous: Character = " "
    for index in line.indices {
      let character = line[index]
      if let open = quote {
        if character == open { quote = nil }
      } else if character == "\"" || character == "'" {
        quote = character
      } else if character == "#", previous == " " {
        return String(line[..<index])
      }
      previous = character
    }
    return line
  }

  /// The block whose lines are indented by `indent`: a sequence or a mapping.
  private mutating func block(at indent: Int) throws -> YAMLValue {
    lines[position].text.hasPrefix("- ") || lines[position].text == "-"
      ? try sequence(at: indent) : try mapping(at: indent)
  }

  private mutating func sequence(at indent: Int) throws -> YAMLValue {
    var items: [YAMLValue] = []
    while position < lines.count, lines[position].indent == indent,
      lines[position].text.hasPrefix("- ")
    {
      let line = lines[position]
      let rest = String(line.text.dropFirst(2))
      let restIndent = indent + 2 + rest.prefix { $0 == " " }.count
      let content = rest.trimmingCharacters(in: .whitespaces)
      if Self.keyAndValue(content) != nil {
        // A mapping that starts on the item's line: read it as if on a line of its own.
        lines[position] = (line.number, restIndent, content)
        items.append(try mapping(at: restIndent))
      } else {
        position += 1
        items.append(try Self.scalarOrFlow(content, line: line.number))
      }
    }
    return .sequence(items)
  }

  private mutating func mapping(at indent: Int) throws -> YAMLValue {
    var entries: [(key: String, value: YAMLValue)] = []
    while position < lines.count, lines[position].indent == indent {
      let line = lines[position]
      guard let (key, value) = Self.keyAndValue(line.text) else {
        throw YAMLError(line: line.number, message: "neither 'key: value' nor '- item'")
      }
      if entries.contains(where: { $0.key == key }) {
        throw YAMLError(line: line.number, message: "'\(key)' given twice")
      }
      position += 1
      if !value.isEmpty {
        entries.append((key, try Self.scalarOrFlow(value, line: line.number)))
      } else if position < lines.count,
        lines[position].indent > indent
          || (lines[position].indent == indent && lines[position].text.hasPrefix("- "))
      {
        entries.append((key, try block(at: lines[position].indent)))
      } else {
        entries.append((key, .scalar("")))
      }
    }
    if position < lines.count, lines[position].indent > indent {
      let line = lines[position]
      throw YAMLError(line: line.number, message: "indented by \(line.indent), which opens nothing")
    }
    return .mapping(entries)
  }

  /// The key and the rest of a `key: value` or `key:` line, if it is one.
  private static func keyAndValue(_ text: String) -> (String, String)? {
    guard let first = text.first, first != "\"", first != "'", first != "[" else { return nil }
    if text.hasSuffix(":"), !text.dropLast().contains(": ") {
      return (String(text.dropLast()), "")
    }
    guard let separator = text.range(of: ": ") else { return nil }
    return (
      String(text[..<separator.lowerBound]),
      text[separator.upperBound...].trimmingCharacters(in: .whitespaces)
    )
  }

  private static func scalarOrFlow(_ text: String, line: Int) throws -> YAMLValue {
    if text.hasPrefix("[") {
      guard text.hasSuffix("]") else { throw YAMLError(line: line, message: "an unclosed [") }
      let inside = text.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
      guard !inside.isEmpty else { return .sequence([]) }
      return .sequence(
        try inside.split(separator: ",").map {
          try scalar($0.trimmingCharacters(in: .whitespaces), line: line)
        })
    }
    return try scalar(text, line: line)
  }

  private static func scalar(_ text: String, line: Int) throws -> YAMLValue {
    for quote in ["\"", "'"] where text.hasPrefix(quote) {
      guard text.count >= 2, text.hasSuffix(quote) else {
        throw YAMLError(line: line, message: "an unclosed \(quote)")
      }
      return .scalar(String(text.dropFirst().dropLast()))
    }
    return .scalar(text)
  }
}
