// Exercise 9's grading child: what the workshop's checks need of your code, then the checks.
// The workshop builds and runs it; you never need to open it.
import Exercise09
import ObserverScenarios
import WorkshopKit

// Your Observable of Int has the API of stage 4's options, with Sendable callbacks.
extension Exercise09.Observable: AdaptableObservable, SendableOptionsObservable
where Value == Int {}
// And of any value: the checks set values on several threads at once, whose races show.
extension Exercise09.Observable: ThreadedObservable {
  package typealias Options = Exercise09.ObservableOptions
}
extension Exercise09.ObservableOptions: DeliveryOptions {}

GradingChild.run(
  exercise: 9, SendableOptionsAdapter<Exercise09.Observable<Int>>.self,
  threaded: Exercise09.Observable<Stamp>.self)
