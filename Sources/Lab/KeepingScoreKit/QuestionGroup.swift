import Support

/// A question with one right answer among a few choices, and why it is right.
///
/// The right answer is written first; a game shows the choices shuffled (``ChoiceShuffler``),
/// so neither its place nor anything else about how the question was written tells it apart.
package struct Question: Sendable {
  package var prompt: String
  /// A short piece of Swift shown under the prompt, whose output the question asks about; the
  /// tests compile the same lines and check that the right answer is what they print.
  package var code: String?
  package var rightAnswer: String
  package var wrongAnswers: [String]
  /// Why the right answer is right, shown after every answer.
  package var explanation: String

  /// Every choice, as written: the right answer first.
  package var choices: [String] { [rightAnswer] + wrongAnswers }

  /// A question asking `prompt`, about `code` if it shows some, with its answers and why the
  /// right one is right.
  package init(
    prompt: String, code: String?, rightAnswer: String, wrongAnswers: [String],
    explanation: String
  ) {
    self.prompt = prompt
    self.code = code
    self.rightAnswer = rightAnswer
    self.wrongAnswers = wrongAnswers
    self.explanation = explanation
  }
}

/// A numbered group of questions, played as one game, as on the book's "Select Question Group"
/// screen: one group per chapter of the tutorial, a self-check for its reader.
package struct QuestionGroup: Sendable {
  /// The chapter it checks, whose number and title it has.
  package var chapter: TutorialChapter
  /// Its questions, asked in order.
  package var questions: [Question]

  package var number: TutorialChapter.Number { chapter.number }
  package var title: String { chapter.title }

  /// The group of chapter `number`, if it has one.
  package static func numbered(_ number: TutorialChapter.Number) -> QuestionGroup? {
    all.first { $0.number == number }
  }

  /// The group numbers as the help, the errors and the prompt say them, "1 to 9 or 5c" say: the
  /// whole numbers as a range, then the chapters that go on from one.
  package static var numberRange: String {
    let whole = all.map(\.number).filter { $0.part.isEmpty }.map(\.chapter)
    let lettered = all.map(\.number).filter { !$0.part.isEmpty }.map(\.description)
    return "\(whole.min() ?? 0) to \(whole.max() ?? 0)"
      + (lettered.isEmpty ? "" : " or " + lettered.joined(separator: ", "))
  }

  /// How a question about code asks: the choices list the printed lines joined by " / ".
  package static let printsPrompt = "What does this print (its lines joined by \" / \")?"

  /// Every group, one per chapter from 1 on (5c too), in reading order, as ``quiz`` writes them.
  package static let all = runs(of: fields(of: quiz), startingAt: "#").map { group in
    QuestionGroup(
      chapter: .numbered(TutorialChapter.Number(group.first!.text)!)!,
      questions: runs(of: group.dropFirst(), startingAt: "?").map(Question.init))
  }

  /// The questions, a field a line, each line starting with its mark: `# 3` starts chapter 3's
  /// group; `?` starts a question, with its prompt (left out, it is ``printsPrompt``); `|` is a
  /// line of its code, `+` the right answer, `-` a wrong one, `=` the explanation. A line
  /// indented by two more spaces goes on with the line above.
  private static let quiz = #"""
    # 1
    ? A detail screen binds a closure that captures it with [weak self], then is closed and
      freed. What becomes of its closure?
    + it stays stored and runs on each set, with self nil
    - it stays stored, and the observable skips it from then on
    - it is freed with the screen, which it held weakly
    = Nothing ever takes a closure out of stage 1's array: [weak self] frees the screen, not
      the closure.
    ? A screen's closure captures self strongly; the screen keeps no reference to the observable.
      Why is the screen never freed?
    + the observable holds the closure, which holds the screen
    - the closure and the screen hold each other in a cycle
    - the observable keeps the screen itself: it is the observer
    = No cycle: a leak rooted in the long-lived observable, which keeps the closure, which keeps
      the screen.
    ? Closures A, B and C are bound in that order; B sets the value to 2 when it receives 1. The
      value is set to 1. What does C receive?
    + 2, then 2 again
    - 1, then 2
    - 2, then 1
    = B's set runs a whole round before B returns; the first round then resumes, and C reads the
      value again: 2 twice, never 1.
    ? Stage 1 has no way to remove a closure. What can a screen do so that its closure stops
      touching it once it closes?
    + capture it weakly and return when it is nil
    - set the closure to nil in the screen's deinit
    - bind an empty closure, which replaces its own
    = The closure keeps running for ever; a weak capture only lets it see that the screen is
      gone. The closure belongs to the observable's array, which the screen cannot reach.
    ?
    | let count = Observable(0)
    | count.bindObserver { print("A \($0)") }
    | count.bindObserver { print("B \($0)") }
    | count.value = 1
    | count.value = 2
    + A 1 / B 1 / A 2 / B 2
    - B 1 / A 1 / B 2 / A 2
    - A 0 / B 0 / A 1 / B 1 / A 2 / B 2
    = Binding calls nothing; each set calls every closure, in the order bound.

    # 2
    ? A screen calls removeObserver(forKey:) in its deinit, and its closure captures self
      strongly. What happens when the screen is closed?
    + its deinit never runs, and the closure stays
    - its deinit runs and removes the key
    - the key is removed, but the screen stays alive
    = The dictionary keeps the closure, the closure keeps the screen: deinit never comes, so
      neither does the removal.
    ? Why can stage 2 not promise to call its closures in the order they were bound?
    + a dictionary has an order of its own, which changes per run
    - a dictionary keeps its keys sorted, not in binding order
    - it calls the last key bound first, then the older ones
    = Swift's hashing is seeded per process: the order is the dictionary's, and it changes from
      run to run.
    ? Yep's Listenable keeps its listeners in a Set, equal by name. A second listener is added
      under a name already there. Which one is called on the next set?
    + the first: a set keeps the member it already has
    - the second: an insert replaces the equal member
    - both: their actions differ, so both are stored
    = Set.insert keeps the member it has: the opposite collision of the dictionary's.
    ? A listener's name is built from its object's memory address. What can go wrong once the
      object is freed without removing its listener?
    + a new object at that address gets the same name
    - nothing: no two objects of a run share an address
    - the name turns nil, and the listener is skipped
    = An address is an identity only while its object lives; the next object there inherits
      the name.
    ?
    | let name = Observable("Ann")
    | name.bindObserver(forKey: "label") { print("first \($0)") }
    | name.bindObserver(forKey: "label") { print("second \($0)") }
    | name.value = "Bob"
    + second Bob
    - first Bob / second Bob
    - first Bob
    = One closure per key: the second bind under "label" replaced the first.

    # 3
    ? What does holding each observer weakly fix?
    + the closure of a released observer is not called again
    - a closure that captures its observer no longer leaks
    - an entry leaves the list the moment its observer is freed
    = The entry's weak reference is nil once its object goes, and the set skips it; the entry
      stays until the next bind.
    ? When does stage 3 drop the entries of observers that are gone?
    + only when an observer binds
    - on each set, before it calls the closures
    - the moment the observer is freed
    = Only bindObserver filters the list, so sets alone leave dead entries behind.
    ? The entry is weak, but its closure captures the observer strongly. Is the observer freed
      once the screen lets it go?
    + no: the stored closure keeps it alive
    - yes: the weak entry lets it go
    - yes, once the next bind cleans its entry
    = The observable keeps the closure, and the closure keeps the observer: a rooted leak, which
      [weak self] breaks.
    ? Why was the original subscription center's static dictionary of topics a bug?
    + the centers of an app shared one set of topics
    - a center's topics were lost when it was freed
    - each subclass got a set of topics of its own
    = Two parts of an app that each made their own center saw, and could remove, each other's
      topics.
    ?
    | final class Screen {}
    | let screen = Screen()
    | let count = Observable(0)
    | count.bindObserver(screen) { print("first \($0)") }
    | count.bindObserver(screen) { print("second \($0)") }
    | count.value = 1
    | withExtendedLifetime(screen) {}
    + first 1 / second 1
    - first 1
    - second 1
    = Each bind stores an entry, even for the same observer; both run, in order.

    # 4
    ? What does the .initial option do?
    + calls the closure inside addObserver, with the current value
    - calls the closure on the first set after addObserver
    - hands the closure the value from before each set
    = The observer sees the value as it is now, before addObserver returns.
    ? An observer asks for [.old, .new]. How does one set call it?
    + twice: every observer's .old call comes before any .new call
    - once, with old and new in one change, like KVO
    - twice: its .old call, then its .new call, then the next observer's
    = The set walks the observers twice: once with the old value for those that asked for .old,
      then with the new one for those that asked for .new.
    ? An observer removes another during a set. Is the removed one called for that set?
    + yes: it is in the snapshot the set walks
    - no: removal takes effect at once, even mid-set
    - no: it is skipped, as a released observer is
    = The set walks a snapshot taken before the first call: removing changes the list, not the
      copy.
    ? An observer sets the value inside its closure. What do the observers after it end on?
    + the older value, the one the outer set was given
    - the newer value, as in stages 1 to 3
    - the newer value: a nested set waits its turn
    = The nested set reaches everyone first, then the outer loop hands the rest the value its
      setter was given.
    ? A KVO-observed property is not marked dynamic. What happens when a plain Swift setter
      changes it?
    + the observation is never told of it
    - the program traps at the change
    - the compiler refuses the observe call
    = The setter bypasses the runtime's dispatch: with .initial, the closure runs once when you
      subscribe, then never again. The compiler only warns.
    ?
    | final class Label {}
    | let label = Label()
    | let count = Observable(1)
    | count.addObserver(label, options: [.initial, .new]) { value, option in
    |   print(option == .initial ? "initial \(value)" : "new \(value)")
    | }
    | count.value = 2
    | withExtendedLifetime(label) {}
    + initial 1 / new 2
    - new 2
    - initial 2 / new 2
    = .initial calls at once, with the value as it is; .new after each set.

    # 5
    ? What happens to a value set while a delivery is under way?
    + it is queued, and delivered after the current one ends
    - it is delivered at once, inside the current one
    - it replaces any value queued before it
    = Step 1's queue: everyone sees the current value, then the one set meanwhile.
    ? Why must the lock never be held while a handler runs?
    + a handler that reads the value would take it again
    - a set from another thread would be dropped, not queued
    - the compiler rejects code that calls out under a lock
    = Mutex stops the program on a recursive lock; two locks taken in turn can deadlock.
    ? Which of these is Sendable without a lock?
    + a @MainActor class with var properties
    - a struct holding an instance of a plain class
    - a final class whose var is only set in init
    = Only code on the main actor may touch a @MainActor class, so no two threads ever do.
    ? A SharedObservable's old value has a deinit that reads the observable. When does it run?
    + once the lock is let go
    - under the lock, inside set
    - once the handlers have all seen the new value
    = The old value leaves the lock with the setter, which releases it with no lock held.
    ? In step 1, how does a handler with an owner reach that owner?
    + the observable hands it the owner as a parameter
    - the handler captures the owner with [weak self]
    - the observable keeps the owner alive for the handler
    = The owner is held weakly and passed in, so the handler never needs to capture it.
    ?
    | let count = SharedObservable(0)
    | count.observe { value in
    |   print("A \(value)")
    |   if value == 1 { count.set(2) }
    | }
    | count.observe { print("B \($0)") }
    | count.set(1)
    + A 1 / B 1 / A 2 / B 2
    - A 1 / A 2 / B 2 / B 1
    - A 1 / A 2 / B 2 / B 2
    = The nested set waits until everyone has seen 1: breadth first.
    ? A thread sets a SharedObservable while another thread delivers. What does the setter do?
    + it waits for its turn, then delivers its own value itself
    - it returns at once; the other thread delivers its value
    - it calls the handlers at once, beside the other thread
    = One thread at a time has the turn, and no thread is kept delivering for others.
    ? On which thread does a handler of a SharedObservable run?
    + whichever thread holds the turn and delivers
    - the main thread, which screens need
    - the thread that subscribed the handler
    = There is no actor and no task: whoever has the turn calls the handlers.

    # 5c
    ? Where does stage 5's observe run a handler written in a @MainActor type?
    + on the main actor, whichever thread sets the value
    - on the thread that set the value, as in stage 4
    - on the main actor, but only for sets made there
    = A closure that is not @Sendable takes the isolation of the code that writes it; a delivery
      moves to that actor when the handler's turn comes.
    ? What does isolation: isolated any Actor = #isolation give observe?
    + the caller's actor, where the handler runs
    - the main actor, whichever code calls observe
    - a new actor of its own for each subscription
    = #isolation is filled in where observe is called: the caller's actor.
    ? A thread sets the value; a main-actor handler's turn comes. What happens?
    + the turn moves to the main actor, while the setter returns
    - the setter waits until the main actor has run the handler
    - the handler runs on the setting thread, like the others
    = The turn moves in one Task: handlers after it run there too, never two at a time.
    ? Why does stage 5 store a main-actor handler as nonisolated(unsafe)?
    + its list holds @Sendable closures, and this handler is not one
    - to skip the actor check, so the handler runs faster
    - a @MainActor closure can never be stored in a property
    = From there on, stage 5 keeps the promise at run time: it calls it only on its actor.
    ? Nobody is delivering. With .initial, when does a main-actor handler get the value?
    + before observe returns
    - after observe returns, in a Task
    - with the first value set after it
    = observe already runs on the handler's actor, so it calls it at once.
    ? A command-line tool observes with a @MainActor label, starts a thread that sets the value,
      then blocks its main thread in a DispatchSemaphore's wait(). What does the label get?
    + nothing while the main thread waits, though the set returned
    - the value, from the setting thread, since the main one is busy
    - nothing, and the setting thread stays stuck in its set as well
    = The delivery moved to the main actor, whose work a blocked main thread never runs; the
      setter went on. Such a tool should observe with observeOnAnyThread.
    ? Code in a Task, off the main actor and in no handler, sets the value while more than
      backlogLimit (256) changes are queued. What can the set do?
    + block the thread under the task, for at most 100 ms
    - suspend the task, freeing its thread, until the queue drains
    - drop its change, as the queue holds all it may
    = A setter off the main actor and outside any delivery waits for room in a full queue,
      never longer than 100 ms. It is synchronous, so it blocks the thread the Task runs
      on; on the main actor, or inside a handler, a set never waits.
    ?
    | let score = Observable(0)
    | let token = score.observeOnAnyThread(options: .initial) { change in
    |   print(change.newValue)
    | }
    | score.value = 1
    | token.cancel()
    | score.value = 2
    + 0 / 1
    - 1
    - 0 / 1 / 2
    = .initial calls at once with 0; once cancel() returns, no more calls.

    # 6
    ? What does a ✗ in the comparison mean?
    + the stage has the flaw the scenario looks for
    - the stage's own unit test for that row failed
    - the stage lacks the feature, so the row is skipped
    = A scenario run live found the flaw, and its line of evidence says what it measured; the
      stage's tests list it as a known issue.
    ? strong-capture-freed-without-unsubscribe is ✗ for stages 1 to 4. What is the cure the
      chapter gives?
    + hand the owner to the closure as a parameter
    - hold the closures weakly too, not only the owners
    - remove the observer in the owner's deinit
    = A closure handed its owner has no reason to capture it; a weakly held closure would be
      freed at once, and a deinit never comes while the closure holds the owner.
    ? Why does the bench set every design beside the floor?
    + it is the cheapest loop over closures: a ratio shows what a design adds
    - it is the loop a first version writes: a ratio shows what a design saves
    - it is stage 1, the simplest: a ratio shows what later stages cost
    = The floor borrows each closure; the closure array a first version writes retains and
      releases each one, and costs more.
    ? Adding and removing ten times as many observers takes a hundred times as long. That is:
    + quadratic growth: each call walks the whole list
    - linear growth, with a larger cost per observer
    - n log n growth, the cost of keeping the list sorted
    = ×10 is linear, ×100 quadratic: O(n²), as stages 3 and 4 show.
    ? Why is unsubscribe-during-notification ✗ for every stage before 5 that can remove?
    + it calls from a copy of its list, taken before the first call
    - a removed entry is only marked, and dropped on the next set
    - removal waits until the set under way has ended
    = The removed observer is still in the copy, so it is called, perhaps while its owner tears
      down.
    ?
    | let one = Stage1Closures.Observable(0)
    | let two = Stage2KeyedDict.Observable(0)
    | for _ in 1...2 {
    |   one.bindObserver { _ in }
    |   two.bindObserver(forKey: "label") { _ in }
    | }
    | print("\(one.observerCount) \(two.observerCount)")
    + 2 1
    - 1 1
    - 2 2
    = Stage 1 keeps both closures; stage 2 keeps one per key (same-observer-twice).

    # 7
    ? Why does the question groups screen observe the scores with .initial?
    + so it shows the saved scores as soon as it opens
    - so it is handed the old score beside the new one
    - so it hears of the games that ended before it opened
    = The first call comes at once, with the scores loaded from the file; it replays nothing
      else.
    ? The screen and the saver observe the same scores. What does each know of the other?
    + nothing: each knows only the scores it observes
    - the saver tells the screen every time it has saved
    - the screen owns the saver and calls it on each change
    = That is the point of the pattern: the game only sets the value.
    ? The input ends in the middle of a game. What is saved?
    + nothing: the scores of the last complete game stay
    - a partial score, counting the questions answered
    - a score of zero out of the group's questions
    = The game sets the scores only when it ends, so the saver never runs.
    ? A game ends on a background thread and sets the scores. Where does stage 4 run the screen's
      handler?
    + on the background thread that set them
    - on the thread that added the screen as an observer
    - on the main thread, where screens belong
    = Stage 4 calls each handler on the setter's thread: exercise 10 moves it to the main actor.
    ? Why does the saver ask for no .initial?
    + it would receive what was just loaded
    - without it, the first game's score would be lost
    - .initial would run it before the file is open
    = Saving the scores just read from the file would write the same file again, for nothing.
    ?
    | let scores = Observable(Scores([7: Score(correct: 3, total: 4)]))
    | let screen = QuestionGroupsScreen(
    |   groups: [QuestionGroup.numbered(7)!], observing: scores)
    | print(screen.scoreLabels[7]!)
    | scores.value = Scores([7: Score(correct: 4, total: 4)])
    | print(screen.scoreLabels[7]!)
    + latest score 3 of 4 / latest score 4 of 4
    - no score yet / latest score 4 of 4
    - latest score 3 of 4 / latest score 3 of 4
    = With .initial, the screen shows the saved score at once, then each new one.

    # 8
    ? In what order does NotificationCenter call its observers, as measured on Linux?
    + an order unlike the subscription order
    - the subscription order, the one of stages 1, 3 and 4
    - the newest observer first, then the older ones
    = On 20 fresh centers of 64 observers, the order differed every time: no API here promises
      it.
    ? When does Observation's onChange run?
    + before the write, while the old value is still there
    - after the write, with the new value stored
    - after the write, on the next turn of the main actor
    = So the value read there is the one being replaced, and the new one is not delivered.
    ? What does Observations do with changes made before its consumer runs?
    + coalesces them: the consumer gets the latest
    - queues every one, delivers each in order
    - delivers each, but in no promised order
    = A label wants the latest; a log of every value loses some, silently.
    ? Which of these makes a retain cycle in Combine?
    + sink { self.… } stored in the same object's cancellables
    - sink { [weak self] … } stored in the object's cancellables
    - assign(to: &$property), which ties it to the property
    = The object keeps the cancellable, which keeps the closure, which keeps the object.
    ? A poster puts the score under "points" in userInfo; the observer reads "score". What
      happens?
    + it compiles, and the observer reads nil
    - the compiler rejects the unknown key
    - the observer is not called: no key matches
    = userInfo is [AnyHashable: Any]: any key compiles. The typed messages make this mistake
      fail to compile.
    ?
    | let center = NotificationCenter()
    | let name = Notification.Name("score")
    | let token = center.addObserver(forName: name, object: nil, queue: nil) { note in
    |   print(note.userInfo?["points"] ?? "none")
    | }
    | center.post(name: name, object: nil, userInfo: ["points": 3])
    | center.removeObserver(token)
    | center.post(name: name, object: nil, userInfo: ["points": 4])
    + 3
    - 3 / 4
    - none
    = Once removeObserver(_:) has returned, the center calls the block no more.

    # 9
    ? Which of these needs iOS 26 or macOS 26?
    + Observations
    - the @Observable macro
    - stage 5's Observable
    = @Observable needs iOS 17 and macOS 14; stage 5, iOS 18 and macOS 15, for its Mutex.
    ? How many consumers does one AsyncStream serve?
    + one; make a stream per observer instead
    - every task iterating it, each value
    - any number, each handed the latest value
    = Each value goes to one waiting iteration: a stream is not a broadcast.
    ? How does a leak test know that a released screen was freed?
    + a weak reference to it has become nil
    - observerCount is back to zero
    - after a sleep, its handler stays silent
    = A count can drop while the screen lives on, and a sleep proves nothing: a weak reference
      and a deinit counter do.
    ? Which stage 5 product should an app depend on?
    + Stage5Tuned: the same promises, made fast
    - Stage5Concurrency: the tuned one drops promises
    - Stage5Tuned: it runs on older systems
    = Both keep every promise and need iOS 18 or macOS 15; the tuned one is many times faster as
      a product.
    ? A service calls score.observeOnAnyThread { log($0) } as a statement, and keeps nothing it
      returns. What follows?
    + a warning that a result is unused; log is never called
    - an error: the compiler insists the token be stored
    - no warning; log runs until the observable is freed
    = The token is released as the statement ends, and the subscription with it. The warning is
      the only sign, and _ = silences even that.
    ? A command-line tool's top-level code has awaited. On Linux, a main-actor handler checks
      Thread.isMainThread. What does it find?
    + false: ask MainActor.assumeIsolated instead
    - true: main-actor code runs on the main thread
    - true, but only for sets made on the main thread
    = Once top-level code has awaited, Linux runs the main actor's work on the main queue, but
      not on the main thread; ask the actor, or the queue, not the thread.
    ? A nonisolated function calls score.observe { … }, the spelling a @MainActor screen uses.
      What happens?
    + it does not compile: #isolation is nil there
    - it compiles, and the handler runs on the main actor
    - it compiles, and the handler runs on the setting thread
    = #isolation is nil outside an actor, and observe needs one: "'nil' is not compatible with
      expected argument type 'any Actor'". Call observeOnAnyThread there.
    ? A @MainActor test sets the value from another thread, then checks what a main-actor screen
      shows. How should it wait for the delivery?
    + await score.waitUntilDelivered(), then check
    - sleep 100 ms in an async task, then check
    - wait on a DispatchSemaphore the handler signals
    = waitUntilDelivered() suspends until every change set before the call has reached every
      observer it was set for. A sleep only makes the race rarer, and a semaphore waited on the
      main actor holds the very actor that would deliver.
    ?
    | let score = Observable(0)
    | let header = score.observeOnAnyThread { print("header \($0.newValue)") }
    | let log = score.observeOnAnyThread { print("log \($0.newValue)") }
    | score.value = 1
    | header.cancel()
    | score.value = 2
    | log.cancel()
    + header 1 / log 1 / log 2
    - header 1 / log 1 / header 2 / log 2
    - log 1 / header 1 / log 2
    = Subscription order, every time; once cancel() returns, no more calls.
    """#
}

/// One line of ``QuestionGroup/quiz``: its mark, and its text with the lines that go on with it.
private typealias Field = (mark: Character, text: String)

/// The fields of `quiz`, in order.
private func fields(of quiz: String) -> ArraySlice<Field> {
  var fields: ArraySlice<Field> = []
  for line in quiz.split(separator: "\n") {
    if line.hasPrefix("  ") {
      fields[fields.endIndex - 1].text += " " + line.drop { $0 == " " }
    } else {
      precondition("#?|+-=".contains(line.first!), "a line of the quiz with no mark: \(line)")
      fields.append((line.first!, String(line.dropFirst(2))))
    }
  }
  return fields
}

/// `fields` cut before each field marked `mark`.
private func runs(of fields: ArraySlice<Field>, startingAt mark: Character) -> [ArraySlice<Field>] {
  let starts = fields.indices.filter { fields[$0].mark == mark }
  return zip(starts, starts.dropFirst() + [fields.endIndex]).map { fields[$0..<$1] }
}

extension Question {
  fileprivate init(_ fields: ArraySlice<Field>) {
    func texts(_ mark: Character) -> [String] { fields.filter { $0.mark == mark }.map(\.text) }
    let prompt = texts("?")[0]
    let code = texts("|")
    self.init(
      prompt: prompt.isEmpty ? QuestionGroup.printsPrompt : prompt,
      code: code.isEmpty ? nil : code.joined(separator: "\n"), rightAnswer: texts("+")[0],
      wrongAnswers: texts("-"), explanation: texts("=")[0])
  }
}
