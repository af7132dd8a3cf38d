// Exercise 4's grading child: what the workshop's checks need of your code, then the
// checks. The workshop builds and runs it; you never need to open it.
import Exercise04
import ObserverScenarios
import WorkshopKit

// Your Observable of Int has the API of stage 3's weak owners (chapter 3).
extension Exercise04.Observable: AdaptableObservable, WeakObservable where Value == Int {}

GradingChild.run(exercise: 4, WeakAdapter<Exercise04.Observable<Int>>.self)
