// Exercise 7's grading child: what the workshop's checks need of your code, then the
// checks. The workshop builds and runs it; you never need to open it.
import Exercise07
import ObserverScenarios
import WorkshopKit

// Your Observable of Int has the API of stage 4's options (chapter 4).
extension Exercise07.Observable: AdaptableObservable, OptionsObservable where Value == Int {}
extension Exercise07.ObservableOptions: DeliveryOptions {}

GradingChild.run(exercise: 7, OptionsAdapter<Exercise07.Observable<Int>>.self)
