import Foundation

/// 1001 as "1,001", whatever the locale.
package func grouped(_ number: Int) -> String {
  var digits = String(number.magnitude)
  for end in stride(from: digits.count - 3, to: 0, by: -3) {
    digits.insert(",", at: digits.index(digits.startIndex, offsetBy: end))
  }
  return (number < 0 ? "-" : "") + digits
}

/// 12.345 as "12.3", 1234.5 as "1,235": one decimal under 100, none above, "–" for a value that
/// is not finite.
package func decimal(_ value: Double) -> String {
  guard value.isFinite else { return "–" }
  if value >= 100 { return grouped(Int(value.rounded())) }
  return String(format: "%.1f", value)
}

extension String {
  /// The text, padded with spaces to `width` characters (cut, if it is longer): a column.
  package func padded(to width: Int) -> String {
    padding(toLength: width, withPad: " ", startingAt: 0)
  }
}

/// Wraps the words of `text` at `width` columns (a longer word stands alone), the first line
/// behind `firstPrefix`, the others behind `prefix`; the lines come without newlines.
package func wrap(_ text: String, firstPrefix: String, prefix: String, width: Int = 100)
  -> [String]
{
  var lines: [String] = []
  var line = firstPrefix
  var lineHasWords = false
  for word in text.split(separator: " ") {
    if lineHasWords && line.count + 1 + word.count > width {
      lines.append(line)
      line = prefix
      lineHasWords = false
    }
    line += (lineHasWords ? " " : "") + word
    lineHasWords = true
  }
  lines.append(line)
  return lines
}

/// The middle value; the mean of the two middle ones for an even count; 0 for none.
package func median(_ values: [Double]) -> Double {
  guard !values.isEmpty else { return 0 }
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

/// `value` as JSON for people and programs alike: indented, keys sorted, slashes left alone,
/// ending with a newline.
package func prettyJSON(_ value: some Encodable) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
  // JSON has no infinity or NaN (a ratio over a floor measured as 0 ns would be one), and the
  // encoder throws on them unless told what to write instead. With that, encoding plain structs
  // of strings, numbers and Booleans cannot fail.
  encoder.nonConformingFloatEncodingStrategy = .convertToString(
    positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
  let data = try! encoder.encode(value)
  return String(decoding: data, as: UTF8.self) + "\n"
}

/// The lines of a Markdown table: the header, the rule under it, then a line a row; with
/// `figuresRightAligned`, every column after the first is aligned right.
package func markdownTable(
  header: [String], rows: [[String]], figuresRightAligned: Bool = false
) -> [String] {
  func line(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }
  let rule = header.indices.map { $0 > 0 && figuresRightAligned ? "---:" : "---" }
  return [line(header), line(rule)] + rows.map(line)
}
