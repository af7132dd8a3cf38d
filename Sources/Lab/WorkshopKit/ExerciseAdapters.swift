import ObserverScenarios

// What the grader needs of each exercise's code. The starter (module ExerciseNN) and the
// solution (module SolutionNN) declare the same API shape, so each conforms to its shape's
// protocol with one line and is driven by the shape's adapter, the one ObserverScenarios makes
// public for every grader: the design catalog's stages use the same adapters.

/// A shape's adapter, as the workshop drives it: through the scenarios, and through the checks
/// of the exercises of that shape.
package protocol ExerciseAdapter: ShapeAdapter {
  /// Runs `check`, one of the checks of the exercises this adapter drives, on fresh objects.
  static func run(_ check: Check) -> Outcome
}

/// The evidence of a check asked of an exercise's code that does not run it.
func notRunHere(_ check: Check) -> Outcome {
  .flaw("\(check.rawValue) is not a check of this exercise's API")
}

extension ExerciseCode {
  /// The code of exercise `number`, driven by `adapter`: a graded design, named after the
  /// exercise, and its checks. `isSendable` says whether the observable is `Sendable`: pass
  /// `ObservableDesign.isSendable(Module.Observable<Int>.self)`, evaluated where the type is
  /// concrete, or call the overloads below, which ask the same where they are called.
  package static func exercise<Adapter: ExerciseAdapter>(
    _ number: Int, _ adapter: Adapter.Type, isSendable: Bool
  ) -> ExerciseCode {
    let typeName = String(reflecting: Adapter.Observable.self).replacing("Swift.", with: "")
    let exercise = Exercise.numbered(number)
    let design = ObservableDesign(
      id: String(number), name: "exercise \(number)", shortName: "ex \(number)",
      title: exercise?.title ?? "exercise \(number)",
      module: String(typeName.prefix { $0 != "." }), typeName: typeName,
      chapter: exercise?.folder, isSendable: isSendable, adapter: Adapter.self)
    return ExerciseCode(design: design) { Adapter.run($0) }
  }

  /// The code of exercise `number`, whose observable is not `Sendable`.
  package static func exercise<Adapter: ExerciseAdapter>(_ number: Int, _ adapter: Adapter.Type)
    -> ExerciseCode
  {
    exercise(number, adapter, isSendable: false)
  }

  /// The code of exercise `number`, whose observable is `Sendable`.
  package static func exercise<Adapter: ExerciseAdapter>(_ number: Int, _ adapter: Adapter.Type)
    -> ExerciseCode where Adapter.Observable: Sendable
  {
    exercise(number, adapter, isSendable: true)
  }
}

extension RemovableClosuresAdapter: ExerciseAdapter {}
extension KeyedAdapter: ExerciseAdapter {}
extension OwnerKeyedAdapter: ExerciseAdapter {}
extension WeakAdapter: ExerciseAdapter {}
extension OptionsAdapter: ExerciseAdapter {}
extension HandingAdapter: ExerciseAdapter {}
extension SendableOptionsAdapter: ExerciseAdapter {}
