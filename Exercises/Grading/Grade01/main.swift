// Exercise 1's grading child: what the workshop's checks need of your code, then the
// checks. The workshop builds and runs it; you never need to open it.
import Exercise01
import ObserverScenarios
import WorkshopKit

// Your Observable of Int has the API of stage 2's removable closures (chapter 2).
extension Exercise01.Observable: AdaptableObservable, RemovableClosuresObservable
where Value == Int {}

GradingChild.run(exercise: 1, RemovableClosuresAdapter<Exercise01.Observable<Int>>.self)
