// Exercise 8's grading child: what the workshop's checks need of your code, then the
// checks. The workshop builds and runs it; you never need to open it.
import Exercise08
import ObserverScenarios
import WorkshopKit

// Your Observable of Int has the API of stage 4's options, handing over the owner (chapter 4).
extension Exercise08.Observable: AdaptableObservable, HandingObservable where Value == Int {}
extension Exercise08.ObservableOptions: DeliveryOptions {}

GradingChild.run(exercise: 8, HandingAdapter<Exercise08.Observable<Int>>.self)
