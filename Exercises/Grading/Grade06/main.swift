// Exercise 6's grading child: what the workshop's checks need of your code, then the
// checks. The workshop builds and runs it; you never need to open it.
import Exercise06
import ObserverScenarios
import WorkshopKit

// Your Observable of Int has the API of stage 4's options (chapter 4).
extension Exercise06.Observable: AdaptableObservable, OptionsObservable where Value == Int {}
extension Exercise06.ObservableOptions: DeliveryOptions {}

GradingChild.run(exercise: 6, OptionsAdapter<Exercise06.Observable<Int>>.self)
