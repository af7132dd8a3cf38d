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

  /// The group numbers as the help, the errors and the prompt say them: "1 to 9 or 5c", the
  /// whole numbers as a range, then the chapters that go on from one.
  package static var numberRange: String {
    let whole = all.map(\.number).filter { $0.part.isEmpty }.map(\.chapter)
    let lettered = all.map(\.number).filter { !$0.part.isEmpty }.map(\.description)
    return "\(whole.min() ?? 0) to \(whole.max() ?? 0)"
      + (lettered.isEmpty ? "" : " or " + lettered.joined(separator: ", "))
  }

  /// How a question about code asks: the choices list the printed lines joined by " / ".
  package static let printsPrompt = "What does this print (its lines joined by \" / \")?"

  /// Every group, one per chapter 1 to 9 and 5c, in reading order, as ``quiz`` writes them.
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
    ? What does stage 1 have no way to do?
    + remove an observer
    - call its observers in the order they were bound
    - store a closure that captures the observable itself
    = bindObserver appends to an array, and nothing ever takes a closure out again.
    ? A screen binds a closure that uses self, then is dismissed. What happens next?
    + the screen stays alive and its closure keeps running
    - the closure is skipped: the screen is gone
    - the app crashes when the closure next runs
    = The observable holds the closure and the closure holds the screen: nothing lets go.
    ? In what order does stage 1 call its closures?
    + the order they were bound
    - no particular order: an array does not promise one
    - newest first, like a stack
    = An array keeps the order of insertion: delivery-order holds for stage 1.
    ? One screen binds the same closure twice. How often is it called per change?
    + twice
    - once: the second bind is ignored
    - never, until the first one is removed
    = Stage 1 cannot tell two closures apart, so both are stored (same-observer-twice).
    ?
    | let count = Observable(0)
    | count.bindObserver { print("A \($0)") }
    | count.bindObserver { print("B \($0)") }
    | count.value = 1
    | count.value = 2
    + A 1 / B 1 / A 2 / B 2
    - A 2 / B 2
    - A 0 / B 0 / A 1 / B 1 / A 2 / B 2
    = Binding calls nothing; each set calls every closure, in the order bound.

    # 2
    ? What does keying closures by string add to stage 1?
    + removal by key
    - thread safety
    - a call with the current value when binding
    = removeObserver(forKey:) takes the closure filed under that key out.
    ? Two screens bind under the key "label". Which is called on the next set?
    + only the second
    - both, in the order they bound
    - only the first: the second bind is ignored
    = A dictionary holds one value per key: the second bind replaces the first.
    ? Why does stage 2 fail delivery-order?
    + a dictionary keeps no insertion order
    - it sorts its keys before every set
    - it calls the newest closure first
    = Iterating a dictionary visits its keys in an order of its own choosing.
    ? A screen forgets to remove its key and is released. Is its closure still called?
    + yes: a key cannot tell whether its owner lives
    - no: releasing the screen removes its key
    - only if the closure captured self strongly
    = A string knows nothing of the object that chose it, so the entry stays and runs.
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
    + a released observer's closure is skipped
    - the order in which the closures are called
    - sharing one observable safely across threads
    = A weak reference becomes nil when its object goes, and the stage checks it first.
    ? When does stage 3 clean out the entries of observers that are gone?
    + when someone binds
    - on every set, before calling anyone
    - never: dead entries stay forever
    = Only bindObserver filters the list, so sets alone leave dead entries behind.
    ? The entry is weak, but its closure captures the observer strongly. Is it freed?
    + no: the stored closure keeps it alive
    - yes: the weak entry wins
    - yes, but only after the next set
    = The observable keeps the closure, and the closure keeps the observer: a rooted leak.
    ? What does [weak self] in a closure's capture list do?
    + lets the closure use self without keeping it alive
    - copies self into the closure
    - makes the app crash if self is gone when it runs
    = The closure holds a weak reference, which becomes nil when self is freed.
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
    - second 1 / first 1
    = Each bind stores an entry, even for the same observer; both run, in order.
    ? Stage 3 binds closures A, B and C in that order; A sets the value to 2 when it sees 1. The
      value is set to 1. What does B receive?
    + 2, twice
    - 1, then 2
    - 2, then 1
    = Each closure reads the value at its turn; A's nested set made it 2 before B's turn, and B is
      called again when the first round resumes.

    # 4
    ? What does the .initial option do?
    + delivers the current value at once, when subscribing
    - skips the first change, delivers the rest
    - delivers only the first change, then stops
    = The observer sees the value as it is now, without waiting for a set.
    ? With .old and .new, how does one set call an observer?
    + twice: every .old call comes before any .new call
    - once, with old and new in one change, like KVO
    - twice: the new value first, then the old one
    = Unlike KVO, which puts both in one change, this design makes one call per option.
    ? An observer removes another during a set. Is the removed one called for that set?
    + yes: the set walks a snapshot taken before the first call
    - no: removal takes effect at once, even during a set
    - only if it was added after the one that removes it
    = Removing changes the list, not the copy the set is walking.
    ? An observer sets the value inside its closure. What do the observers after it end on?
    + a stale value: the nested set reached them first
    - the final value, because the nested set runs last
    - nothing: a nested set is ignored while notifying
    = The nested set notifies everyone, then the outer loop hands them the older value.
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
    + it is queued and delivered after the current one
    - it is delivered at once, depth first, inside the current one
    - it is dropped, since a handler set it
    = Step 1's queue: everyone sees the current value, then the one set meanwhile.
    ? Why must the lock never be held while a handler runs?
    + a handler that reads the value would take it again
    - holding it would make each delivery a little slower
    - the compiler rejects code that calls out under a lock
    = Mutex stops the program on a recursive lock; two locks taken in turn can deadlock.
    ? Which of these is Sendable without a lock?
    + a @MainActor class
    - a final class with a var property
    - any class whose methods are all private
    = Only code on the main actor may touch a @MainActor class, so no two threads ever do.
    ? A SharedObservable's old value has a deinit that reads the observable. When does it run?
    + after the lock is let go
    - under the lock, inside set
    - never: the observable keeps old values
    = The old value leaves the lock with the setter, which releases it with no lock held.
    ? How does step 1 let a handler use its owner without capturing it?
    + it hands the owner to the handler as a parameter
    - it copies the owner into the handler when subscribing
    - it keeps the owner alive until the handler is cancelled
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
    - A 1 / B 1
    = The nested set waits until everyone has seen 1: breadth first.
    ? A thread sets a SharedObservable while another thread delivers. What does the setter do?
    + it waits for its turn, then delivers its own value
    - it returns at once; the other thread delivers its value
    - it calls the handlers at once, beside the other thread
    = One thread at a time has the turn, and no thread is kept delivering for others.
    ? On which thread does a handler of a SharedObservable run?
    + the thread that delivers the value
    - always the main thread
    - a background thread the observable starts
    = There is no actor and no task: whoever has the turn calls the handlers.

    # 5c
    ? Where does stage 5's observe run a handler written in a @MainActor type?
    + on the main actor
    - on the thread that set the value
    - on a background thread the observable owns
    = A closure that is not @Sendable takes the isolation of the code that writes it.
    ? What does isolation: isolated any Actor = #isolation give observe?
    + the caller's actor, where the handler runs
    - a new actor for each subscription
    - the main actor, whoever calls it
    = #isolation is filled in where observe is called: the caller's actor.
    ? A thread sets the value; a main-actor handler's turn comes. What happens?
    + the rest of the delivery moves to the main actor, and the setter returns
    - the setter waits until the main actor has called the handler
    - the main-actor handler is called on the setting thread
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
    - the scenario crashed before its verdict
    - the scenario does not apply to that stage
    = Each ✗ comes with a line of evidence from the live experiment.
    ? What does a – mean in a reference's column?
    + the scenario's idea does not exist in that API
    - a flaw
    - the reference has the flaw, but only on some platforms
    = Its evidence says what the API does instead.
    ? Why does the bench compare every design with the floor?
    + the floor is the cheapest loop possible, so each ratio shows what a design adds
    - the floor is the slowest design, so every ratio is below ×1.0
    - the floor is stage 1, which every later stage improves upon
    = Nothing can beat the floor: every ratio to it is at least ×1.0.
    ? Adding and removing ten times as many observers takes a hundred times as long. That is:
    + quadratic growth
    - linear growth
    - constant time per observer, plus a fixed setup cost
    = ×10 is linear, ×100 quadratic: O(n²), as stages 3 and 4 show.
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
    - so it is called twice for every game that ends
    - so that it, and not the saver, writes the scores to the file
    = The first call comes at once, with the scores loaded from the file.
    ? The screen and the saver observe the same scores. What does each know of the other?
    + nothing
    - the saver calls the screen after each save
    - the screen owns the saver and starts it
    = That is the point of the pattern: the game only sets the value.
    ? The input ends in the middle of a game. What is saved?
    + nothing: the last complete scores stay
    - a partial score, counting the questions answered
    - a score of zero for that group
    = The game sets the scores only when it ends, so the saver never runs.
    ? A game ends on a background thread and sets the scores. Where does stage 4 run the screen's
      handler?
    + on the background thread that set them
    - on the main thread, wherever they were set
    - on a thread of its own
    = Stage 4 calls each handler on the setter's thread: exercise 10 moves it to the main actor.
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
    + not in subscription order
    - subscription order, first added first
    - newest first
    = On 20 fresh centers of 16 observers, the order differed every time.
    ? When does Observation's onChange run?
    + before the write, while the old value is still there
    - after the write, once the value is stored
    - on another thread, after the write
    = So the value read there is the one being replaced, not the new one.
    ? What does Observations do with changes made before its consumer runs?
    + coalesces them: the consumer gets the latest
    - queues every one, delivers each in order
    - drops them all, and waits for the next one
    = A label wants the latest; a log of every value loses some, silently.
    ? Which of these makes a retain cycle in Combine?
    + sink { self.… } stored in the same object's cancellables
    - sink { [weak self] … } stored in the object's cancellables
    - assign(to: &$property), which Combine ties to the property
    = The object keeps the cancellable, which keeps the closure, which keeps the object.
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
    - Combine's @Published
    = @Observable needs iOS 17 and macOS 14; Combine, iOS 13 and macOS 10.15.
    ? How many consumers does one AsyncStream serve?
    + one; make a stream per observer
    - every task iterating it, each value
    - two, the second one buffered
    = Each value goes to one waiting iteration: a stream is not a broadcast.
    ? How does a leak test know that a released screen was freed?
    + a weak reference to it is nil, and its deinit ran
    - it sleeps a second, then reads the process's memory
    - the compiler warns when a closure captures self
    = Real objects, a weak reference and a deinit counter: no sleeps, no timing.
    ? A @MainActor screen calls stage 5's observe(_:options:isolation:_:). Where does the handler
      run?
    + on the main actor, whichever thread sets the value
    - on the thread that set the value
    - on a background queue stage 5 owns
    = The handler is isolated to the caller's actor: a delivery moves there when needed.
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
