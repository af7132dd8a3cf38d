import CommandSupport
import Foundation
import ObserverScenarios

// The public door of the workshop's grading, for the exercises' own package, `Exercises/`, and
// nothing else: its grading children (Exercises/Grading/GradeNN/main.swift) each declare the
// conformances their exercise's code needs, then hand that code to one of these. The package
// ships this module as the library product `_WorkshopKit`; the underscore says it is no API for
// an app.

/// The grading child of one exercise: the program the workshop builds from the learner's code
/// and starts once for each scenario and check, so that code that traps, hangs or floods its
/// output costs one criterion a ✗, never the whole grade.
///
/// Each method reads the process's arguments as the workshop wrote them, grades, and exits
/// with the workshop's status. It is meant for `Exercises/Grading/GradeNN/main.swift` only.
public enum GradingChild {
  /// Grades exercise `number` (1 to 8), whose `Observable<Int>` the scenarios and checks drive
  /// through `adapter`, one of the shape adapters of `ObserverScenarios`; its observable is not
  /// `Sendable`, as an exercise before 9 declares it.
  ///
  /// Traps when `adapter` is not one of the adapters the workshop's checks drive.
  public static func run<Adapter: ShapeAdapter>(exercise number: Int, _ adapter: Adapter.Type)
    -> Never
  {
    exit(exercise: number, code: exerciseCode(number, adapter, isSendable: false))
  }

  /// Grades exercise `number`, whose `Observable<Int>` is `Sendable`, driven through `adapter`.
  ///
  /// Swift picks this overload, the more constrained, where the observable is known to be
  /// `Sendable` where it is called: in the grading child, which names the learner's type.
  public static func run<Adapter: ShapeAdapter>(exercise number: Int, _ adapter: Adapter.Type)
    -> Never where Adapter.Observable: Sendable
  {
    exit(exercise: number, code: exerciseCode(number, adapter, isSendable: true))
  }

  /// Grades exercise 9: `adapter` drives its `Observable<Int>` through the scenarios and the
  /// checks, and `threaded`, the same observable holding ``Stamp``s, through the check of
  /// values set on two threads at once. Its observable is not `Sendable`, which the scenarios
  /// report.
  public static func run<Adapter: ShapeAdapter, Threaded: ThreadedObservable>(
    exercise number: Int, _ adapter: Adapter.Type, threaded: Threaded.Type
  ) -> Never where Threaded.Value == Stamp {
    let code = exerciseCode(number, adapter, isSendable: false)
    exit(exercise: number, code: code.settingValues(on: threaded))
  }

  /// Grades exercise 9, whose observable is `Sendable`, as the overload above grades one that
  /// is not.
  public static func run<Adapter: ShapeAdapter, Threaded: ThreadedObservable>(
    exercise number: Int, _ adapter: Adapter.Type, threaded: Threaded.Type
  ) -> Never where Adapter.Observable: Sendable, Threaded.Value == Stamp {
    let code = exerciseCode(number, adapter, isSendable: true)
    exit(exercise: number, code: code.settingValues(on: threaded))
  }

  /// Grades exercise 10, an app's code: a screen and a saver of one model, which is not
  /// `Sendable`, a flaw the grade reports first.
  public static func run<Screen: ScoresScreenModel, Saver: ScoreSaverModel>(
    exercise number: Int, screen: Screen.Type, saver: Saver.Type
  ) -> Never where Saver.Scores == Screen.Scores {
    exit(exercise: number, code: .mainActorScores(screen, saver))
  }

  /// Grades exercise 10, whose model is `Sendable`: a screen and a saver of it.
  public static func run<Screen: ScoresScreenModel, Saver: ScoreSaverModel>(
    exercise number: Int, screen: Screen.Type, saver: Saver.Type
  ) -> Never where Saver.Scores == Screen.Scores, Screen.Scores: Sendable {
    exit(exercise: number, code: .mainActorScores(screen, saver))
  }

  /// Grades exercise 11, an app's code: a score label of an `@Observable` player.
  public static func run<Label: ScoreLabelModel>(exercise number: Int, label: Label.Type) -> Never {
    exit(exercise: number, code: .observedLabel(label))
  }

  /// The code of exercise `number`, driven by `adapter`, which must be one of the adapters the
  /// workshop's checks drive.
  private static func exerciseCode<Adapter: ShapeAdapter>(
    _ number: Int, _ adapter: Adapter.Type, isSendable: Bool
  ) -> ExerciseCode {
    guard let graded = adapter as? any ExerciseAdapter.Type else {
      preconditionFailure("\(adapter) is not an adapter the workshop's checks drive")
    }
    func code<Graded: ExerciseAdapter>(_ graded: Graded.Type) -> ExerciseCode {
      .exercise(number, graded, isSendable: isSendable)
    }
    return code(graded)
  }

  /// Runs the workshop's command on `code`, and exits with its status: as a grading child when
  /// the workshop runs it so; run by hand, it grades its exercise as `workshop N` does, each
  /// check in a child of its own (itself).
  private static func exit(exercise number: Int, code: ExerciseCode) -> Never {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard arguments.first != IsolatedGrading.childFlag else {
      let status = WorkshopCommand.run(arguments, io: .standard, code: [number: code])
      Foundation.exit(status.rawValue)
    }
    IsolatedGrading.stopChildrenOnInterrupt()
    let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
    let status = WorkshopCommand.run(
      arguments.isEmpty ? [String(number)] : arguments, io: .standard, code: [number: code],
      grading: .isolated(command: [executable]))
    Foundation.exit(status.rawValue)
  }
}
