// swift-tools-version: 6.3
// An outside package that grades an observable of its own with the sixteen scenarios. It
// depends on Observer Evolution by path here; yours would name its URL and a version.
import PackageDescription

let package = Package(
  name: "GradeYourOwn",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(name: "ObserverEvolution", path: "../..")],
  targets: [
    .executableTarget(
      name: "GradeYourOwn",
      dependencies: [.product(name: "ObserverScenarios", package: "ObserverEvolution")]),
    // Three observables shaped like real libraries' storage, graded the same way: one whose
    // order breaks past 31 observers, one that reuses freed slots, one whose tokens live in
    // their owners; and a fourth graded through a ready-made adapter, with no adapter of its
    // own. DocumentationTests checks the verdicts each must get.
    .executableTarget(
      name: "LibraryShapes",
      dependencies: [.product(name: "ObserverScenarios", package: "ObserverEvolution")]),
  ],
  swiftLanguageModes: [.v6]
)
