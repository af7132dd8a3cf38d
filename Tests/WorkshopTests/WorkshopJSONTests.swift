import Foundation
import ObserverScenarios
import TestSupport
import Testing
import WorkshopKit

/// The first exercise's entry of `workshop --format json` on `grades`.
private func entry(_ grades: [ExerciseGrade]) throws -> [String: Any] {
  let object = try #require(
    try JSONSerialization.jsonObject(with: Data(WorkshopCommand.json(grades).utf8))
      as? [String: Any])
  let exercises = try #require(object["exercises"] as? [[String: Any]])
  return try #require(exercises.first)
}

/// Every key path in a JSON value, arrays flattened: "exercises[].criteria[].detail".
private func keyPaths(of value: Any, prefix: String = "") -> Set<String> {
  if let object = value as? [String: Any] {
    return object.reduce(into: []) { paths, entry in
      let path = prefix.isEmpty ? entry.key : "\(prefix).\(entry.key)"
      paths.insert(path)
      paths.formUnion(keyPaths(of: entry.value, prefix: path))
    }
  }
  if let array = value as? [Any] {
    return array.reduce(into: []) { $0.formUnion(keyPaths(of: $1, prefix: prefix + "[]")) }
  }
  return []
}

/// Exercises/README.md's section about `--format json`, up to the next section.
private func documentedSection() throws -> String {
  let readme = try String(
    contentsOf: packageRoot.appendingPathComponent("Exercises/README.md"), encoding: .utf8)
  let start = try #require(readme.range(of: "\n## Output for programs\n"))
  let rest = readme[start.upperBound...]
  return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
}

/// The key paths the first cells of a section's table name: "`exercises[].number`, `.slug`"
/// names "exercises[].number" and "exercises[].slug".
private func documentedKeys(in section: String) -> Set<String> {
  var keys: Set<String> = []
  for row in section.split(separator: "\n") where row.hasPrefix("| `") {
    let cell = row.dropFirst(2).prefix { $0 != "|" }
    var parent = ""
    // Odd parts are the ones between backquotes.
    let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
    for (index, part) in parts.enumerated() where index % 2 == 1 {
      let key = part.hasPrefix(".") ? parent + part : String(part)
      parent = String(key[..<(key.lastIndex(of: ".") ?? key.startIndex)])
      keys.insert(key)
    }
  }
  return keys
}

