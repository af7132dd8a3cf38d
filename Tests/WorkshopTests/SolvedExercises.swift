import Foundation
import Synchronization
import TestSupport
import Testing
import WorkshopKit

// The solutions, and the known answers (patches of them: AnswerPatch.swift), are graded as a
// learner's code is: built by SwiftPM in a copy of Exercises/, and run as the exercise's grading
// child.

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

/// The copies of `Exercises/` the known answers are built in, two so that one builds while the
/// other links: `.build/workshop-tests/Answers-0` and `-1`.
private func answersCopy(_ number: Int) throws -> ExerciseBuilder {
  if let made = answersCopiesMade.withLock({ $0[number] }) { return made }
  let builder = try exercisesCopy(
    at: packageRoot.appendingPathComponent(".build/workshop-tests/Answers-\(number)"))
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
