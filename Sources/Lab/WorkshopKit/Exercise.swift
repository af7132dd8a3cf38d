import ObserverScenarios
import Support

/// One exercise of the workshop: a stage's flaw for the learner to fix in `Exercises/`, and the
/// scenarios that grade the fix.
package struct Exercise: Sendable {
  /// Its number, as `swift run workshop N` takes it.
  package var number: Int
  /// Its folder's name under `Exercises/`: `01-removable-closures`.
  package var slug: String
  /// What to do, in a few words.
  package var title: String
  /// The chapter it follows.
  package var chapter: TutorialChapter
  /// What the starter behaves like: "stage 1".
  package var startsFrom: String
  /// What to build, told in a paragraph.
  package var task: String
  /// The scenarios the fix must make hold.
  package var aimed: [Scenario.Name]
  /// The scenarios the starter already passes, which the fix must keep.
  package var kept: [Scenario.Name]
  /// The checks of what the task asks, the way a learner gets it wrong; graded as aimed.
  package var checks: [Check]
  /// Hints, each one step further than the one before.
  package var hints: [String]

  /// What to read once it is solved: the chapter after the one it follows.
  package var next: TutorialChapter { chapter.next ?? chapter }

  /// The folder the learner edits, relative to the package root.
  package var folder: String { "Exercises/\(slug)" }

  /// Its solution's folder, relative to the package root.
  package var solutionFolder: String { "Exercises/Solutions/\(slug)" }

  /// What it is graded on, in order: the aimed scenarios, the checks, the kept scenarios.
  package var criteria: [(criterion: Criterion, aimed: Bool)] {
    aimed.map { (.scenario($0), true) } + checks.map { (.check($0), true) }
      + kept.map { (.scenario($0), false) }
  }

  /// The exercise numbered `number`, if there is one.
  package static func numbered(_ number: Int) -> Exercise? {
    all.first { $0.number == number }
  }
}

/// An exercise's code as the grader sees it: the design the scenarios drive, and its checks.
package struct ExerciseCode: Sendable {
  /// The code behind the scenarios' interface; `nil` for an exercise graded by its checks
  /// only, whose code is an app's rather than an observable (exercises 10 and 11).
  package var design: ObservableDesign?
  /// Runs one check of the exercise's promise on fresh objects.
  package var check: @Sendable (Check) -> Outcome

  package init(design: ObservableDesign? = nil, check: @escaping @Sendable (Check) -> Outcome) {
    self.design = design
    self.check = check
  }

  /// What `criterion` finds on this code.
  package func run(_ criterion: Criterion) -> Outcome {
    switch criterion {
    case .scenario(let name):
      design.map { refined(name.scenario.run(on: $0), of: name) }
        ?? .flaw("\(name.rawValue) is not a scenario of this exercise: it has no observable")
    case .check(let named): check(named)
    }
  }

  /// The scenarios' explanations the workshop words more carefully: each guesses at a cause
  /// the scenario cannot see, and a learner's code may fail (or pass) for another. The
  /// scenarios keep theirs, which compare-stages and the tutorial show for the stages.
  private static let rewordings: [Scenario.Name: (guess: String, said: String)] = [
    // Removed ids that collide fail it as a copy does.
    .unsubscribeDuringNotification: (
      ": the loop walks a copy taken before the removal",
      ": once removeObserver returns, the observer must not be called, not even later in "
        + "the notification under way"
    ),
    // Code that ignores the second subscription passes it too.
    .sameObserverTwice: (
      "called once: subscribing again replaced its first subscription",
      "called once for one change, though subscribed twice"
    ),
    // A field of the callback may hold it as well as the closure.
    .strongCaptureFreedWithoutUnsubscribe: (
      ": the stored closure captures it",
      ": something the observable stores holds it, a closure or a field of its entry,"
    ),
  ]

  /// The outcome, with evidence that names what happened where the scenario's own words tell
  /// a different mistake's story: a nested set that was dropped is not one that "reached them
  /// first".
  private func refined(_ outcome: Outcome, of name: Scenario.Name) -> Outcome {
    var outcome = outcome
    if let (guess, said) = Self.rewordings[name] {
      outcome.detail = outcome.detail.replacing(guess, with: said)
    }
    guard outcome.verdict == .flaw, name == .reentrantSetEndsOnLatest, let design else {
      return outcome
    }
    let events = name.scenario.trace(on: design).trace.events
    let nested = events.compactMap { event -> Int? in
      if case .set(_, let value, let by, _) = event, by != nil { return value }
      return nil
    }
    guard let value = nested.first else { return outcome }
    let delivered = events.contains { event in
      if case .call(_, _, .new(value), _) = event { return true }
      return false
    }
    guard !delivered else { return outcome }
    return .flaw(
      "\(value), set inside a callback, was never delivered: the observers traced received 1 "
        + "only, though the value is \(value)")
  }
}

