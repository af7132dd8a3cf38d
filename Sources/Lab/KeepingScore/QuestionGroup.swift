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

  package init(
    _ prompt: String, code: String? = nil, right: String, wrong: [String], explanation: String
  ) {
    self.prompt = prompt
    self.code = code
    self.rightAnswer = right
    self.wrongAnswers = wrong
    self.explanation = explanation
  }

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

  package var number: Int { chapter.number }
  package var title: String { chapter.title }

  package static func numbered(_ number: Int) -> QuestionGroup? {
    all.first { $0.number == number }
  }

  /// The group numbers as the help, the errors and the prompt say them: "1 to 9".
  package static var numberRange: String {
    let numbers = all.map(\.number)
    return "\(numbers.min() ?? 0) to \(numbers.max() ?? 0)"
  }

  /// How a question about code asks: the choices list the printed lines joined by " / ".
  package static let printsPrompt = "What does this print (its lines joined by \" / \")?"

  /// Every group, one per chapter 1 to 9, in order.
  package static let all: [QuestionGroup] = [
    QuestionGroup(
      chapter: .closures,
      questions: [
        Question(
          "What does stage 1 have no way to do?", right: "remove an observer",
          wrong: [
            "call its observers in the order they were bound",
            "store a closure that captures the observable itself",
          ],
          explanation:
            "bindObserver appends to an array, and nothing ever takes a closure out again."),
        Question(
          "A screen binds a closure that uses self, then is dismissed. What happens next?",
          right: "the screen stays alive and its closure keeps running",
          wrong: [
            "the closure is skipped: the screen is gone",
            "the app crashes when the closure next runs",
          ],
          explanation:
            "The observable holds the closure and the closure holds the screen: nothing lets go."),
        Question(
          "In what order does stage 1 call its closures?", right: "the order they were bound",
          wrong: [
            "no particular order: an array does not promise one", "newest first, like a stack",
          ],
          explanation: "An array keeps the order of insertion: delivery-order holds for stage 1."),
        Question(
          "One screen binds the same closure twice. How often is it called per change?",
          right: "twice",
          wrong: ["once: the second bind is ignored", "never, until the first one is removed"],
          explanation:
            "Stage 1 cannot tell two closures apart, so both are stored (same-observer-twice)."),
        Question(
          printsPrompt,
          code: #"""
            let count = Observable(0)
            count.bindObserver { print("A \($0)") }
            count.bindObserver { print("B \($0)") }
            count.value = 1
            count.value = 2
            """#,
          right: "A 1 / B 1 / A 2 / B 2",
          wrong: ["A 2 / B 2", "A 0 / B 0 / A 1 / B 1 / A 2 / B 2"],
          explanation: "Binding calls nothing; each set calls every closure, in the order bound."),
      ]),
    QuestionGroup(
      chapter: .keyedDict,
      questions: [
        Question(
          "What does keying closures by string add to stage 1?", right: "removal by key",
          wrong: [
            "thread safety",
            "a call with the current value when binding",
          ],
          explanation: "removeObserver(forKey:) takes the closure filed under that key out."),
        Question(
          "Two screens bind under the key \"label\". Which is called on the next set?",
          right: "only the second",
          wrong: ["both, in the order they bound", "only the first: the second bind is ignored"],
          explanation:
            "A dictionary holds one value per key: the second bind replaces the first."),
        Question(
          "Why does stage 2 fail delivery-order?", right: "a dictionary keeps no insertion order",
          wrong: [
            "it sorts its keys before every set",
            "it calls the newest closure first",
          ],
          explanation: "Iterating a dictionary visits its keys in an order of its own choosing."),
        Question(
          "A screen forgets to remove its key and is released. Is its closure still called?",
          right: "yes: a key cannot tell whether its owner lives",
          wrong: [
            "no: releasing the screen removes its key",
            "only if the closure captured self strongly",
          ],
          explanation:
            "A string knows nothing of the object that chose it, so the entry stays and runs."),
        Question(
          printsPrompt,
          code: #"""
            let name = Observable("Ann")
            name.bindObserver(forKey: "label") { print("first \($0)") }
            name.bindObserver(forKey: "label") { print("second \($0)") }
            name.value = "Bob"
            """#,
          right: "second Bob", wrong: ["first Bob / second Bob", "first Bob"],
          explanation: "One closure per key: the second bind under \"label\" replaced the first."),
      ]),
    QuestionGroup(
      chapter: .weakRefs,
      questions: [
        Question(
          "What does holding each observer weakly fix?",
          right: "a released observer's closure is skipped",
          wrong: [
            "the order in which the closures are called",
            "sharing one observable safely across threads",
          ],
          explanation:
            "A weak reference becomes nil when its object goes, and the stage checks it first."),
        Question(
          "When does stage 3 clean out the entries of observers that are gone?",
          right: "when someone binds",
          wrong: ["on every set, before calling anyone", "never: dead entries stay forever"],
          explanation:
            "Only bindObserver filters the list, so sets alone leave dead entries behind."),
        Question(
          "The entry is weak, but its closure captures the observer strongly. Is it freed?",
          right: "no: the stored closure keeps it alive",
          wrong: ["yes: the weak entry wins", "yes, but only after the next set"],
          explanation:
            "The observable keeps the closure, and the closure keeps the observer: a rooted leak."
        ),
        Question(
          "What does [weak self] in a closure's capture list do?",
          right: "lets the closure use self without keeping it alive",
          wrong: [
            "copies self into the closure",
            "makes the app crash if self is gone when it runs",
          ],
          explanation:
            "The closure holds a weak reference, which becomes nil when self is freed."),
        Question(
          printsPrompt,
          code: #"""
            final class Screen {}
            let screen = Screen()
            let count = Observable(0)
            count.bindObserver(screen) { print("first \($0)") }
            count.bindObserver(screen) { print("second \($0)") }
            count.value = 1
            withExtendedLifetime(screen) {}
            """#,
          right: "first 1 / second 1", wrong: ["first 1", "second 1 / first 1"],
          explanation: "Each bind stores an entry, even for the same observer; both run, in order."
        ),
        Question(
          "Stage 3 binds closures A, B and C in that order; A sets the value to 2 when it sees "
            + "1. The value is set to 1. What does B receive?",
          right: "2, twice",
          wrong: ["1, then 2", "2, then 1"],
          explanation:
            "Each closure reads the value at its turn; A's nested set made it 2 before B's turn, "
            + "and B is called again when the first round resumes."),
      ]),
    QuestionGroup(
      chapter: .options,
      questions: [
        Question(
          "What does the .initial option do?",
          right: "delivers the current value at once, when subscribing",
          wrong: [
            "skips the first change, delivers the rest",
            "delivers only the first change, then stops",
          ],
          explanation: "The observer sees the value as it is now, without waiting for a set."),
        Question(
          "With .old and .new, how does one set call an observer?",
          right: "twice: every .old call comes before any .new call",
          wrong: [
            "once, with old and new in one change, like KVO",
            "twice: the new value first, then the old one",
          ],
          explanation:
            "Unlike KVO, which puts both in one change, this design makes one call per option."),
        Question(
          "An observer removes another during a set. Is the removed one called for that set?",
          right: "yes: the set walks a snapshot taken before the first call",
          wrong: [
            "no: removal takes effect at once, even during a set",
            "only if it was added after the one that removes it",
          ],
          explanation:
            "Removing changes the list, not the copy the set is walking."),
        Question(
          "An observer sets the value inside its closure. What do the observers after it end on?",
          right: "a stale value: the nested set reached them first",
          wrong: [
            "the final value, because the nested set runs last",
            "nothing: a nested set is ignored while notifying",
          ],
          explanation:
            "The nested set notifies everyone, then the outer loop hands them the older value."),
        Question(
          printsPrompt,
          code: #"""
            final class Label {}
            let label = Label()
            let count = Observable(1)
            count.addObserver(label, options: [.initial, .new]) { value, option in
              print(option == .initial ? "initial \(value)" : "new \(value)")
            }
            count.value = 2
            withExtendedLifetime(label) {}
            """#,
          right: "initial 1 / new 2", wrong: ["new 2", "initial 2 / new 2"],
          explanation: ".initial calls at once, with the value as it is; .new after each set."),
      ]),
    QuestionGroup(
      chapter: .concurrency,
      questions: [
        Question(
          "What happens to a value set while a delivery is under way?",
          right: "it is queued and delivered after the current one",
          wrong: ["it is delivered at once, depth first, inside the current one", "it is dropped"],
          explanation: "One thread delivers at a time, breadth first: everyone ends on the latest."),
        Question(
          "Why must the lock never be held while a handler runs?",
          right: "a handler that sets the value would take it again",
          wrong: [
            "holding it would make each delivery a little slower",
            "the compiler rejects code that calls out under a lock",
          ],
          explanation:
            "Mutex stops the program on a recursive lock; two locks taken in turn can deadlock."),
        Question(
          "Where does a handler written in a @MainActor type run?", right: "on the main actor",
          wrong: [
            "on any thread", "on a background thread the observable owns",
          ],
          explanation:
            "A closure that is not @Sendable takes the isolation of the code that writes it."),
        Question(
          "A value whose deinit reads the observable is replaced. When is it released?",
          right: "after the lock is let go",
          wrong: [
            "under the lock",
            "never: the observable keeps every old value",
          ],
          explanation:
            "Stage 5 hands everything it drops to the caller, who releases it with no lock held."),
        Question(
          "How does stage 5 let a handler use its owner without capturing it?",
          right: "it hands the owner to the handler as a parameter",
          wrong: [
            "it copies the owner into the handler when subscribing",
            "it captures the owner weakly on the handler's behalf",
          ],
          explanation:
            "The owner is held weakly and passed in, so the handler never needs to capture it."),
        Question(
          printsPrompt,
          code: #"""
            let count = Observable(0)
            let first = count.observeOnAnyThread { change in
              print("A \(change.newValue)")
              if change.newValue == 1 { count.value = 2 }
            }
            let second = count.observeOnAnyThread { print("B \($0.newValue)") }
            count.value = 1
            first.cancel()
            second.cancel()
            """#,
          right: "A 1 / B 1 / A 2 / B 2", wrong: ["A 1 / A 2 / B 2 / B 1", "A 1 / B 1"],
          explanation: "The nested set waits until everyone has seen 1: breadth first."),
        Question(
          "Which of these is Sendable without a lock?", right: "a @MainActor class",
          wrong: [
            "a final class with a var property", "any class whose methods are all private",
          ],
          explanation:
            "Only code on the main actor may touch a @MainActor class, so no two threads ever do."
        ),
        Question(
          "A thread sets the value; a main-actor handler's turn comes. What happens?",
          right: "the rest of the delivery moves to the main actor, and the setter returns",
          wrong: [
            "the setter waits until the main actor has called the handler",
            "the main-actor handler is called on the setting thread",
          ],
          explanation:
            "The turn moves in one Task: handlers after it run there too, never two at a time."),
      ]),
    QuestionGroup(
      chapter: .comparing,
      questions: [
        Question(
          "What does a ✗ in the comparison mean?",
          right: "the stage has the flaw the scenario looks for",
          wrong: [
            "the scenario crashed before its verdict",
            "the scenario does not apply to that stage",
          ],
          explanation: "Each ✗ comes with a line of evidence from the live experiment."),
        Question(
          "What does a – mean in a reference's column?",
          right: "the scenario's idea does not exist in that API",
          wrong: ["a flaw", "the reference has the flaw, but only on some platforms"],
          explanation: "Its evidence says what the API does instead."),
        Question(
          "Why does the bench compare every design with the floor?",
          right: "the floor is the cheapest loop possible, so each ratio shows what a design adds",
          wrong: [
            "the floor is the slowest design, so every ratio is below ×1.0",
            "the floor is stage 1, which every later stage improves upon",
          ],
          explanation: "Nothing can beat the floor: every ratio to it is at least ×1.0."),
        Question(
          "Adding and removing ten times as many observers takes a hundred times as long. That is:",
          right: "quadratic growth",
          wrong: ["linear growth", "constant time per observer, plus a fixed setup cost"],
          explanation: "×10 is linear, ×100 quadratic: O(n²), as stages 3 and 4 show."),
        Question(
          printsPrompt,
          code: #"""
            let one = Stage1Closures.Observable(0)
            let two = Stage2KeyedDict.Observable(0)
            for _ in 1...2 {
              one.bindObserver { _ in }
              two.bindObserver(forKey: "label") { _ in }
            }
            print("\(one.observerCount) \(two.observerCount)")
            """#,
          right: "2 1", wrong: ["1 1", "2 2"],
          explanation:
            "Stage 1 keeps both closures; stage 2 keeps one per key (same-observer-twice)."
        ),
      ]),
    QuestionGroup(
      chapter: .keepingScore,
      questions: [
        Question(
          "Why does the question groups screen observe the scores with .initial?",
          right: "so it shows the saved scores as soon as it opens",
          wrong: [
            "so it is called twice for every game that ends",
            "so that it, and not the saver, writes the scores to the file",
          ],
          explanation: "The first call comes at once, with the scores loaded from the file."),
        Question(
          "The screen and the saver observe the same scores. What does each know of the other?",
          right: "nothing",
          wrong: [
            "the saver calls the screen after each save", "the screen owns the saver and starts it",
          ],
          explanation: "That is the point of the pattern: the game only sets the value."),
        Question(
          "The input ends in the middle of a game. What is saved?",
          right: "nothing: the last complete scores stay",
          wrong: [
            "a partial score, counting the questions answered", "a score of zero for that group",
          ],
          explanation: "The game sets the scores only when it ends, so the saver never runs."),
        Question(
          "A game ends on a background thread and sets the scores. Where does stage 4 run the "
            + "screen's handler?",
          right: "on the background thread that set them",
          wrong: ["on the main thread, wherever they were set", "on a thread of its own"],
          explanation:
            "Stage 4 calls each handler on the setter's thread: exercise 10 moves it to the main "
            + "actor."),
        Question(
          printsPrompt,
          code: #"""
            let scores = Observable(Scores([7: Score(correct: 3, total: 4)]))
            let screen = QuestionGroupsScreen(
              groups: [QuestionGroup.numbered(7)!], observing: scores)
            print(screen.scoreLabels[7]!)
            scores.value = Scores([7: Score(correct: 4, total: 4)])
            print(screen.scoreLabels[7]!)
            """#,
          right: "latest score 3 of 4 / latest score 4 of 4",
          wrong: [
            "no score yet / latest score 4 of 4", "latest score 3 of 4 / latest score 3 of 4",
          ],
          explanation: "With .initial, the screen shows the saved score at once, then each new one."
        ),
      ]),
    QuestionGroup(
      chapter: .beyondTheStages,
      questions: [
        Question(
          "In what order does NotificationCenter call its observers, as measured on Linux?",
          right: "not in subscription order",
          wrong: ["subscription order, first added first", "newest first"],
          explanation: "On 20 fresh centers of 16 observers, the order differed every time."),
        Question(
          "When does Observation's onChange run?",
          right: "before the write, while the old value is still there",
          wrong: [
            "after the write, once the value is stored",
            "on another thread, after the write",
          ],
          explanation: "So the value read there is the one being replaced, not the new one."),
        Question(
          "What does Observations do with changes made before its consumer runs?",
          right: "coalesces them: the consumer gets the latest",
          wrong: [
            "queues every one, delivers each in order",
            "drops them all, and waits for the next one",
          ],
          explanation: "A label wants the latest; a log of every value loses some, silently."),
        Question(
          "Which of these makes a retain cycle in Combine?",
          right: "sink { self.… } stored in the same object's cancellables",
          wrong: [
            "sink { [weak self] … } stored in the object's cancellables",
            "assign(to: &$property), which Combine ties to the property",
          ],
          explanation:
            "The object keeps the cancellable, which keeps the closure, which keeps the object."),
        Question(
          printsPrompt,
          code: #"""
            let center = NotificationCenter()
            let name = Notification.Name("score")
            let token = center.addObserver(forName: name, object: nil, queue: nil) { note in
              print(note.userInfo?["points"] ?? "none")
            }
            center.post(name: name, object: nil, userInfo: ["points": 3])
            center.removeObserver(token)
            center.post(name: name, object: nil, userInfo: ["points": 4])
            """#,
          right: "3", wrong: ["3 / 4", "none"],
          explanation: "Once removeObserver(_:) has returned, the center calls the block no more."),
      ]),
    QuestionGroup(
      chapter: .inYourApp,
      questions: [
        Question(
          "Which of these needs iOS 26 or macOS 26?",
          right: "Observations",
          wrong: ["the @Observable macro", "Combine's @Published"],
          explanation: "@Observable needs iOS 17 and macOS 14; Combine, iOS 13 and macOS 10.15."),
        Question(
          "How many consumers does one AsyncStream serve?",
          right: "one; make a stream per observer",
          wrong: ["every task iterating it, each value", "two, the second one buffered"],
          explanation: "Each value goes to one waiting iteration: a stream is not a broadcast."),
        Question(
          "How does a leak test know that a released screen was freed?",
          right: "a weak reference to it is nil, and its deinit ran",
          wrong: [
            "it sleeps a second, then reads the process's memory",
            "the compiler warns when a closure captures self",
          ],
          explanation: "Real objects, a weak reference and a deinit counter: no sleeps, no timing."),
        Question(
          "A @MainActor screen calls stage 5's observe(_:options:isolation:_:). Where does the "
            + "handler run?",
          right: "on the main actor, whichever thread sets the value",
          wrong: ["on the thread that set the value", "on a background queue stage 5 owns"],
          explanation:
            "The handler is isolated to the caller's actor: a delivery moves there when needed."),
        Question(
          printsPrompt,
          code: #"""
            let score = Observable(0)
            let header = score.observeOnAnyThread { print("header \($0.newValue)") }
            let log = score.observeOnAnyThread { print("log \($0.newValue)") }
            score.value = 1
            header.cancel()
            score.value = 2
            log.cancel()
            """#,
          right: "header 1 / log 1 / log 2",
          wrong: ["header 1 / log 1 / header 2 / log 2", "log 1 / header 1 / log 2"],
          explanation: "Subscription order, every time; once cancel() returns, no more calls."),
      ]),
  ]
}
