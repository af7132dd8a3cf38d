// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "ObserverEvolution",
  // Stage 5's Mutex and Atomic come from the Synchronization module, which these OS versions
  // are the first to have. Swift 6.2 tools, for `weak let` (SE-0481), which the sources use.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Stage1Closures", targets: ["Stage1Closures"]),
    .library(name: "Stage2KeyedDict", targets: ["Stage2KeyedDict"]),
    .library(name: "Stage3WeakRefs", targets: ["Stage3WeakRefs"]),
    .library(name: "Stage4Options", targets: ["Stage4Options"]),
    .library(name: "Stage5Concurrency", targets: ["Stage5Concurrency"]),
    // Stage 5 tuned for speed: the same promises, measured in appendix 05a.
    .library(name: "Stage5Tuned", targets: ["Stage5Tuned"]),
    // The sixteen scenarios, open to any observable: grade your own with them.
    .library(name: "ObserverScenarios", targets: ["ObserverScenarios"]),
    .executable(name: "compare-stages", targets: ["compare-stages"]),
    .executable(name: "tutorial", targets: ["tutorial"]),
    .executable(name: "keeping-score", targets: ["keeping-score"]),
    .executable(name: "workshop", targets: ["workshop"]),
  ],
  targets: [
    // The four stages of the evolution, one module each.
    .target(name: "Stage1Closures"),
    .target(name: "Stage2KeyedDict"),
    .target(name: "Stage3WeakRefs"),
    .target(name: "Stage4Options"),
    .target(name: "Stage5Concurrency"),
    .target(name: "Stage5Tuned"),

    // Small helpers every support module shares: text, JSON, boxes, the tutorial's chapters.
    .target(name: "Support"),

    // The one shape of every command: run(arguments, io) -> ExitCode, in a library.
    .target(name: "CommandSupport", dependencies: ["Support"]),

    // Real objects whose deinitialization is counted: how tests and scenarios see leaks.
    .target(name: "LifetimeTracking"),

    // The scenarios, over a descriptor and an adapter any observable can provide.
    .target(name: "ObserverScenarios", dependencies: ["LifetimeTracking", "Support"]),

    // What each design costs: compare-stages bench. The C target counts heap allocations by
    // wrapping malloc and free; it compiles to nothing in sanitized builds.
    .target(name: "AllocationCounter"),
    .target(name: "StageBench", dependencies: ["AllocationCounter", "Support"]),

    // One descriptor per design, stage or reference, with its adapters for the scenarios and
    // the bench: what compare-stages, the tests and the tutorial read.
    .target(
      name: "DesignCatalog",
      dependencies: [
        "Stage1Closures", "Stage2KeyedDict", "Stage3WeakRefs", "Stage4Options", "Stage5Concurrency",
        "Stage5Tuned", "ObserverScenarios", "StageBench", "AllocationCounter", "Support",
      ]
    ),

    // swift run compare-stages: a thin main over a library that tests can run.
    .target(
      name: "CompareStagesKit",
      dependencies: [
        "CommandSupport", "DesignCatalog", "ObserverScenarios", "StageBench", "Stage5Variants",
        "Support",
      ]),
    .executableTarget(
      name: "compare-stages", dependencies: ["CompareStagesKit", "CommandSupport"]),

    // The tutorial's demos (swift run tutorial N) and its small app (swift run keeping-score).
    .target(
      name: "TutorialDemos",
      dependencies: [
        "Stage1Closures", "Stage2KeyedDict", "Stage3WeakRefs", "Stage4Options", "Stage5Concurrency",
        "KeepingScore", "CommandSupport", "Support",
      ]
    ),
    .executableTarget(name: "tutorial", dependencies: ["TutorialDemos", "CommandSupport"]),
    .target(name: "KeepingScore", dependencies: ["Stage4Options", "CommandSupport", "Support"]),
    .executableTarget(name: "keeping-score", dependencies: ["KeepingScore", "CommandSupport"]),

    // The workshop. The exercises the learner edits, in Exercises/, are not targets: the
    // workshop compiles each one on its own when it grades it (ExerciseBuilder), so one that
    // does not compile stops nothing else. Their solutions, in Exercises/Solutions/, are
    // targets, so that swift test grades them.
    .target(name: "Solution01", path: "Exercises/Solutions/01-removable-closures"),
    .target(name: "Solution02", path: "Exercises/Solutions/02-call-in-order"),
    .target(name: "Solution03", path: "Exercises/Solutions/03-keys-per-owner"),
    .target(name: "Solution04", path: "Exercises/Solutions/04-clean-on-set"),
    .target(name: "Solution05", path: "Exercises/Solutions/05-one-entry-per-observer"),
    .target(name: "Solution06", path: "Exercises/Solutions/06-remove-at-once"),
    .target(name: "Solution07", path: "Exercises/Solutions/07-queue-nested-sets"),
    .target(name: "Solution08", path: "Exercises/Solutions/08-hand-over-the-owner"),
    .target(name: "Solution09", path: "Exercises/Solutions/09-sendable"),
    // Exercise 10's code is an app's, on stage 5, with the grader's display and file.
    .target(
      name: "Solution10", dependencies: ["Stage5Concurrency", "WorkshopKit"],
      path: "Exercises/Solutions/10-scores-on-the-main-actor"),
    // Stage 4 and stage 5 only so that they are built beside it: exercise 10's grading child
    // links them, for the starter (stage 4) and the answer (stage 5).
    .target(
      name: "WorkshopKit",
      dependencies: [
        "ObserverScenarios", "CommandSupport", "Support", "Stage4Options", "Stage5Concurrency",
      ]),
    .target(
      name: "WorkshopSolutions",
      dependencies: [
        "WorkshopKit", "ObserverScenarios", "Solution01", "Solution02", "Solution03", "Solution04",
        "Solution05", "Solution06", "Solution07", "Solution08", "Solution09", "Solution10",
      ]),
    .executableTarget(
      name: "workshop", dependencies: ["WorkshopKit", "CommandSupport"]),
    // Wrong answers to every exercise, the mistakes learners make, and a grading child that
    // runs them as the workshop runs a learner's code: the tests require each one not solved.
    .target(
      name: "WorkshopWrongAnswers",
      dependencies: ["WorkshopKit", "ObserverScenarios", "Stage5Concurrency"],
      path: "Tests/WorkshopWrongAnswers"),
    .executableTarget(
      name: "workshop-wrong-answers",
      dependencies: ["WorkshopWrongAnswers", "WorkshopSolutions", "WorkshopKit", "CommandSupport"],
      path: "Tests/WorkshopWrongAnswersChild"),

    // Appendix 05a's table: swift run -c release compare-stages variants. Each variant is the tuned
    // module's source again (Sources/Stage5TunedVariants/*/ link to its files), compiled with
    // one optimisation taken away.
    .target(
      name: "Stage5TunedMutex", path: "Sources/Stage5TunedVariants/Mutex",
      swiftSettings: [.define("BENCH_VARIANT_MUTEX")]),
    .target(
      name: "Stage5TunedTwoTrips", path: "Sources/Stage5TunedVariants/TwoTrips",
      swiftSettings: [.define("BENCH_VARIANT_TWO_TRIPS")]),
    .target(
      name: "Stage5TunedAllocating", path: "Sources/Stage5TunedVariants/Allocating",
      swiftSettings: [.define("BENCH_VARIANT_ALLOCATING")]),
    .target(
      name: "Stage5TunedRetaining", path: "Sources/Stage5TunedVariants/Retaining",
      swiftSettings: [.define("BENCH_VARIANT_RETAINING")]),
    .target(
      name: "Stage5TunedWrapped", path: "Sources/Stage5TunedVariants/Wrapped",
      swiftSettings: [.define("BENCH_VARIANT_WRAPPED")]),
    .target(
      name: "Stage5TunedWeakToken", path: "Sources/Stage5TunedVariants/WeakToken",
      swiftSettings: [.define("BENCH_VARIANT_WEAK_TOKEN")]),
    .target(
      name: "Stage5Variants",
      dependencies: [
        "Stage5Tuned", "StageBench", "Stage5TunedMutex", "Stage5TunedTwoTrips",
        "Stage5TunedAllocating", "Stage5TunedRetaining", "Stage5TunedWrapped",
        "Stage5TunedWeakToken",
      ]),

    .testTarget(name: "Stage1ClosuresTests", dependencies: ["Stage1Closures", "LifetimeTracking"]),
    .testTarget(
      name: "Stage2KeyedDictTests", dependencies: ["Stage2KeyedDict", "LifetimeTracking"]),
    .testTarget(name: "Stage3WeakRefsTests", dependencies: ["Stage3WeakRefs", "LifetimeTracking"]),
    .testTarget(name: "Stage4OptionsTests", dependencies: ["Stage4Options", "LifetimeTracking"]),
    // One suite for both stage 5 modules: Tests/Stage5TunedTests links to the same files,
    // compiled with TUNED defined, so that they import the tuned module instead.
    .testTarget(name: "Stage5ConcurrencyTests", dependencies: ["Stage5Concurrency"]),
    .testTarget(
      name: "Stage5TunedTests", dependencies: ["Stage5Tuned"],
      swiftSettings: [.define("TUNED")]),
    .testTarget(
      name: "ConformanceTests", dependencies: ["DesignCatalog", "ObserverScenarios", "Support"]),
    .testTarget(
      name: "KeepingScoreTests",
      dependencies: [
        "KeepingScore", "CommandSupport", "Stage1Closures", "Stage2KeyedDict", "Stage3WeakRefs",
        "Stage4Options", "Stage5Concurrency",
      ]),
    .testTarget(
      name: "DocumentationTests",
      dependencies: [
        "CompareStagesKit", "DesignCatalog", "ObserverScenarios", "StageBench", "TutorialDemos",
        "KeepingScore", "Support", "CommandSupport", "WorkshopKit", "Stage5Variants",
      ]
    ),
    .testTarget(
      name: "CompareStagesTests",
      dependencies: ["CompareStagesKit", "DesignCatalog", "ObserverScenarios", "CommandSupport"]),
    .testTarget(
      name: "StageBenchTests",
      dependencies: [
        "StageBench", "CompareStagesKit", "DesignCatalog", "AllocationCounter", "Support",
        "ObserverScenarios", "Stage5Variants",
        "CommandSupport",
      ]),
    // Grades the solutions and the wrong answers, never the learner's exercises, which are not
    // part of the build: swift test stays green whatever a learner does to Exercises/.
    .testTarget(
      name: "WorkshopTests",
      dependencies: [
        "WorkshopKit", "WorkshopSolutions", "WorkshopWrongAnswers", "workshop-wrong-answers",
        "ObserverScenarios", "CommandSupport", "Support",
      ]),
    // Runs the built executables as a user does: arguments, standard streams, exit status.
    .testTarget(
      name: "ExecutableTests",
      dependencies: [
        "compare-stages", "tutorial", "keeping-score", "workshop",
        "CommandSupport", "DesignCatalog",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
