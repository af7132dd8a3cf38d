// swift-tools-version: 6.3
import PackageDescription

// The package is written as tables, each fact once: the stages (Sources/NAME), the lab around
// them (Sources/Lab/NAME, its commands in Sources/Lab/Commands/NAME) and the tests. Products and
// dependency lists are derived from them. Two packages of their own sit beside it: the
// workshop's exercises, in Exercises/, which depends on this one (their solutions, in
// Exercises/Solutions/, are graded by the tests through it, as a learner's code is), and
// appendix 05a's versions of stage 5 tuned, in Benchmarks/.

/// The stages of the evolution, in order: one module, one library product and one test target
/// each (`Tests/NAMETests`, with what else its tests use). A stage depends on nothing.
let lessonStages: [(name: String, testsUse: [String])] = [
  ("Stage1Closures", ["LifetimeTracking"]), ("Stage2KeyedDict", ["LifetimeTracking"]),
  ("Stage3WeakRefs", ["LifetimeTracking"]), ("Stage4Options", ["LifetimeTracking"]),
  ("Stage5Concurrency", ["TestSupport", "Support"]),
]

/// Stage 5 tuned for speed (appendix 5a): a stage too, tested by stage 5's own suite.
let tuned = "Stage5Tuned"

/// Every stage module, the tuned one included.
let stages = lessonStages.map(\.name) + [tuned]

/// The commands: each an executable over its library.
let commands: [(name: String, library: String)] = [
  ("compare-stages", "CompareStagesKit"), ("tutorial", "TutorialKit"),
  ("keeping-score", "KeepingScoreKit"), ("workshop", "WorkshopKit"),
]

/// The lab around the stages: each module with what it depends on, and why it is there.
let lab: [(name: String, dependencies: [String])] = [
  // Small helpers every support module shares: text, JSON, boxes, the tutorial's chapters.
  ("Support", []),
  // The one shape of every command: run(arguments, io) -> ExitCode, and its syntax table.
  ("CommandSupport", ["Support"]),
  // Real objects whose deinitialization is counted: how tests and scenarios see leaks.
  ("LifetimeTracking", []),
  // The scenarios, over a design and an adapter any observable can provide.
  ("ObserverScenarios", ["LifetimeTracking", "Support"]),
  // What each design costs. The C target counts heap allocations by wrapping malloc and
  // free; it compiles to nothing in sanitized builds.
  ("AllocationCounter", []),
  ("StageBench", ["AllocationCounter", "Support"]),
  // Every design, stage or reference, with its adapters for the scenarios and the
  // bench: what compare-stages, the tests and the tutorial read.
  ("DesignCatalog", stages + ["ObserverScenarios", "StageBench", "AllocationCounter", "Support"]),
  // The commands' libraries: a thin main over each, so that tests can run it.
  (
    "CompareStagesKit",
    [
      "CommandSupport", "DesignCatalog", "ObserverScenarios", "StageBench", "Support",
    ]
  ),
  ("TutorialKit", lessonStages.map(\.name) + ["KeepingScoreKit", "CommandSupport", "Support"]),
  ("KeepingScoreKit", ["Stage4Options", "CommandSupport", "Support"]),
  // The workshop, and the grading children's entry point, which Exercises/ links as the
  // library product below.
  ("WorkshopKit", ["ObserverScenarios", "CommandSupport", "Support", "Stage5Concurrency"]),
]

/// The tests, each with what it depends on.
let tests: [(name: String, dependencies: [String], settings: [SwiftSetting])] =
  lessonStages.map { ($0.name + "Tests", [$0.name] + $0.testsUse, []) } + [
    // One suite for both stage 5 modules: Tests/Stage5TunedTests links to the same files,
    // compiled with TUNED defined, so that they import the tuned module instead.
    (tuned + "Tests", [tuned, "TestSupport", "Support"], [.define("TUNED")]),
    (
      "ConformanceTests",
      [
        "DesignCatalog", "ObserverScenarios", "Stage5Concurrency", "StageBench", "Support",
        "TestSupport",
      ], []
    ),
    (
      "KeepingScoreTests",
      ["KeepingScoreKit", "CommandSupport", "Support", "TutorialKit", "TestSupport"]
        + lessonStages.map(\.name), []
    ),
    (
      "DocumentationTests",
      [
        "CompareStagesKit", "DesignCatalog", "ObserverScenarios", "StageBench", "TutorialKit",
        "KeepingScoreKit", "Support", "CommandSupport", "WorkshopKit", "TestSupport",
      ], []
    ),
    (
      "CompareStagesTests",
      [
        "CompareStagesKit", "DesignCatalog", "ObserverScenarios", "CommandSupport", "StageBench",
        "TestSupport",
      ], []
    ),
    (
      "StageBenchTests",
      [
        "StageBench", "CompareStagesKit", "DesignCatalog", "AllocationCounter", "Support",
        "ObserverScenarios", "CommandSupport", "TestSupport",
      ], []
    ),
    // Grades the solutions and the known answers (patches of them: Tests/WrongAnswers,
    // Tests/RightAnswers), each built by SwiftPM in a copy of Exercises/, never the learner's
    // exercises: swift test stays green whatever a learner does to Exercises/.
    (
      "WorkshopTests",
      [
        "WorkshopKit", "DesignCatalog", "ObserverScenarios", "CommandSupport", "Support",
        "TestSupport",
      ], []
    ),
    // Runs the built executables as a user does: arguments, standard streams, exit status.
    (
      "ExecutableTests",
      commands.map(\.name) + [
        "CommandSupport", "DesignCatalog", "TestSupport", "TutorialKit", "Support",
      ], []
    ),
  ]

let package = Package(
  name: "ObserverEvolution",
  // Stage 5's Mutex and Atomic come from the Synchronization module, which these OS versions
  // are the first to have. Swift 6.3 tools, for `weak let` (SE-0481), which the sources use:
  // Swift 6.3 has it, and the first releases of Swift 6.2 reject it.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: stages.map { .library(name: $0, targets: [$0]) } + [
    // The sixteen scenarios, open to any observable: grade your own with them.
    .library(name: "ObserverScenarios", targets: ["ObserverScenarios"]),
    // For Exercises/Package.swift only: the workshop's grading children link it. The underscore
    // says it is no API for an app.
    .library(name: "_WorkshopKit", targets: ["WorkshopKit"]),
  ] + commands.map { .executable(name: $0.name, targets: [$0.name]) },
  targets: stages.map { .target(name: $0) }
    + lab.map {
      .target(
        name: $0.name, dependencies: $0.dependencies.map { .init(stringLiteral: $0) },
        path: "Sources/Lab/\($0.name)")
    }
    + commands.map {
      .executableTarget(
        name: $0.name, dependencies: [.init(stringLiteral: $0.library), "CommandSupport"],
        path: "Sources/Lab/Commands/\($0.name)")
    }
    + [
      // What only the tests use: running a command in-process, or a program in a process of its
      // own, a temporary folder, the products' folder, the package's root.
      .target(name: "TestSupport", dependencies: ["CommandSupport"], path: "Tests/TestSupport")
    ]
    + tests.map {
      .testTarget(
        name: $0.name, dependencies: $0.dependencies.map { .init(stringLiteral: $0) },
        swiftSettings: $0.settings)
    },
  swiftLanguageModes: [.v6]
)