/// What the scenarios and checks found on one exercise's code.
package struct ExerciseGrade: Sendable {
  /// One graded scenario or check.
  package struct Result: Sendable {
    package var criterion: Criterion
    /// Whether the exercise aims at it (else the starter passes it and the fix must keep it).
    package var aimed: Bool
    package var outcome: Outcome
    /// Whether it was run: `false` when grading stopped before it (the code does not compile,
    /// crashed or ran out of time), and its ✗ says why rather than what the code does.
    package var ran = true
  }

  /// Why grading stopped before every scenario and check had run.
  package struct Stop: Sendable, Equatable {
    /// What stopped it.
    package enum Reason: String, Sendable {
      /// The code does not compile: nothing was run.
      case doesNotCompile = "does-not-compile"
      /// The code crashed (a trap, a signal) outside every scenario and check, as the grading
      /// process started: the criteria left were not run. A crash within one is that one's ✗.
      case crashed
      /// The exercise's time ran out: the criteria left were not run.
      case timedOut = "timed-out"
      /// The code ended the grading process itself, such as by calling `exit`.
      case exited
      /// The grading process could not be started.
      case couldNotStart = "could-not-start"
    }

    /// What stopped it.
    package var reason: Reason
    /// What happened, in one line: the runtime's message of a crash, the time limit.
    package var detail: String

    /// A stop for `reason`, told by `detail`.
    package init(_ reason: Reason, detail: String) {
      self.reason = reason
      self.detail = detail
    }
  }

  package var exercise: Exercise
  /// The results, in the order of ``Exercise/criteria``.
  package var results: [Result]
  /// The compiler's errors, when the exercise's code does not compile; then nothing was run.
  package var buildErrors: String?
  /// Why grading stopped early; `nil` when every scenario and check ran (a hung one counts as
  /// run: its ✗ says it did not finish).
  package var stop: Stop?

  /// Whether every aimed and every kept scenario, and every check, holds.
  package var isSolved: Bool { results.allSatisfy { $0.outcome.verdict == .holds } }

  /// Grades `exercise` with what `outcome` finds, `nil` for a criterion that was not run,
  /// which gets a ✗ whose evidence is `notRun` (or, without one, says nothing reported it).
  package init(
    _ exercise: Exercise, stop: Stop?, notRun: String? = nil, outcome: (Criterion) -> Outcome?
  ) {
    self.exercise = exercise
    self.stop = stop
    results = exercise.criteria.map {
      let found = outcome($0.criterion)
      return Result(
        criterion: $0.criterion, aimed: $0.aimed,
        outcome: found
          ?? .flaw(notRun ?? "not graded: the grading process reported nothing for it"),
        ran: found != nil)
    }
  }

  /// The grade of an exercise whose code does not compile: nothing run, and the errors.
  package init(_ exercise: Exercise, buildErrors: String) {
    self.init(
      exercise,
      stop: Stop(.doesNotCompile, detail: "the exercise does not compile, so nothing was graded"),
      notRun: "not run: the exercise does not compile"
    ) { _ in nil }
    self.buildErrors = buildErrors
  }

  /// Runs the exercise's scenarios and checks on `code`, in this process.
  package init(_ exercise: Exercise, code: ExerciseCode) {
    self.init(exercise, stop: nil) { code.run($0) }
  }
}
