import Foundation
import Synchronization
import TestSupport
import Testing
import WorkshopKit

// The solutions, and the known answers (patches of them), are graded as a learner's code is:
// built by SwiftPM in a copy of Exercises/, and run as the exercise's grading child.

/// A copy of `Exercises/`'s package in `folder`, with every solution copied over its exercise
/// and its manifest pointed at this package by its full path: the path a learner's code takes,
/// with code known to be right. Later runs reuse the copy's build folder.
private func exercisesCopy(at folder: URL) throws -> ExerciseBuilder {
  let root = packageRoot
  let files = FileManager.default
  try files.createDirectory(at: folder, withIntermediateDirectories: true)
  let manifest = try String(
    contentsOf: root.appendingPathComponent("Exercises/Package.swift"), encoding: .utf8)
  let pointed = manifest.replacing(
    "let observerEvolution = \"..\"", with: "let observerEvolution = \"\(root.path)\"")
  #expect(pointed != manifest, "Exercises/Package.swift names its package differently")
  try write(pointed, to: folder.appendingPathComponent("Package.swift"))
  try? files.removeItem(at: folder.appendingPathComponent("Grading"))
  try files.copyItem(
    at: root.appendingPathComponent("Exercises/Grading"),
    to: folder.appendingPathComponent("Grading"))
  for exercise in Exercise.all {
    let copied = folder.appendingPathComponent(exercise.slug)
    try? files.removeItem(at: copied)
    try files.copyItem(at: root.appendingPathComponent(exercise.solutionFolder), to: copied)
  }
  return ExerciseBuilder(root: root, exercises: folder)
}

/// The copy of `Exercises/` the solutions are built in, `.build/workshop-tests/Exercises` (which
/// git ignores). Made once a process.
func solvedCopy() throws -> ExerciseBuilder {
  try solvedCopyMade.withLock { made in
    if let made { return made }
    let builder = try exercisesCopy(
      at: packageRoot.appendingPathComponent(".build/workshop-tests/Exercises"))
    made = builder
    return builder
  }
}

private let solvedCopyMade = Mutex<ExerciseBuilder?>(nil)

/// Writes `text` to `file`, only if it differs: SwiftPM rebuilds what a new date touches.
private func write(_ text: String, to file: URL) throws {
  guard (try? String(contentsOf: file, encoding: .utf8)) != text else { return }
  try text.write(to: file, atomically: true, encoding: .utf8)
}

/// The grading child of exercise `number`'s solution, built in ``solvedCopy()``, off Swift's
/// cooperative pool (``offThePool(_:)``).
func solutionChild(_ number: Int) async throws -> String {
  let exercise = try #require(Exercise.numbered(number))
  let product = try await offThePool { try solvedCopy().build(exercise) }
  guard case .child(let child) = product else {
    throw DidNotBuild(name: exercise.slug, product: product)
  }
  return child
}

/// Code that SwiftPM did not build.
struct DidNotBuild: Error, CustomStringConvertible {
  var name: String
  var product: ExerciseBuilder.Product

  var description: String { "\(name) did not build: \(product)" }
}

// MARK: - Known answers, as patches

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

/// The copies of `Exercises/` the known answers are built in, two so that one builds while the
/// other links: `.build/workshop-tests/Answers-0` and `-1`, or `WORKSHOP_ANSWERS_COPY-0` and
/// `-1` if that is set (folders of their own for each process that builds answers at once).
private func answersCopy(_ number: Int) throws -> ExerciseBuilder {
  if let made = answersCopiesMade.withLock({ $0[number] }) { return made }
  let base =
    ProcessInfo.processInfo.environment["WORKSHOP_ANSWERS_COPY"]
    ?? packageRoot.appendingPathComponent(".build/workshop-tests/Answers").path
  let builder = try exercisesCopy(at: URL(fileURLWithPath: "\(base)-\(number)"))
  answersCopiesMade.withLock { $0[number] = builder }
  return builder
}

private let answersCopiesMade = Mutex<[Int: ExerciseBuilder]>([:])

/// Why a patch could not be graded.
struct PatchDidNotApply: Error, CustomStringConvertible {
  var name: String
  var said: String
  var description: String {
    "\(name).patch no longer applies exactly to its solution; remake it: \(said)"
  }
}

/// Builds known answers in one copy of `Exercises/`, one at a time, each writing its exercise's
/// folder there, on a queue of its own: the tests waiting for it hold no thread of Swift's
/// cooperative pool, which a build that blocks for seconds would starve.
private final class AnswerBuilds: @unchecked Sendable {
  // Unchecked: `lastBuilt` is read and written only on `queue`, which is serial.
  /// Which copy it builds in.
  let copy: Int
  private let queue: DispatchQueue
  /// The answer each exercise's child was last built for, and a digest of that child.
  private var lastBuilt: [Int: (name: String, digest: Int)] = [:]

  init(copy: Int) {
    self.copy = copy
    queue = DispatchQueue(label: "answers-\(copy)")
  }