@Suite("Workshop: --format json carries what the text shows")
struct WorkshopJSONTests {
  @Test("a graded exercise: each result's evidence, ran, and the status 'graded'")
  func graded() throws {
    let exercise = try #require(Exercise.numbered(2))
    let grade = ExerciseGrade(exercise, code: try #require(testedCode[2]))
    let entry = try entry([grade])
    #expect(entry["status"] as? String == "graded")
    #expect(entry["statusDetail"] == nil)
    #expect(entry["compilerErrors"] == nil)
    let scenarios = try #require(entry["criteria"] as? [[String: Any]])
    #expect(scenarios.count == grade.results.count)
    for (scenario, result) in zip(scenarios, grade.results) {
      #expect(Set(scenario.keys) == ["name", "verdict", "aimed", "detail", "ran"])
      #expect(scenario["name"] as? String == result.criterion.name)
      #expect(scenario["detail"] as? String == result.outcome.detail)
      #expect(scenario["ran"] as? Bool == true)
    }
  }

  @Test("code that does not compile: its status, the compiler's lines, nothing run")
  func doesNotCompile() throws {
    let exercise = try #require(Exercise.numbered(3))
    let errors = """
      Exercises/03-keys-per-owner/Observable.swift:12:5: error: cannot find 'x' in scope
      Exercises/03-keys-per-owner/Observable.swift:20:1: error: expected '}'
      """
    let entry = try entry([ExerciseGrade(exercise, buildErrors: errors)])
    #expect(entry["status"] as? String == "does-not-compile")
    #expect(entry["compilerErrors"] as? [String] == errors.split(separator: "\n").map(String.init))
    #expect((entry["statusDetail"] as? String)?.contains("does not compile") == true)
    let scenarios = try #require(entry["criteria"] as? [[String: Any]])
    #expect(scenarios.count == exercise.criteria.count)
    for scenario in scenarios {
      #expect(scenario["ran"] as? Bool == false)
      #expect(scenario["verdict"] as? String == "flaw")
      #expect(scenario["detail"] as? String == "not run: the exercise does not compile")
    }
  }

  @Test("code that crashes in a check: status 'graded', the runtime's line in its detail")
  func crashed() throws {
    let exercise = try #require(Exercise.numbered(2))
    let trapping = exercise.criteria[2].criterion
    let child = try StandIn(
      #"  [ "$name" = "\#(trapping.name)" ] && { "#
        + #"echo "Observable.swift:73: Fatal error: Index out of range" >&2; kill -ILL $$; }"#)
    defer { child.remove() }
    let entry = try entry([IsolatedGrading.grade(exercise, command: [child.path])])
    #expect(entry["status"] as? String == "graded")
    #expect(entry["statusDetail"] == nil)
    let scenarios = try #require(entry["criteria"] as? [[String: Any]])
    #expect(scenarios.allSatisfy { $0["ran"] as? Bool == true })
    let detail = try #require(scenarios[2]["detail"] as? String)
    #expect(detail.hasPrefix("while it ran, the program crashed (signal \(SIGILL))"), "\(detail)")
    #expect(detail.contains("Fatal error: Index out of range"), "\(detail)")
    #expect(scenarios[3]["verdict"] as? String == "holds")
  }

  @Test("code that runs out of the exercise's time: status 'timed-out'; the rest not run")
  func timedOut() throws {
    let exercise = try #require(Exercise.numbered(2))
    let child = try StandIn("  exec sleep 60")
    defer { child.remove() }
    let grade = IsolatedGrading.grade(
      exercise, command: [child.path], limits: GradingLimits(perCriterion: 1, total: 2.5))
    let entry = try entry([grade])
    #expect(entry["status"] as? String == "timed-out")
    #expect((entry["statusDetail"] as? String)?.contains("2.5 seconds") == true)
    let scenarios = try #require(entry["criteria"] as? [[String: Any]])
    #expect(scenarios.first?["ran"] as? Bool == true, "the hung one ran, and got its ✗")
    #expect(scenarios.last?["ran"] as? Bool == false)
  }

  @Test("Exercises/README.md's JSON example has exactly the keys the real output has")
  func documentedExample() throws {
    let section = try documentedSection()
    let start = try #require(section.range(of: "```json\n"))
    let end = try #require(section[start.upperBound...].range(of: "\n```"))
    let example = try JSONSerialization.jsonObject(
      with: Data(section[start.upperBound..<end.lowerBound].utf8))
    let solved = ExerciseGrade(
      try #require(Exercise.numbered(1)), code: try #require(testedCode[1]))
    let broken = ExerciseGrade(
      try #require(Exercise.numbered(2)), buildErrors: "Observable.swift:1:1: error: oops")
    let real = try JSONSerialization.jsonObject(
      with: Data(WorkshopCommand.json([solved, broken]).utf8))
    #expect(keyPaths(of: example) == keyPaths(of: real))
    // The table names every key that holds a value, and every status.
    let leaves = keyPaths(of: real).filter { path in
      !keyPaths(of: real).contains { $0.hasPrefix(path + ".") || $0.hasPrefix(path + "[].") }
    }
    #expect(documentedKeys(in: section) == leaves)
    for status in [
      "graded", "does-not-compile", "crashed", "timed-out", "exited", "could-not-start",
    ] {
      #expect(section.contains("`\"\(status)\"`"), "\(status)")
    }
  }
}
