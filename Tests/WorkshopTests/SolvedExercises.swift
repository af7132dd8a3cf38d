import Foundation
import Synchronization
import TestSupport
import Testing
import WorkshopKit

// The solutions are graded as a learner's code is: built by SwiftPM in a copy of Exercises/,
// and run as the exercise's grading child.

/// A copy of `Exercises/`'s package, with every solution copied over its exercise and its
/// manifest pointed at this package by its full path, in `.build/workshop-tests/` (which git
/// ignores, and which later runs reuse): the path a learner's code takes, with code known to be
/// right. Made once a process.
func solvedCopy() throws -> ExerciseBuilder {
  try solvedCopyMade.withLock { made in
    if let made { return made }
    let root = packageRoot
    let copy = root.appendingPathComponent(".build/workshop-tests/Exercises")
    let files = FileManager.default
    try files.createDirectory(at: copy, withIntermediateDirectories: true)
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Exercises/Package.swift"), encoding: .utf8)
    let pointed = manifest.replacing(
      "let observerEvolution = \"..\"", with: "let observerEvolution = \"\(root.path)\"")
    #expect(pointed != manifest, "Exercises/Package.swift names its package differently")
    try write(pointed, to: copy.appendingPathComponent("Package.swift"))
    try? files.removeItem(at: copy.appendingPathComponent("Grading"))
    try files.copyItem(
      at: root.appendingPathComponent("Exercises/Grading"),
      to: copy.appendingPathComponent("Grading"))
    for exercise in Exercise.all {
      let folder = copy.appendingPathComponent(exercise.slug)
      try? files.removeItem(at: folder)
      try files.copyItem(at: root.appendingPathComponent(exercise.solutionFolder), to: folder)
    }
    let builder = ExerciseBuilder(root: root, exercises: copy)
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

/// The grading child of exercise `number`'s solution, built in ``solvedCopy()``.
func solutionChild(_ number: Int) throws -> String {
  let exercise = try #require(Exercise.numbered(number))
  let product = try solvedCopy().build(exercise)
  guard case .child(let child) = product else {
    throw SolutionDidNotBuild(product: product)
  }
  return child
}

/// A solution that SwiftPM did not build.
struct SolutionDidNotBuild: Error {
  var product: ExerciseBuilder.Product
}
