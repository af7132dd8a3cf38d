import Foundation
import TestSupport
import Testing
import WorkshopKit

/// A known answer to an exercise, kept as a patch against its solution: a wrong answer in
/// `Tests/WrongAnswers/`, a right one written unlike the solution in `Tests/RightAnswers/`. Its
/// name is its file's (`01-removes-all`), whose first two digits are its exercise's number; its
/// first lines, up to the diff, say what it is (`Key: value`); the diff is made in the
/// solution's folder (`diff -u --label a/Observable.swift --label b/Observable.swift …`) and must
/// apply there with no offset and no fuzz.
///
/// A wrong answer's lines: `Mistake:` (a sentence), `Caught by:` (the scenario or check whose
/// evidence must name it), `Evidence:` (what that evidence must say; `|` separates phrases of
/// which it must say one), and, if need be, `Counterexample:` (what the shortest program of
/// the exercise's generated check must say, `|` as above) and `Race: yes` (a mistake that
/// shows only when two threads run at once). A right answer's line: `Written differently:`.
///
/// To check some answers alone: `WORKSHOP_ANSWERS=01-removes-all,02- swift test --filter
/// Answer` (names, or their starts, separated by commas).
struct AnswerPatch: Sendable, CustomTestStringConvertible {
  /// Which folder it is in.
  enum Kind: String, Sendable {
    case wrong = "WrongAnswers"
    case right = "RightAnswers"
  }

  var kind: Kind
  /// Its name: its file's, without `.patch`.
  var name: String
  var exercise: Exercise
  /// Its first lines, by key.
  var fields: [String: String]
  /// The diff, from its first `--- ` line.
  var diff: String

  var testDescription: String { name }

  /// The mistake, in a sentence; a right answer's is empty.
  var mistake: String { fields["Mistake", default: ""] }
  /// How a right answer differs from the solution.
  var how: String { fields["Written differently", default: ""] }
  /// The criterion whose evidence names the mistake.
  var caughtBy: Criterion? { fields["Caught by"].flatMap(Criterion.init(name:)) }
  /// What that evidence must say: one of these phrases.
  var evidence: [Substring] { fields["Evidence", default: ""].split(separator: "|") }
  /// What the shortest counterexample must say: one of these phrases, if any.
  var counterexample: [Substring] { fields["Counterexample", default: ""].split(separator: "|") }
  /// Whether its mistake is a race.
  var isRace: Bool { fields["Race"] == "yes" }

  private static let keys: [Kind: (required: Set<String>, optional: Set<String>)] = [
    .wrong: (["Mistake", "Caught by", "Evidence"], ["Counterexample", "Race"]),
    .right: (["Written differently"], []),
  ]

  /// Reads the patch `name` of `kind`.
  ///
  /// - Throws: ``Malformed`` when its name has no exercise's number, a line before the diff is
  ///   not a known `Key: value`, a key it needs is missing, or it has no diff.
  init(_ kind: Kind, named name: String) throws {
    let file = Self.folder(kind).appendingPathComponent("\(name).patch")
    let text = try String(contentsOf: file, encoding: .utf8)
    guard let number = Int(name.prefix(2)), let exercise = Exercise.numbered(number) else {
      throw Malformed(name: name, problem: "its name does not start with an exercise's number")
    }
    guard let start = text.range(of: "\n--- ") else {
      throw Malformed(name: name, problem: "no diff (no line starting with \"--- \")")
    }
    var fields: [String: String] = [:]
    let (required, optional) = Self.keys[kind]!
    for line in text[..<start.lowerBound].split(separator: "\n") {
      guard let colon = line.firstIndex(of: ":"),
        case let key = String(line[..<colon]), required.union(optional).contains(key)
      else {
        throw Malformed(
          name: name,
          problem: "\"\(line)\" is not one of \(required.union(optional).sorted()) then a value")
      }
      fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    if let missing = required.subtracting(fields.keys).sorted().first {
      throw Malformed(name: name, problem: "no \"\(missing):\" line")
    }
    (self.kind, self.name, self.exercise, self.fields) = (kind, name, exercise, fields)
    diff = String(text[text.index(after: start.lowerBound)...])
  }

  /// Where the answers of `kind` are.
  static func folder(_ kind: Kind) -> URL {
    packageRoot.appendingPathComponent("Tests/\(kind.rawValue)")
  }

  /// The names of the answers of `kind`, sorted; only those `WORKSHOP_ANSWERS` names, if set.
  static func names(_ kind: Kind) -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder(kind).path)) ?? []
    let only = ProcessInfo.processInfo.environment["WORKSHOP_ANSWERS"]?
      .split(separator: ",").map(String.init)
    return files.filter { $0.hasSuffix(".patch") }.map { String($0.dropLast(".patch".count)) }
      .filter { name in only.map { $0.contains { name.hasPrefix($0) } } ?? true }.sorted()
  }

  /// Every answer of `kind` that reads; `AnswerPatchTests` fails on any that does not.
  static func all(_ kind: Kind) -> [AnswerPatch] {
    names(kind).compactMap { try? AnswerPatch(kind, named: $0) }
  }

  /// The answer of `kind` called `name`.
  static func named(_ name: String, _ kind: Kind = .wrong) throws -> AnswerPatch {
    try AnswerPatch(kind, named: name)
  }

  /// A patch that does not read.
  struct Malformed: Error, CustomStringConvertible {
    var name: String
    var problem: String
    var description: String { "\(name).patch: \(problem)" }
  }
}
