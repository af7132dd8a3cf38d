import ObserverScenarios

// What the grader needs of each exercise's code. The starter (module ExerciseNN) and the
// solution (module SolutionNN) declare the same API shape, so each conforms to its shape's
// protocol with one line and is driven by the shape's adapter, the one ObserverScenarios makes
// public for every grader: the catalog's stages use the same adapters.

/// A shape's adapter, as the workshop drives it: through the scenarios, and through the checks
/// of the exercises of that shape.
package protocol ExerciseAdapter: ShapeAdapter {
  /// Runs `check` on fresh objects of the exercise's API.
  ///
  /// - Parameter check: One of the checks of the exercises this adapter drives.
  /// - Returns: Its verdict and evidence.
  static func run(_ check: Check) -> Outcome
}

extension ExerciseCode {
  /// The code of exercise `number`, driven by `adapter`.
  ///
  /// - Parameters:
  ///   - number: The exercise's number.
  ///   - adapter: The adapter type over the module's observable.
  ///   - isSendable: Whether the observable is `Sendable`: pass
  ///     `ObservableDesign.isSendable(Module.Observable<Int>.self)`, evaluated where the type is
  ///     concrete.
  /// - Returns: A graded design, named after the exercise, and its checks.
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
}

extension RemovableClosuresAdapter: ExerciseAdapter {}
extension KeyedAdapter: ExerciseAdapter {}
extension OwnerKeyedAdapter: ExerciseAdapter {}
extension WeakAdapter: ExerciseAdapter {}
extension OptionsAdapter: ExerciseAdapter {}
extension HandingAdapter: ExerciseAdapter {}
extension SendableOptionsAdapter: ExerciseAdapter {}
