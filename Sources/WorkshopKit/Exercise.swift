import ObserverScenarios

/// One exercise of the workshop: a stage's flaw for the learner to fix in `Exercises/`, and the
/// scenarios that grade the fix.
package struct Exercise: Sendable, Identifiable {
  /// Its number, as `swift run workshop N` takes it.
  package var number: Int
  /// Its folder's name under `Exercises/`: `01-removable-closures`.
  package var slug: String
  /// What to do, in a few words.
  package var title: String
  /// The number of the chapter it follows.
  package var chapter: Int
  /// What the starter behaves like: "stage 1".
  package var startsFrom: String
  /// What to build, told in a paragraph.
  package var task: String
  /// The scenarios the fix must make hold.
  package var aimed: [Scenario.Name]
  /// The scenarios the starter already passes, which the fix must keep.
  package var kept: [Scenario.Name]
  /// Hints, each one step further than the one before.
  package var hints: [String]
  /// What to read once it is solved, relative to the package root.
  package var next: String

  /// Its number.
  package var id: Int { number }

  /// The folder the learner edits, relative to the package root.
  package var folder: String { "Exercises/\(slug)" }

  /// Its solution's folder, relative to the package root.
  package var solutionFolder: String { "Exercises/Solutions/\(slug)" }

  /// Describes an exercise.
  ///
  /// - Parameters:
  ///   - number: Its number.
  ///   - slug: Its folder's name.
  ///   - title: What to do, in a few words.
  ///   - chapter: The chapter it follows.
  ///   - startsFrom: What the starter behaves like.
  ///   - task: What to build.
  ///   - aimed: The scenarios the fix must make hold.
  ///   - kept: The scenarios the starter passes, which must keep passing.
  ///   - hints: Hints, each one step further.
  ///   - next: What to read once solved.
  package init(
    number: Int, slug: String, title: String, chapter: Int, startsFrom: String, task: String,
    aimed: [Scenario.Name], kept: [Scenario.Name], hints: [String], next: String
  ) {
    self.number = number
    self.slug = slug
    self.title = title
    self.chapter = chapter
    self.startsFrom = startsFrom
    self.task = task
    self.aimed = aimed
    self.kept = kept
    self.hints = hints
    self.next = next
  }

  /// The exercise numbered `number`, if there is one.
  ///
  /// - Parameter number: An exercise number.
  /// - Returns: The exercise, or `nil`.
  package static func numbered(_ number: Int) -> Exercise? {
    all.first { $0.number == number }
  }
}

/// What the scenarios found on one exercise's code.
package struct ExerciseGrade: Sendable {
  /// One graded scenario.
  package struct Result: Sendable {
    /// The scenario.
    package var scenario: Scenario.Name
    /// Whether the exercise aims at it (else the starter passes it and the fix must keep it).
    package var aimed: Bool
    /// What the run found.
    package var outcome: Outcome
  }

  /// The exercise graded.
  package var exercise: Exercise
  /// The aimed scenarios' results, then the kept ones'.
  package var results: [Result]

  /// Whether every aimed and every kept scenario holds.
  package var isSolved: Bool { results.allSatisfy { $0.outcome.verdict == .holds } }

  /// Grades `exercise`, its aimed scenarios then its kept ones, with what `outcome` finds.
  ///
  /// - Parameters:
  ///   - exercise: The exercise.
  ///   - outcome: What one scenario finds on the exercise's code.
  package init(_ exercise: Exercise, outcome: (Scenario.Name) -> Outcome) {
    self.exercise = exercise
    results =
      exercise.aimed.map { Result(scenario: $0, aimed: true, outcome: outcome($0)) }
      + exercise.kept.map { Result(scenario: $0, aimed: false, outcome: outcome($0)) }
  }

  /// Runs the exercise's aimed and kept scenarios on `design`, in this process.
  ///
  /// - Parameters:
  ///   - exercise: The exercise.
  ///   - design: The learner's code (or the solution), behind the scenarios' interface.
  package init(_ exercise: Exercise, design: ObservableDesign) {
    self.init(exercise) { $0.scenario.run(on: design) }
  }
}
