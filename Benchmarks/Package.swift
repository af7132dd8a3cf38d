// swift-tools-version: 6.3
import PackageDescription

// Appendix 05a's table: stage 5 tuned beside versions of it that each go without one of its
// optimisations. A package of its own, so that the shipped Stage5Tuned stays plain source and
// the main package builds none of this. Run it with `bash Benchmarks/variants`, which first
// makes each version: a copy of Sources/Stage5Tuned with one patch of Patches/ applied, in
// .generated/ (a version missing there stops this manifest: run the script, not swift build).
//
// Sources/Stage5Tuned, Stage5Concurrency, StageBench, Support and AllocationCounter here are
// links to the main package's files, compiled again.

/// One version per patch in Patches/, by the patch's name.
let versions = ["Mutex", "TwoTrips", "Allocating", "Retaining", "Wrapped", "WeakToken"]

let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  targets: [
    .target(name: "AllocationCounter"),
    .target(name: "Support"),
    .target(name: "StageBench", dependencies: ["AllocationCounter", "Support"]),
    .target(name: "Stage5Tuned"),
    .target(name: "Stage5Concurrency"),
    // Also the lesson's copy list, in Sources/variants/Lesson: stage 5 as chapter 5 invites a
    // reader to copy it into the app's own module, measured beside the lesson as a product.
    .executableTarget(
      name: "variants",
      dependencies: ["Stage5Tuned", "Stage5Concurrency", "StageBench"]
        + versions.map { .init(stringLiteral: "Stage5Tuned" + $0) }),
  ]
    + versions.map { .target(name: "Stage5Tuned" + $0, path: ".generated/Stage5Tuned" + $0) },
  swiftLanguageModes: [.v6]
)