  /// The grading child of `answer`'s exercise, built with `answer`'s patch applied to the
  /// solution, copied to a file of its own beside the one SwiftPM builds.
  func child(of answer: AnswerPatch) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result { try self.build(answer) }) }
    }
  }

  /// A digest of every byte of the file at `path`, good for telling files apart in this
  /// process. (`Data`'s own hash reads only its first bytes.)
  private func digest(of path: String) -> Int {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return 0 }
    var hasher = Hasher()
    data.withUnsafeBytes { hasher.combine(bytes: $0) }
    return hasher.finalize()
  }

  /// ``child(of:)``'s work, on `queue`.
  private func build(_ answer: AnswerPatch) throws -> String {
    let builder = try answersCopy(copy)
    let files = FileManager.default
    let folder = builder.exercises.appendingPathComponent(answer.exercise.slug)
    try? files.removeItem(at: folder)
    try files.copyItem(
      at: packageRoot.appendingPathComponent(answer.exercise.solutionFolder), to: folder)
    let patched = try ProcessRun(
      ["patch", "-p1", "-d", folder.path], input: answer.diff, timeLimit: .seconds(60))
    let said = patched.outputAndError
    guard patched.status == 0, said.range(of: "offset|fuzz", options: .regularExpression) == nil
    else { throw PatchDidNotApply(name: answer.name, said: said) }
    var product = builder.build(answer.exercise)
    // Once, in a full run, an answer was graded with the child of the answer built before it:
    // SwiftPM's incremental build had not rebuilt it. A child identical to the one built for
    // another answer is built again, once, its sources touched; never graded.
    if case .child(let built) = product, let last = lastBuilt[answer.exercise.number],
      last.name != answer.name, last.digest == digest(of: built)
    {
      for file in try files.contentsOfDirectory(atPath: folder.path) {
        try files.setAttributes(
          [.modificationDate: Date()], ofItemAtPath: folder.appendingPathComponent(file).path)
      }
      product = builder.build(answer.exercise)
      if case .child(let again) = product, digest(of: again) == last.digest {
        throw DidNotBuild(
          name: answer.name, product: .errors("SwiftPM kept the child of \(last.name)"))
      }
    }
    guard case .child(let built) = product else {
      throw DidNotBuild(name: answer.name, product: product)
    }
    lastBuilt[answer.exercise.number] = (answer.name, digest(of: built))
    // Copied by `cp`, not in this process: a file this process had open for writing, inherited
    // by a child it starts meanwhile, could not be run ("Text file busy").
    // Of its own: tests may grade one answer at once.
    let own = "\(built).\(answer.name).\(UUID().uuidString)"
    let copied = try ProcessRun(["cp", built, own], timeLimit: .seconds(60))
    guard copied.status == 0 else {
      throw DidNotBuild(name: answer.name, product: .errors(copied.outputAndError))
    }
    return own
  }
}

/// The answers' builders, one per copy, and how many answers have been handed to them: each
/// answer goes to the next in turn.
private let answerBuilds = [AnswerBuilds(copy: 0), AnswerBuilds(copy: 1)]
private let answersHandedOut = Mutex(0)

/// Runs `body` with the grading child of `answer`'s exercise, built as a learner's code is,
/// with `answer`'s patch applied to the solution; the child is a copy of its own, removed once
/// `body` returns.
func withAnswerChild<Result>(
  _ answer: AnswerPatch, _ body: (_ child: String) async throws -> Result
) async throws -> Result {
  let turn = answersHandedOut.withLock { count in
    defer { count += 1 }
    return count % answerBuilds.count
  }
  let child = try await answerBuilds[turn].child(of: answer)
  defer { try? FileManager.default.removeItem(atPath: child) }
  return try await body(child)
}

/// Runs `body` with the grading child of the wrong answer called `name`.
func withWrongAnswerChild<Result>(
  _ name: String, _ body: (_ child: String) async throws -> Result
) async throws -> Result {
  try await withAnswerChild(AnswerPatch.named(name), body)
}

/// `work`, run on a thread of its own, off Swift's cooperative pool: what waits seconds for a
/// process (a build, a grading child) would hold one of the pool's few threads, and starve the
/// tests that run there.
func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws
  -> Value
{
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// How `command`, a grading child, grades `exercise`, as `IsolatedGrading.grade` says, off
/// Swift's cooperative pool (``offThePool(_:)``), and no more of them at once than the machine
/// has processors: as many as ran on the pool's threads before, so that the tests of stage 5
/// that run beside them see no busier a machine.
func grade(
  _ exercise: Exercise, command: [String], limits: GradingLimits = .standard,
  seed: UInt64? = nil
) async -> ExerciseGrade {
  // Nothing in it throws.
  try! await offThePool {
    gradingSlots.wait()
    defer { gradingSlots.signal() }
    return IsolatedGrading.grade(exercise, command: command, limits: limits, seed: seed)
  }
}

/// How many more gradings may start now.
private let gradingSlots = DispatchSemaphore(value: ProcessInfo.processInfo.activeProcessorCount)
