// Exercise 3's grading child: what the workshop's checks need of your code, then the
// checks. The workshop builds and runs it; you never need to open it.
import Exercise03
import ObserverScenarios
import WorkshopKit

// Your Observable of Int has the API of stage 2's keys, one per owner (chapter 2).
extension Exercise03.Observable: AdaptableObservable, OwnerKeyedObservable where Value == Int {}

GradingChild.run(exercise: 3, OwnerKeyedAdapter<Exercise03.Observable<Int>>.self)
