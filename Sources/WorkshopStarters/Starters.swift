import Exercise01
import Exercise02
import Exercise03
import Exercise04
import Exercise05
import Exercise06
import Exercise07
import Exercise08
import Exercise09
import ObserverScenarios
import WorkshopKit

// Each exercise's module declares the API its adapter drives: one line each.
extension Exercise01.Observable: ExerciseObservable, RemovableClosuresObservable
where Value == Int {}
extension Exercise02.Observable: ExerciseObservable, KeyedObservable where Value == Int {}
extension Exercise03.Observable: ExerciseObservable, OwnerKeyedObservable where Value == Int {}
extension Exercise04.Observable: ExerciseObservable, WeakObservable where Value == Int {}
extension Exercise05.Observable: ExerciseObservable, WeakObservable where Value == Int {}
extension Exercise06.Observable: ExerciseObservable, OptionsObservable where Value == Int {
  package typealias Options = Exercise06.ObservableOptions
}
extension Exercise06.ObservableOptions: ExerciseOptions {}
extension Exercise07.Observable: ExerciseObservable, OptionsObservable where Value == Int {
  package typealias Options = Exercise07.ObservableOptions
}
extension Exercise07.ObservableOptions: ExerciseOptions {}
extension Exercise08.Observable: ExerciseObservable, HandingObservable where Value == Int {
  package typealias Options = Exercise08.ObservableOptions
}
extension Exercise08.ObservableOptions: ExerciseOptions {}
extension Exercise09.Observable: ExerciseObservable, SendableOptionsObservable where Value == Int {
  package typealias Options = Exercise09.ObservableOptions
}
extension Exercise09.ObservableOptions: ExerciseOptions {}

/// The design of each exercise in the learner's code, in `Exercises/`: what `swift run workshop` grades.
package let starterCode: [Int: ExerciseCode] = [
  1: .exercise(
    1, RemovableClosuresAdapter<Exercise01.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Exercise01.Observable<Int>.self)),
  2: .exercise(
    2, KeyedAdapter<Exercise02.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Exercise02.Observable<Int>.self)),
  3: .exercise(
    3, OwnerKeyedAdapter<Exercise03.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Exercise03.Observable<Int>.self)),
  4: .exercise(
    4, WeakAdapter<Exercise04.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Exercise04.Observable<Int>.self)),
  5: .exercise(
    5, WeakAdapter<Exercise05.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Exercise05.Observable<Int>.self)),
  6: .exercise(
    6, OptionsAdapter<Exercise06.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Exercise06.Observable<Int>.self)),
  7: .exercise(
    7, OptionsAdapter<Exercise07.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Exercise07.Observable<Int>.self)),
  8: .exercise(
    8, HandingAdapter<Exercise08.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Exercise08.Observable<Int>.self)),
  9: .exercise(
    9, SendableOptionsAdapter<Exercise09.Observable<Int>>.self,
    isSendable: ObservableDesign.isSendable(Exercise09.Observable<Int>.self)),
]
