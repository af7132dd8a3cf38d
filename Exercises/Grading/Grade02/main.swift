// Exercise 2's grading child: what the workshop's checks need of your code, then the
// checks. The workshop builds and runs it; you never need to open it.
import Exercise02
import ObserverScenarios
import WorkshopKit

// Your Observable of Int has the API of stage 2's keys (chapter 2).
extension Exercise02.Observable: AdaptableObservable, KeyedObservable where Value == Int {}

GradingChild.run(exercise: 2, KeyedAdapter<Exercise02.Observable<Int>>.self)
