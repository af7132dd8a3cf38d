// swift-tools-version: 6.3
import PackageDescription

// The workshop's exercises: the code you edit, one target per exercise, so that your editor
// (Xcode, or VS Code with the Swift extension) builds each as you type and shows its errors.
// Open this file's folder, not the package above, to work on them. `swift run workshop N`, in
// the package above, builds exercise N's grading child here with SwiftPM and grades it; one
// exercise that does not compile stops no other.

/// The package the exercises are graded by: the one this folder is in.
let observerEvolution = ".."

/// Each exercise: its module, its folder, and the products of the package above it uses.
let exercises: [(module: String, folder: String, uses: [String])] = [
  ("01", "01-removable-closures", []), ("02", "02-call-in-order", []),
  ("03", "03-keys-per-owner", []), ("04", "04-clean-on-set", []),
  ("05", "05-one-entry-per-observer", []), ("06", "06-remove-at-once", []),
  ("07", "07-queue-nested-sets", []), ("08", "08-hand-over-the-owner", []),
  ("09", "09-sendable", []),
  // An app's code: on stage 4 as it starts, stage 5 once done, and the workshop's display and
  // file, which it reads to grade it.
  ("10", "10-scores-on-the-main-actor", ["Stage4Options", "Stage5Concurrency", "_WorkshopKit"]),
  // An @Observable player and a score label, on the workshop's display.
  ("11", "11-observation-label", ["_WorkshopKit"]),
].map { ("Exercise" + $0.0, $0.1, $0.2) }

/// SwiftPM names a package depended on by path after its folder, whatever its manifest says:
/// the name of the folder you cloned into.
let observerEvolutionIdentity: String = {
  var folders: [Substring] = []
  let path =
    observerEvolution.hasPrefix("/")
    ? observerEvolution : Context.packageDirectory + "/" + observerEvolution
  for folder in path.split(separator: "/") where folder != "." {
    if folder == ".." { folders.removeLast() } else { folders.append(folder) }
  }
  return String(folders.last ?? "").lowercased()
}()

/// A product of the package above.
func product(_ name: String) -> Target.Dependency {
  .product(name: name, package: observerEvolutionIdentity)
}

let package = Package(
  name: "Exercises",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(path: observerEvolution)],
  targets: exercises.map {
    .target(name: $0.module, dependencies: $0.uses.map(product), path: $0.folder)
  }
    // Each exercise's grading child: the workshop's checks, and what they need of your code.
    + exercises.map {
      .executableTarget(
        name: $0.module.replacing("Exercise", with: "Grade"),
        dependencies: [
          .target(name: $0.module), product("_WorkshopKit"), product("ObserverScenarios"),
        ],
        path: "Grading/" + $0.module.replacing("Exercise", with: "Grade"))
    },
  swiftLanguageModes: [.v6]
)
