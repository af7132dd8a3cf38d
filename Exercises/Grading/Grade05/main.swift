// Exercise 5's grading child: what the workshop's checks need of your code, then the
// checks. The workshop builds and runs it; you never need to open it.
import Exercise05
import ObserverScenarios
import WorkshopKit

// Your Observable of Int has the API of stage 3's weak owners (chapter 3).
extension Exercise05.Observable: AdaptableObservable, WeakObservable where Value == Int {}

GradingChild.run(exercise: 5, WeakAdapter<Exercise05.Observable<Int>>.self)
