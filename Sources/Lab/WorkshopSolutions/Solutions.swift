import ObserverScenarios
import Solution01
import Solution02
import Solution03
import Solution04
import Solution05
import Solution06
import Solution07
import Solution08
import Solution09
import Solution10
import Solution11
import WorkshopKit

// Each exercise's module declares the API its adapter drives: one line each.
extension Solution01.Observable: AdaptableObservable, RemovableClosuresObservable
where Value == Int {}
extension Solution02.Observable: AdaptableObservable, KeyedObservable where Value == Int {}
extension Solution03.Observable: AdaptableObservable, OwnerKeyedObservable where Value == Int {}
extension Solution04.Observable: AdaptableObservable, WeakObservable where Value == Int {}
extension Solution05.Observable: AdaptableObservable, WeakObservable where Value == Int {}
extension Solution06.Observable: AdaptableObservable, OptionsObservable where Value == Int {}
extension Solution06.ObservableOptions: DeliveryOptions {}
extension Solution07.Observable: AdaptableObservable, OptionsObservable where Value == Int {}
extension Solution07.ObservableOptions: DeliveryOptions {}
extension Solution08.Observable: AdaptableObservable, HandingObservable where Value == Int {}
extension Solution08.ObservableOptions: DeliveryOptions {}
extension Solution09.Observable: AdaptableObservable, SendableOptionsObservable where Value == Int {
}
// Exercise 9's checks set wide values too: the observable of any value.
extension Solution09.Observable: ThreadedObservable {
  // Unlike 6 to 8, the compiler does not infer this one from the methods.
  package typealias Options = Solution09.ObservableOptions
}
extension Solution09.ObservableOptions: DeliveryOptions {}
extension Solution10.LatestScores: LatestScoresModel {}
extension Solution10.ScoresScreen: ScoresScreenModel {}
extension Solution10.ScoreSaver: ScoreSaverModel {}
extension Solution11.Player: ObservedPlayer {}
extension Solution11.ScoreLabel: ScoreLabelModel {}

/// The design of each exercise in the solutions, in `Exercises/Solutions/`: what the tests grade.
package let solutionCode: [Int: ExerciseCode] = [
  1: .exercise(1, RemovableClosuresAdapter<Solution01.Observable<Int>>.self),
  2: .exercise(2, KeyedAdapter<Solution02.Observable<Int>>.self),
  3: .exercise(3, OwnerKeyedAdapter<Solution03.Observable<Int>>.self),
  4: .exercise(4, WeakAdapter<Solution04.Observable<Int>>.self),
  5: .exercise(5, WeakAdapter<Solution05.Observable<Int>>.self),
  6: .exercise(6, OptionsAdapter<Solution06.Observable<Int>>.self),
  7: .exercise(7, OptionsAdapter<Solution07.Observable<Int>>.self),
  8: .exercise(8, HandingAdapter<Solution08.Observable<Int>>.self),
  9: .exercise(
    9, SendableOptionsAdapter<Solution09.Observable<Int>>.self,
    threaded: Solution09.Observable<Stamp>.self),
  10: .mainActorScores(Solution10.ScoresScreen.self, Solution10.ScoreSaver.self),
  11: .observedLabel(Solution11.ScoreLabel.self),
]
