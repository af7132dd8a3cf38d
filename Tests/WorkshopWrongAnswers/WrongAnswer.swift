import ObserverScenarios
import WorkshopKit

/// A wrong answer to an exercise, as learners write them: the grader must call it not solved,
/// with evidence that names the mistake. For tests only.
package struct WrongAnswer: Sendable, CustomStringConvertible {
  /// Its name, as the grading child takes it: `01-remove-at-id-minus-one`.
  package var name: String
  /// The exercise it answers.
  package var exercise: Int
  /// The mistake, in a sentence.
  package var mistake: String
  /// The scenario or check whose evidence must name the mistake.
  package var caughtBy: Criterion
  /// What that evidence must say; `|` separates phrases of which it must say one (a race
  /// shows as observers lost, or as a crash).
  package var evidence: String
  /// The code.
  package var code: ExerciseCode
  /// What the shortest counterexample of the exercise's generated check must say; `|`
  /// separates phrases of which it must say one. For exercises 1 to 8, empty: any
  /// counterexample will do, as long as there is one; for a later exercise, empty: its
  /// generated check is not asked.
  package var counterexample = ""
  /// Whether its mistake is a race, which a check finds only when two threads run at once.
  package var isRace = false

  /// Its name.
  package var description: String { name }

  /// The wrong answer called `name`, if there is one.
  ///
  /// - Parameter name: A wrong answer's name.
  /// - Returns: The wrong answer, or `nil`.
  package static func named(_ name: String) -> WrongAnswer? {
    all.first { $0.name == name }
  }

  /// Every wrong answer, by exercise.
  package static let all: [WrongAnswer] =
    exercise1 + exercise2 + exercise3 + exercise4 + exercise5 + exercise6 + exercise7
    + exercise8 + exercise9 + exercise10 + foundByPrograms + foundByThreads + exercise10Time
    + exercise11 + exercise9Values + exercise10Programs + round3 + round4 + exercise9Races
    + exercise11SameTurn
}

extension Check {
  /// Whether it runs generated programs (``GeneratedPrograms``) rather than one fixed sequence.
  /// For tests only.
  package var isGenerated: Bool { rawValue.hasPrefix("generated-") }
}
