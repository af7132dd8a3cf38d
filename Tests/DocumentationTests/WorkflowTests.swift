import Foundation
import TestSupport
import Testing

/// The package's library products, as `Package.swift` declares them.
func libraryProducts() throws -> [String] {
  // Package.swift is made of tables: a library product for each stage of `lessonStages` and
  // for `tuned`, and the ones named as libraries. (Running SwiftPM here would wait on the lock
  // of the build that runs this test.)
  let manifest = try String(
    contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
  let table = try #require(manifest.firstMatch(of: /let lessonStages[^=]*= \[([^=]*)\]\n/))
  let tuned = try #require(manifest.firstMatch(of: /let tuned = "([^"]+)"/)).output.1
  // A product whose name starts with an underscore is the repository's own, which Exercises/
  // links: not one people depend on (REFERENCE.md says so).
  return table.output.1.matches(of: /\("([^"]+)",/).map { String($0.output.1) } + [String(tuned)]
    + manifest.matches(of: /\.library\(name: "([^_"][^"]*)"/).map { String($0.output.1) }
}

@Suite("The hosted CI workflow")
struct WorkflowTests {
  private let path = ".github/workflows/ci.yml"

  /// The workflow's lines. It is read line by line, not parsed: the checks below look for a
  /// few keys whose values fit on their line, and GitHub itself says whether the file parses.
  private func lines() throws -> [Substring] {
    try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
      .split(separator: "\n")
  }

  /// The value of every `KEY: value` line for `key`, in order, unquoted.
  private func values(of key: String) throws -> [String] {
    try lines().compactMap { line -> String? in
      let trimmed = line.drop { $0 == " " || $0 == "-" }
      guard trimmed.hasPrefix(key + ": ") else { return nil }
      return String(trimmed.dropFirst(key.count + 2))
    }
  }

  /// Every step's `run` command, in order.
  private func runCommands() throws -> [String] { try values(of: "run") }

  /// The `run` commands of the job `job`: the lines between its key and the next job's.
  private func runCommands(ofJob job: String) throws -> [String] {
    let lines = try lines()
    guard let start = lines.firstIndex(of: "  \(job):") else { return [] }
    let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
    return lines[(start + 1)..<(end ?? lines.endIndex)].compactMap { line in
      let trimmed = line.drop { $0 == " " || $0 == "-" }
      return trimmed.hasPrefix("run: ") ? String(trimmed.dropFirst(5)) : nil
    }
  }

  @Test("every script it runs with bash exists in the package")
  func scriptsExist() throws {
    let commands = try runCommands()
    let scripts = commands.flatMap { $0.matches(of: /\bbash\s+(\S+)/).map(\.output.1) }
    #expect(scripts.contains(".ci/run"), "the Linux job runs bash .ci/run")
    for script in scripts {
      #expect(
        FileManager.default.fileExists(
          atPath: packageRoot.appendingPathComponent(String(script)).path),
        "\(path) runs \(script), which is not in the package")
    }
  }

  @Test("every test target it filters on exists")
  func filtersExist() throws {
    let filters = try runCommands().flatMap {
      $0.matches(of: /--filter\s+(\S+)/).map { String($0.output.1) }
    }
    #expect(filters.contains("StageBenchTests"))
    for filter in filters {
      var isFolder: ObjCBool = false
      let exists = FileManager.default.fileExists(
        atPath: packageRoot.appendingPathComponent("Tests/\(filter)").path, isDirectory: &isFolder)
      #expect(exists && isFolder.boolValue, "\(path) filters on \(filter), no test target")
    }
  }

  @Test(
    "the macOS jobs build, test and run the release bench tests on macOS 15 and 26, latest Xcode")
  func macOSJobs() throws {
    #expect(try values(of: "runner") == ["[macos-15, macos-26]"])
    #expect(
      try runCommands(ofJob: "macos") == [
        "swift --version", "swift build", "swift test",
        "swift test -c release --filter StageBenchTests",
      ])
  }

  // The manifest asks for Swift 6.3 tools; Xcode 26.3 and earlier ship Swift 6.2 (Apple's Xcode
  // system requirements), so a job that pinned "26" could pick one too old to read it.
  @Test(
    "every job that selects an Xcode takes the latest stable one, and the manifests ask for 6.3")
  func xcodeIsNewEnoughForTheManifest() throws {
    #expect(try values(of: "xcode-version") == ["latest-stable", "latest-stable"])
    for manifest in ["Package.swift", "Examples/GradeYourOwn/Package.swift"] {
      let text = try String(
        contentsOf: packageRoot.appendingPathComponent(manifest), encoding: .utf8)
      #expect(text.hasPrefix("// swift-tools-version: 6.3\n"), "\(manifest)")
    }
  }

  @Test("the iOS simulator job builds a scheme for every library product, and nothing else")
  func iOSSchemesAreTheLibraries() throws {
    #expect(try runCommands(ofJob: "ios") == ["bash .ci/ios"])
    let script = try String(
      contentsOf: packageRoot.appendingPathComponent(".ci/ios"), encoding: .utf8)
    #expect(script.contains("swift package dump-package | python3 -c '"))
    #expect(
      script.contains(
        #"xcodebuild build -scheme "$scheme" -destination "generic/platform=iOS Simulator""#))
    // The script's filter, run on products shaped as dump-package writes them: the libraries
    // come out, in order, and the executables and the repository's own library do not.
    let filter = try #require(script.firstMatch(of: /python3 -c '([^']*)'/)).output.1
    let libraries = try libraryProducts()
    let products =
      libraries.map { #"{"name": "\#($0)", "type": {"library": ["automatic"]}}"# }
      + [
        #"{"name": "compare-stages", "type": {"executable": null}}"#,
        #"{"name": "_WorkshopKit", "type": {"library": ["automatic"]}}"#,
      ]
    let json = #"{"products": [\#(products.joined(separator: ", "))]}"#
    let listed = try ProcessRun(["python3", "-c", String(filter)], input: json)
    #expect(listed.status == 0, "\(listed.error)")
    #expect(listed.output.split(separator: "\n").map(String.init) == libraries)
  }

}
