import Foundation
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
  return table.output.1.matches(of: /\("([^"]+)",/).map { String($0.output.1) } + [String(tuned)]
    + manifest.matches(of: /\.library\(name: "([^"]+)"/).map { String($0.output.1) }
}

/// Whether `python3` with PyYAML runs here: the cross-check of the parser needs it.
private let pyYAMLIsInstalled: Bool = {
  (try? python(["-c", "import yaml"]))?.status == 0
}()

/// Runs `python3` with `arguments` and `input` on its standard input; returns what it printed
/// and its exit status.
private func python(
  _ arguments: [String], input: String = ""
) throws -> (output: String, status: Int32) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["python3"] + arguments
  let output = Pipe()
  let standardInput = Pipe()
  process.standardOutput = output
  process.standardInput = standardInput
  process.standardError = FileHandle.nullDevice
  try process.run()
  standardInput.fileHandleForWriting.write(Data(input.utf8))
  try standardInput.fileHandleForWriting.close()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (String(decoding: data, as: UTF8.self), process.terminationStatus)
}

@Suite("The hosted CI workflow")
struct WorkflowTests {
  private let path = ".github/workflows/ci.yml"

  private func workflow() throws -> YAMLValue {
    try YAMLSubsetParser.parse(
      String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8))
  }

  /// Every step's `run` command, with the job it is in.
  private func runCommands() throws -> [(job: String, command: String)] {
    try workflow()["jobs"]?.entries.flatMap { job in
      (job.value["steps"]?.items ?? []).compactMap { step in
        step["run"]?.string.map { (job.key, $0) }
      }
    } ?? []
  }

  @Test("it parses, and has a name, triggers, and jobs that each run steps on a runner")
  func parses() throws {
    let workflow = try workflow()
    #expect(workflow["name"]?.string?.isEmpty == false)
    #expect(workflow["on"] != nil)
    let jobs = try #require(workflow["jobs"]?.entries)
    #expect(!jobs.isEmpty)
    for (name, job) in jobs {
      #expect(job["runs-on"]?.string?.isEmpty == false, "job \(name) has no runs-on")
      let steps = job["steps"]?.items ?? []
      #expect(!steps.isEmpty, "job \(name) has no steps")
      for step in steps {
        #expect(step["run"] != nil || step["uses"] != nil, "a step of \(name) runs nothing")
      }
    }
  }

  @Test(
    "PyYAML reads the workflow as this test's parser does",
    .enabled(if: pyYAMLIsInstalled, "python3 with PyYAML is not installed here"))
  func pyYAMLAgrees() throws {
    // BaseLoader keeps every scalar a string ("on" stays "on", '26' stays "26"), as ours does.
    let result = try python([
      "-c",
      "import json, sys, yaml; print(json.dumps(yaml.load(open(sys.argv[1]), "
        + "Loader=yaml.BaseLoader)))",
      packageRoot.appendingPathComponent(path).path,
    ])
    try #require(result.status == 0)
    let theirs = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    let ours = try JSONSerialization.data(withJSONObject: workflow().json, options: .sortedKeys)
    let theirsData = try JSONSerialization.data(withJSONObject: theirs, options: .sortedKeys)
    #expect(String(decoding: ours, as: UTF8.self) == String(decoding: theirsData, as: UTF8.self))
  }

  @Test("the parser rejects what it cannot read for sure")
  func parserRejects() {
    #expect(throws: YAMLError.self) { try YAMLSubsetParser.parse("a:\n\tb: 1\n") }
    #expect(throws: YAMLError.self) { try YAMLSubsetParser.parse("a: 1\n  b: 2\n") }
    #expect(throws: YAMLError.self) { try YAMLSubsetParser.parse("a: 1\na: 2\n") }
    #expect(throws: YAMLError.self) { try YAMLSubsetParser.parse("a: [b, c\n") }
    #expect(throws: YAMLError.self) { try YAMLSubsetParser.parse("just words\n") }
    #expect(
      (try? YAMLSubsetParser.parse("a:\n  - b: 'x # y' # z\n    c: [d, e]\n  - f\n"))
        == .mapping([
          (
            "a",
            .sequence([
              .mapping([("b", .scalar("x # y")), ("c", .sequence([.scalar("d"), .scalar("e")]))]),
              .scalar("f"),
            ])
          )
        ]))
  }

  @Test("every script it runs with bash exists in the package")
  func scriptsExist() throws {
    let commands = try runCommands()
    let scripts = commands.flatMap { $0.command.matches(of: /\bbash\s+(\S+)/).map(\.output.1) }
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
      $0.command.matches(of: /--filter\s+(\S+)/).map { String($0.output.1) }
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
    let job = try #require(try workflow()["jobs"]?["macos"])
    let runners = job["strategy"]?["matrix"]?["runner"]?.items.compactMap(\.string)
    #expect(runners == ["macos-15", "macos-26"])
    let steps = job["steps"]?.items ?? []
    #expect(steps.contains { $0["with"]?["xcode-version"]?.string == "latest-stable" })
    let commands = steps.compactMap { $0["run"]?.string }
    #expect(
      commands == [
        "swift --version", "swift build", "swift test",
        "swift test -c release --filter StageBenchTests",
      ])
  }

  // The manifest asks for Swift 6.3 tools; Xcode 26.3 and earlier ship Swift 6.2 (Apple's Xcode
  // system requirements), so a job that pinned "26" could pick one too old to read it.
  @Test(
    "every job that selects an Xcode takes the latest stable one, and the manifests ask for 6.3")
  func xcodeIsNewEnoughForTheManifest() throws {
    let jobs = try #require(try workflow()["jobs"]?.entries)
    var selections: [String] = []
    for (name, job) in jobs {
      for step in job["steps"]?.items ?? [] {
        guard let version = step["with"]?["xcode-version"]?.string else { continue }
        selections.append(version)
        #expect(version == "latest-stable", "job \(name) selects Xcode \(version)")
      }
    }
    #expect(selections.count == 2)
    for manifest in ["Package.swift", "Examples/GradeYourOwn/Package.swift"] {
      let text = try String(
        contentsOf: packageRoot.appendingPathComponent(manifest), encoding: .utf8)
      #expect(text.hasPrefix("// swift-tools-version: 6.3\n"), "\(manifest)")
    }
  }

  @Test("the iOS simulator job builds a scheme for every library product, and nothing else")
  func iOSSchemesAreTheLibraries() throws {
    let job = try #require(try workflow()["jobs"]?["ios"])
    #expect(job["steps"]?.items.compactMap { $0["run"]?.string } == ["bash .ci/ios"])
    let script = try String(
      contentsOf: packageRoot.appendingPathComponent(".ci/ios"), encoding: .utf8)
    #expect(script.contains("swift package dump-package | python3 -c '"))
    #expect(
      script.contains(
        #"xcodebuild build -scheme "$scheme" -destination "generic/platform=iOS Simulator""#))
    // The script's filter, run on products shaped as dump-package writes them: the libraries
    // come out, in order, and the executables do not.
    let filter = try #require(script.firstMatch(of: /python3 -c '([^']*)'/)).output.1
    let libraries = try libraryProducts()
    let products =
      libraries.map { #"{"name": "\#($0)", "type": {"library": ["automatic"]}}"# }
      + [#"{"name": "compare-stages", "type": {"executable": null}}"#]
    let json = #"{"products": [\#(products.joined(separator: ", "))]}"#
    let listed = try python(["-c", String(filter)], input: json)
    #expect(listed.status == 0)
    #expect(listed.output.split(separator: "\n").map(String.init) == libraries)
  }

}
