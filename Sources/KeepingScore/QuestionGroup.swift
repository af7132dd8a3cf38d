/// A question with three choices, one of them right, and why.
package struct Question: Sendable {
  /// The question asked.
  package var prompt: String
  /// The choices, shown as a), b) and c).
  package var choices: [String]
  /// The index in ``choices`` of the right answer.
  package var answer: Int
  /// Why the right answer is right, shown after every answer.
  package var explanation: String

  /// Creates a question.
  ///
  /// - Parameters:
  ///   - prompt: The question asked.
  ///   - choices: The choices, shown as a), b) and c).
  ///   - answer: The index in `choices` of the right answer.
  ///   - explanation: Why the right answer is right.
  package init(_ prompt: String, choices: [String], answer: Int, explanation: String) {
    self.prompt = prompt
    self.choices = choices
    self.answer = answer
    self.explanation = explanation
  }
}

/// A numbered group of questions, played as one game, as on the book's "Select Question Group"
/// screen: one group per chapter of the tutorial, a self-check for its reader.
package struct QuestionGroup: Sendable {
  /// The group's number: the chapter it checks.
  package var number: Int
  /// The group's title.
  package var title: String
  /// Its questions, asked in order.
  package var questions: [Question]

  /// Creates a group.
  ///
  /// - Parameters:
  ///   - number: The group's number: the chapter it checks.
  ///   - title: The group's title.
  ///   - questions: Its questions, asked in order.
  package init(number: Int, title: String, questions: [Question]) {
    self.number = number
    self.title = title
    self.questions = questions
  }

  /// The group numbered `number`, if there is one.
  ///
  /// - Parameter number: A chapter number.
  /// - Returns: The group, or `nil`.
  package static func numbered(_ number: Int) -> QuestionGroup? {
    all.first { $0.number == number }
  }

  /// The group numbers as the help, the errors and the prompt say them: "1 to 8".
  package static var numberRange: String {
    let numbers = all.map(\.number)
    return "\(numbers.min() ?? 0) to \(numbers.max() ?? 0)"
  }

  /// Every group, one per chapter 1 to 8, in order.
  package static let all: [QuestionGroup] = [
    QuestionGroup(
      number: 1, title: "Stone age: an array of closures",
      questions: [
        Question(
          "What does stage 1 have no way to do?",
          choices: ["call its observers", "remove an observer", "store a closure"], answer: 1,
          explanation:
            "bindObserver appends to an array, and nothing ever takes a closure out again."),
        Question(
          "A screen binds a closure that uses self, then is dismissed. What happens next?",
          choices: [
            "the closure is skipped", "the app crashes",
            "the screen stays alive and its closure keeps running",
          ], answer: 2,
          explanation:
            "The observable holds the closure and the closure holds the screen: nothing lets go."),
        Question(
          "In what order does stage 1 call its closures?",
          choices: ["the order they were bound", "no particular order", "newest first"],
          answer: 0,
          explanation: "An array keeps the order of insertion: delivery-order holds for stage 1."),
        Question(
          "One screen binds the same closure twice. How often is it called per change?",
          choices: ["once", "twice", "never"], answer: 1,
          explanation:
            "Stage 1 cannot tell two closures apart, so both are stored (same-observer-twice)."),
      ]),
    QuestionGroup(
      number: 2, title: "Iron age: closures keyed by string",
      questions: [
        Question(
          "What does keying closures by string add to stage 1?",
          choices: ["thread safety", "removal by key", "the initial value"], answer: 1,
          explanation: "removeObserver(forKey:) takes the closure filed under that key out."),
        Question(
          "Two screens bind under the key \"label\". Which is called on the next set?",
          choices: ["both", "only the first", "only the second"], answer: 2,
          explanation:
            "A dictionary holds one value per key: the second bind replaces the first."),
        Question(
          "Why does stage 2 fail delivery-order?",
          choices: [
            "a dictionary's order is not the order of insertion", "it calls the newest first",
            "it sorts its keys",
          ], answer: 0,
          explanation: "Iterating a dictionary visits its keys in an order of its own choosing."),
        Question(
          "A screen forgets to remove its key and is released. Is its closure still called?",
          choices: [
            "no, the key is removed for it", "yes: a key cannot tell whether its owner lives",
            "only if the closure captured self",
          ], answer: 1,
          explanation:
            "A string knows nothing of the object that chose it, so the entry stays and runs."),
      ]),
    QuestionGroup(
      number: 3, title: "Information age: observers held weakly",
      questions: [
        Question(
          "What does holding each observer weakly fix?",
          choices: [
            "a released observer's closure is skipped", "call order", "sharing across threads",
          ], answer: 0,
          explanation:
            "A weak reference becomes nil when its object goes, and the stage checks it first."),
        Question(
          "When does stage 3 clean out the entries of observers that are gone?",
          choices: ["on every set", "never", "when someone binds"], answer: 2,
          explanation:
            "Only bindObserver filters the list, so sets alone leave dead entries behind."),
        Question(
          "The entry is weak, but its closure captures the observer strongly. Is it freed?",
          choices: [
            "yes: weak wins", "no: the stored closure keeps it alive", "only after the next set",
          ], answer: 1,
          explanation:
            "The observable keeps the closure, and the closure keeps the observer: a rooted leak."
        ),
        Question(
          "What does [weak self] in a closure's capture list do?",
          choices: [
            "copies self", "makes the app crash if self goes",
            "lets the closure use self without keeping it alive",
          ], answer: 2,
          explanation:
            "The closure holds a weak reference, which becomes nil when self is freed."),
      ]),
    QuestionGroup(
      number: 4, title: "Option sets and automatic removal",
      questions: [
        Question(
          "What does the .initial option do?",
          choices: [
            "delivers the current value at once, when subscribing", "skips the first change",
            "delivers only the first change",
          ], answer: 0,
          explanation: "The observer sees the value as it is now, without waiting for a set."),
        Question(
          "With .old and .new, how does one set call an observer?",
          choices: [
            "once, with both values", "twice: every .old call comes before any .new call",
            "twice: new first, then old",
          ], answer: 1,
          explanation:
            "Unlike KVO, which puts both in one change, this design makes one call per option."),
        Question(
          "An observer removes another during a set. Is the removed one called for that set?",
          choices: [
            "no: removal is immediate", "yes: the set walks a snapshot taken before the first call",
            "only if it was added last",
          ], answer: 1,
          explanation:
            "Removing changes the list, not the copy the set is walking."),
        Question(
          "An observer sets the value inside its closure. What do the observers after it end on?",
          choices: [
            "the final value", "nothing", "a stale value: the nested set reached them first",
          ], answer: 2,
          explanation:
            "The nested set notifies everyone, then the outer loop hands them the older value."),
      ]),
    QuestionGroup(
      number: 5, title: "The concurrency age",
      questions: [
        Question(
          "What happens to a value set while a delivery is under way?",
          choices: [
            "it is delivered at once, depth first",
            "it is queued and delivered after the current one",
            "it is dropped",
          ], answer: 1,
          explanation: "One thread delivers at a time, breadth first: everyone ends on the latest."),
        Question(
          "Why must the lock never be held while a handler runs?",
          choices: [
            "it would be slower", "the compiler forbids it",
            "a handler that uses the observable would lock it again: a crash or a deadlock",
          ], answer: 2,
          explanation:
            "Mutex stops the program on a recursive lock; two locks taken in turn can deadlock."),
        Question(
          "Where does a handler written in a @MainActor type run?",
          choices: ["on the main actor", "on the thread that sets", "on a background thread"],
          answer: 0,
          explanation:
            "A closure that is not @Sendable takes the isolation of the code that writes it."),
        Question(
          "A value whose deinit reads the observable is replaced. When is it released?",
          choices: ["under the lock", "after the lock is let go", "never"], answer: 1,
          explanation:
            "Stage 5 hands everything it drops to the caller, who releases it with no lock held."),
        Question(
          "How does stage 5 let a handler use its owner without capturing it?",
          choices: [
            "it copies the owner", "it hands the owner to the handler as a parameter",
            "it captures the owner weakly for you",
          ], answer: 1,
          explanation:
            "The owner is held weakly and passed in, so the handler never needs to capture it."),
      ]),
    QuestionGroup(
      number: 6, title: "Comparing the stages",
      questions: [
        Question(
          "What does a ✗ in the comparison mean?",
          choices: [
            "the scenario crashed", "the stage has the flaw the scenario looks for",
            "the scenario does not apply",
          ], answer: 1,
          explanation: "Each ✗ comes with a line of evidence from the live experiment."),
        Question(
          "What does a – mean in a reference's column?",
          choices: [
            "a flaw", "not measured yet", "the scenario's idea does not exist in that API",
          ], answer: 2,
          explanation: "Its evidence says what the API does instead."),
        Question(
          "Why does the bench compare every design with the floor?",
          choices: [
            "the floor is the cheapest loop possible, so each ratio shows what a design adds",
            "the floor is the slowest design", "the floor is stage 1",
          ], answer: 0,
          explanation: "Nothing can beat the floor: every ratio to it is at least ×1.0."),
        Question(
          "Adding and removing ten times as many observers takes a hundred times as long. That is:",
          choices: ["linear growth", "quadratic growth", "constant time"], answer: 1,
          explanation: "×10 is linear, ×100 quadratic: O(n²), as stages 3 and 4 show."),
      ]),
    QuestionGroup(
      number: 7, title: "A small app: keeping score",
      questions: [
        Question(
          "Why does the question groups screen observe the scores with .initial?",
          choices: [
            "so it is called twice", "so it saves the scores",
            "so it shows the saved scores as soon as it opens",
          ], answer: 2,
          explanation: "The first call comes at once, with the scores loaded from the file."),
        Question(
          "The screen and the saver observe the same scores. What does each know of the other?",
          choices: ["nothing", "the saver calls the screen", "the screen owns the saver"],
          answer: 0,
          explanation: "That is the point of the pattern: the game only sets the value."),
        Question(
          "The input ends in the middle of a game. What is saved?",
          choices: ["a partial score", "nothing: the last complete scores stay", "zero"],
          answer: 1,
          explanation: "The game sets the scores only when it ends, so the saver never runs."),
        Question(
          "One group's entry in the save file is damaged. What does the app do?",
          choices: [
            "leaves that entry out, says so, and keeps the other groups' scores",
            "discards the whole file", "stops",
          ], answer: 0,
          explanation: "Each entry is checked on its own: a damaged one loses nothing else."),
      ]),
    QuestionGroup(
      number: 8, title: "Beyond the stages: what the platform offers",
      questions: [
        Question(
          "In what order does NotificationCenter call its observers, as measured on Linux?",
          choices: ["subscription order", "not in subscription order", "newest first"],
          answer: 1,
          explanation: "On 20 fresh centers of 16 observers, the order differed every time."),
        Question(
          "When does Observation's onChange run?",
          choices: [
            "after the write", "before the write: the property still holds the old value",
            "on another thread",
          ], answer: 1,
          explanation: "So the value read there is the one being replaced, not the new one."),
        Question(
          "What does Observations do with changes made before its consumer runs?",
          choices: [
            "queues every one", "drops them all", "coalesces them: the consumer gets the latest",
          ], answer: 2,
          explanation: "A label wants the latest; a log of every value loses some, silently."),
        Question(
          "Which of these makes a retain cycle in Combine?",
          choices: [
            "sink { self.… } stored in the same object's cancellables", "sink { [weak self] … }",
            "assign(to: &$property)",
          ], answer: 0,
          explanation:
            "The object keeps the cancellable, which keeps the closure, which keeps the object."),
      ]),
  ]
}
