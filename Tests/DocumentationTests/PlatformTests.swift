import Foundation
import TestSupport
import Testing

/// APIs an iOS, tvOS, watchOS or visionOS build does not have, each with the source that says so.
private let macOSOnlyAPIs: [(api: String, source: String)] = [
  (
    "homeDirectoryForCurrentUser",
    "Apple's documentation of FileManager.homeDirectoryForCurrentUser lists macOS 10.12+ only"
  ),
  ("Process()", "Apple's documentation of Foundation's Process lists macOS and Mac Catalyst only"),
  (
    "processExitsWith",
    "Swift Testing's exit tests run where a process can start a child: not on iOS, tvOS, "
      + "watchOS or visionOS"
  ),
]

/// The manifest as `swift package dump-package` prints it.
///
/// In a scratch folder of its own: `swift test` holds a lock on the package's `.build` while the
/// tests run, and a second `swift` command that wants it waits for ever.
private func dumpedManifest() throws -> [String: Any] {
  let dump = try withTemporaryFolder("dump-package") { scratch in
    try ProcessRun([
      "swift", "package", "dump-package", "--package-path", packageRoot.path, "--scratch-path",
      scratch.path,
    ])
  }
  try #require(dump.status == 0, "swift package dump-package failed: \(dump.error)")
  return try #require(
    try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
}

@Suite("Every platform the package declares")
struct PlatformTests {
  @Test(
    "the library products, and every module they depend on, use no API only macOS has")
  func librariesUseNoMacOSOnlyAPI() throws {
    let manifest = try dumpedManifest()
    let products = try #require(manifest["products"] as? [[String: Any]])
    let targets = try #require(manifest["targets"] as? [[String: Any]])
    let byName = Dictionary(
      targets.compactMap { target in (target["name"] as? String).map { ($0, target) } },
      uniquingKeysWith: { first, _ in first })

    // The library products' targets, then every target they depend on, transitively; not a
    // product whose name starts with an underscore, the repository's own, which Exercises/
    // links and which is built where the workshop runs, macOS and Linux (REFERENCE.md).
    var pending = products.filter { ($0["type"] as? [String: Any])?["library"] != nil }
      .filter { ($0["name"] as? String)?.hasPrefix("_") == false }
      .flatMap { $0["targets"] as? [String] ?? [] }
    #expect(pending.contains("ObserverScenarios"))
    var reached: Set<String> = []
    while let name = pending.popLast() {
      guard reached.insert(name).inserted, let target = byName[name] else { continue }
      for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
        let named = (dependency["byName"] ?? dependency["target"]) as? [Any]
        if let dependencyName = named?.first as? String { pending.append(dependencyName) }
      }
    }
    #expect(reached.contains("Support"), "the walk reaches the libraries' own dependencies")

    for name in reached.sorted() {
      let folder = (byName[name]?["path"] as? String) ?? "Sources/\(name)"
      for file in swiftFiles(under: folder) {
        let text = try String(contentsOf: file, encoding: .utf8)
        for (api, source) in macOSOnlyAPIs where text.contains(api) {
          let problem =
            "\(folder)/\(file.lastPathComponent) uses \(api), which a library product's module "
            + "must not: \(source)"
          Issue.record(Comment(rawValue: problem))
        }
      }
    }
  }
}
