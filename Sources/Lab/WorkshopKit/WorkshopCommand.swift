import CommandSupport
import Foundation
import ObserverScenarios
import Support

/// `swift run workshop`: grades the learner's exercises with the scenarios.
package enum WorkshopCommand {
  /// What the command was asked to do.
  package enum Request: Equatable, Sendable {
    /// Show every exercise, solved or not, and the progress.
    case list
    case grade(Int)
    /// Print the next hint of one exercise.
    case hint(Int)
    /// Forget the hints shown, of one exercise or of all.
    case resetHints(Int?)
    /// Regrade, one exercise or all, whenever a file under `Exercises/` changes.
    case watch(Int?)
    case help

    /// Whether it grades exercises, which needs the package's `Exercises/`: listing, grading
    /// and watching do; hints and help do not.
    package var grades: Bool {
      switch self {
      case .list, .grade, .watch: true
      case .hint, .resetHints, .help: false
      }
    }
  }

  package enum Format: String, CaseIterable, Sendable {
    /// For people.
    case text
    /// For programs.
    case json
  }

  /// A parsed command line.
  package struct Invocation: Equatable, Sendable {
    package var request: Request
    package var format: Format = .text
    /// Whether an unsolved exercise among those graded fails the run.
    package var strict = false
    /// The seed the generated programs are drawn from (`--seed`); the default one when `nil`.
    package var seed: UInt64?
  }

  /// What the options given so far ask for.
  package struct Options: Sendable {
    var format: Format?
    var strict = false
    var watch = false
    var reset = false
    var seed: UInt64?
  }

  private static var numbers: String {
    Exercise.all.map { String($0.number) }.joined(separator: ", ")
  }

  private static var formats: String { Format.allCases.map(\.rawValue).joined(separator: ", ") }

  /// The exercise numbered `word`, if a word is given.
  private static func exercise(_ word: String?) throws(UsageError) -> Int? {
    guard let word else { return nil }
    guard let number = Int(word), Exercise.numbered(number) != nil else {
      if word.isEmpty { throw UsageError(message: "an empty argument (valid: \(numbers))") }
      throw UsageError(message: "no exercise '\(word)' (valid: \(numbers))")
    }
    return number
  }

  /// The command line of `workshop`: its options and its two words, each written once; the
  /// parser and `--help` are made from it.
  package static let syntax = CommandSyntax<Options, Invocation>(
    command: "workshop",
    options: [
      .value("--format", "format", valid: formats, help: "text (the default) or json") {
        options, name throws(UsageError) in
        guard let parsed = Format(rawValue: name) else {
          throw UsageError(message: "unknown format '\(name)' (valid: \(formats))")
        }
        guard options.format == nil else {
          throw UsageError(message: "--format given more than once")
        }
        options.format = parsed
      },
      .value(
        "--seed", "seed", valid: "a whole number from 0",
        help: "draw the generated programs from this seed: replays a counterexample"
      ) { options, word throws(UsageError) in
        guard let seed = UInt64(word) else {
          throw UsageError(message: "--seed takes a whole number from 0, not '\(word)'")
        }
        options.seed = seed
      },
      .flag("--strict", help: "exit 1 when an exercise graded is not yet solved") { options in
        options.strict = true
      },
      .flag("--watch", help: "rebuild and regrade on every change under Exercises/; Ctrl-C stops") {
        options in options.watch = true
      },
      .flag("--reset", help: "start the hints again from the first") { options in
        options.reset = true
      },
      .flag("--help", alias: "-h", help: "print this help") { _ in },
    ],
    words: [
      CommandWord(
        "grade", argument: ("number", { numbers }), argumentIsOptional: true,
        options: ["--format", "--strict", "--watch", "--seed"],
        help: "grade every exercise, or the one numbered: each scenario it aims at and keeps, "
          + "with the evidence; the word may be left out"
      ) { word, options throws(UsageError) in
        let number = try exercise(word)
        if options.watch, options.format == .json {
          throw UsageError(message: "--watch prints text only (valid: --format text)")
        }
        if options.watch, options.seed != nil {
          throw UsageError(message: "--seed replays one grading: give it without --watch")
        }
        let request: Request =
          options.watch ? .watch(number) : number.map { .grade($0) } ?? .list
        return Invocation(
          request: request, format: options.format ?? .text, strict: options.strict,
          seed: options.seed)
      },
      CommandWord(
        "hint", argument: ("number", { numbers }), argumentIsOptional: true,
        options: ["--reset"],
        help: "the next hint for the exercise numbered; with --reset, forget the hints shown, "
          + "of that exercise or of all"
      ) { word, options throws(UsageError) in
        let number = try exercise(word)
        if options.reset { return Invocation(request: .resetHints(number)) }
        guard let number else {
          throw UsageError(message: "hint needs an exercise number (valid: \(numbers))")
        }
        return Invocation(request: .hint(number))
      },
    ],
    initial: Options())

  /// Parses the arguments, without the program name, as ``syntax`` says.
  package static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    switch try syntax.parse(arguments) {
    case .help, .version: Invocation(request: .help)
    case .run(let invocation): invocation
    }
  }

  /// Runs the command on `code`, by exercise number (the solutions in the tests; a grading
  /// child's own exercise), the hints remembered in `hints` (the config folder by default);
  /// `watch` runs `--watch`, the real one rebuilding and regrading until interrupted.
  package static func run(
    _ arguments: [String], io: CommandIO, code: [Int: ExerciseCode],
    hints: HintStore? = nil, grading: Grading = .inProcess,
    watch: (Int?, CommandIO) -> ExitCode = Watcher.run
  ) -> ExitCode {
    // A grading child, started by the isolated grading below: `--grade-in-child N names…`.
    if arguments.count >= 2, arguments[0] == IsolatedGrading.childFlag,
      let exerciseCode = Int(arguments[1]).flatMap({ code[$0] })
    {
      let criteria = arguments.dropFirst(2).compactMap(Criterion.init(name:))
      let seed = io.environment[GeneratedPrograms.seedVariable].flatMap { UInt64($0) }
      let only = io.environment[GeneratedPrograms.onlyVariable].flatMap { Int($0) }
      let shrink = io.environment[GeneratedPrograms.crashShrinkVariable].flatMap {
        GeneratedPrograms.CrashShrink(text: $0)
      }
      let childIO = IsolatedGrading.childIO(io)
      let write = childIO.write
      GeneratedPrograms.$seed.withValue(seed) {
        GeneratedPrograms.$only.withValue(only) {
          GeneratedPrograms.$crashShrink.withValue(shrink) {
            GeneratedPrograms.$report.withValue({ write($0 + "\n") }) {
              IsolatedGrading.report(criteria, on: exerciseCode, io: childIO)
            }
          }
        }
      }
      return .success
    }
    guard let invocation = io.parseReportingUsage(try parse(arguments)) else { return .usage }
    if invocation.request.grades, let reason = grading.unavailableReason {
      return io.usageError("workshop", reason)
    }
    let store = hints ?? .inConfigFolder(environment: io.environment)
    switch invocation.request {
    case .help:
      io.write(help)
      return .success
    case .hint(let number):
      return hint(number, io: io, store: store)
    case .resetHints(let number):
      return resetHints(number, io: io, store: store)
    case .watch(let number):
      return watch(number, io)
    case .list, .grade:
      var exercises = Exercise.all
      if case .grade(let number) = invocation.request {
        exercises = exercises.filter { $0.number == number }
      }
      let grades = GeneratedPrograms.$seed.withValue(invocation.seed) {
        exercises.compactMap { grade($0, code: code, grading: grading, io: io) }
      }
      if grading.isInChildren, showsProgress(io) { io.writeError("\r\u{1B}[K") }
      switch (invocation.format, invocation.request) {
      case (.json, _): io.write(json(grades))
      case (.text, .grade): io.write(grades.map(text(of:)).joined(separator: "\n"))
      default: io.write(progress(grades))
      }
      return invocation.strict && !grades.allSatisfy(\.isSolved) ? .failure : .success
    }
  }

  /// Whether to show the progress line: both output streams are a terminal, so that it never
  /// lands in a file or a pipe.
  private static func showsProgress(_ io: CommandIO) -> Bool {
    io.isTerminal && isatty(STDERR_FILENO) == 1
  }

  /// Grades `exercise` as `grading` says; `nil` when there is no code to grade in this process.
  private static func grade(
    _ exercise: Exercise, code: [Int: ExerciseCode], grading: Grading, io: CommandIO
  ) -> ExerciseGrade? {
    // One line on standard error, rewritten as each step starts, erased at the end.
    func progress(_ step: String) {
      if showsProgress(io) {
        io.writeError("\r\u{1B}[K  exercise \(exercise.number): \(step)…")
      }
    }
    switch grading {
    case .inProcess:
      return code[exercise.number].map { ExerciseGrade(exercise, code: $0) }
    case .unavailable:
      return nil
    case .isolated(let command, let limits):
      guard code[exercise.number] != nil else { return nil }
      return IsolatedGrading.grade(
        exercise, command: command, limits: limits, seed: GeneratedPrograms.seed
      ) { progress($0.name) }
    case .compiled(let builder, let limits):
      progress(
        builder.hasBuilt
          ? "building"
          : "building, with the workshop's own code this first time")
      switch builder.build(exercise) {
      case .errors(let errors):
        return ExerciseGrade(exercise, buildErrors: errors)
      case .child(let child):
        return IsolatedGrading.grade(
          exercise, command: [child], limits: limits, seed: GeneratedPrograms.seed
        ) { progress($0.name) }
      }
    }
  }

  // MARK: - Text

  /// The list of every exercise with its state, and the progress line.
  package static func progress(_ grades: [ExerciseGrade]) -> String {
    var lines = [
      "The workshop: fix each stage's flaw yourself; the scenarios grade your code live.", "",
    ]
    let titleWidth = grades.map(\.exercise.title.count).max() ?? 0
    for grade in grades {
      let exercise = grade.exercise
      lines.append(
        "  \(grade.isSolved ? "✓" : "✗")  \(String(exercise.number).padded(to: 2)) "
          + exercise.title.padded(to: titleWidth) + "  after chapter \(exercise.chapter.number)")
    }
    let solved = grades.count { $0.isSolved }
    lines.append("")
    lines.append("\(solved) of \(grades.count) solved.")
    if let next = grades.first(where: { !$0.isSolved })?.exercise {
      lines.append("Next: edit \(next.folder)/, then grade it: swift run workshop \(next.number)")
    } else {
      lines.append("Every exercise is solved. Compare yours with Exercises/Solutions/.")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// One exercise: its task, each aimed and kept scenario with its verdict and evidence, and
  /// what to do next.
  package static func text(of grade: ExerciseGrade) -> String {
    let exercise = grade.exercise
    var lines = [
      "Exercise \(exercise.number): \(exercise.title)",
      "After chapter \(exercise.chapter.number); starts from \(exercise.startsFrom). "
        + "Edit the files in \(exercise.folder)/.",
      "",
    ]
    lines += wrap(exercise.task, firstPrefix: "", prefix: "")
    if let errors = grade.buildErrors {
      lines += ["", "Does not compile, so nothing was graded:"]
      lines += errors.split(separator: "\n").map { "  " + $0 }
    }
    let width = grade.results.map(\.criterion.name.count).max() ?? 0
    // An exercise graded by its checks only (exercise 10) has no kept scenarios to list.
    for aimed in [true, false]
    where grade.buildErrors == nil && grade.results.contains(where: { $0.aimed == aimed }) {
      lines.append("")
      lines.append(
        aimed
          ? "Aimed at (your fix must make these hold):"
          : "Kept (the starter passes these; your fix must keep them):")
      for result in grade.results where result.aimed == aimed {
        lines += wrap(
          result.outcome.detail,
          firstPrefix:
            "  \(result.outcome.verdict.symbol) \(result.criterion.name.padded(to: width))  ",
          prefix: String(repeating: " ", count: width + 6))
      }
    }
    lines.append("")
    if grade.isSolved {
      // The last chapter's exercise has no chapter after it to read.
      lines.append(
        exercise.next == exercise.chapter
          ? "Solved: that was the last chapter's exercise."
          : "Solved. Read next: \(exercise.next.path)")
    } else {
      // What did not run is not what the change broke: it says nothing of the code.
      let failing = grade.results.filter { $0.ran && $0.outcome.verdict != .holds }
      let broken = failing.filter { !$0.aimed }.count
      let notRun = grade.results.count { !$0.ran }
      if grade.buildErrors != nil {
        lines.append(
          "Not yet solved: it does not compile. Fix the errors above, then grade it again.")
      } else {
        lines.append(
          "Not yet solved: \(failing.count) of \(grade.results.count) scenarios and checks fail"
            + (broken > 0 ? ", \(broken) of them kept ones your change broke" : "")
            + (notRun > 0 ? "; \(notRun) were not run" : "") + ".")
      }
      lines.append(
        "Stuck? swift run workshop hint \(exercise.number) (run it again for the next hint)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: - JSON

  /// The JSON's shape, documented in Exercises/README.md. Keys may be added, never renamed.
  private struct JSONOutput: Encodable {
    struct Entry: Encodable {
      var number: Int
      var slug: String
      var title: String
      var chapter: Int
      var solved: Bool
      /// `graded`, or why grading stopped early: an ``ExerciseGrade/Stop/Reason``.
      var status: String
      /// What stopped it, in one line; only when it stopped early.
      var statusDetail: String?
      /// The compiler's lines, as the text shows them; only when it does not compile.
      var compilerErrors: [String]?
      /// Every criterion, scenario or check, in the order graded.
      var criteria: [Result]
    }
    struct Result: Encodable {
      var name: String
      var verdict: Verdict
      var aimed: Bool
      /// The evidence line the text shows beside the verdict.
      var detail: String
      /// Whether it was run: a criterion grading stopped before has a `flaw` that says why.
      var ran: Bool
    }
    var exercises: [Entry]
  }

  /// The grades as JSON, keys sorted.
  package static func json(_ grades: [ExerciseGrade]) -> String {
    prettyJSON(
      JSONOutput(
        exercises: grades.map { grade in
          JSONOutput.Entry(
            number: grade.exercise.number, slug: grade.exercise.slug, title: grade.exercise.title,
            chapter: grade.exercise.chapter.number.chapter, solved: grade.isSolved,
            status: grade.stop?.reason.rawValue ?? "graded", statusDetail: grade.stop?.detail,
            compilerErrors: grade.buildErrors.map { $0.split(separator: "\n").map(String.init) },
            criteria: grade.results.map {
              JSONOutput.Result(
                name: $0.criterion.name, verdict: $0.outcome.verdict, aimed: $0.aimed,
                detail: $0.outcome.detail, ran: $0.ran)
            })
        }))
  }

  // MARK: - Hints

  private static func hint(_ number: Int, io: CommandIO, store: HintStore) -> ExitCode {
    guard let exercise = Exercise.numbered(number) else { return .usage }
    let count: Int
    // One line for standard error, after the hint: a damaged file moved aside, or a count that
    // could not be saved.
    var problem: String?
    do {
      (count, problem) = try store.advance(number, upTo: exercise.hints.count)
    } catch {
      // Shown all the same, one step past what the file says; the next run shows it again.
      // Clamped first: a hand-edited file may hold a negative or huge count.
      let shown = min(max(store.shown(for: number), 0), exercise.hints.count)
      count = min(shown + 1, exercise.hints.count)
      problem = "could not remember the hints shown: \(describe(error, store: store))"
    }
    io.print("Exercise \(number): \(exercise.title)")
    for (index, hint) in exercise.hints.prefix(count).enumerated() {
      io.print("")
      io.write(
        wrap(hint, firstPrefix: "Hint \(index + 1) of \(exercise.hints.count): ", prefix: "")
          .joined(separator: "\n") + "\n")
    }
    io.print("")
    if count < exercise.hints.count {
      io.print("Run it again for the next hint. Grade your code: swift run workshop \(number)")
    } else {
      io.print(
        "That is the last hint; the answer is in \(exercise.solutionFolder)/. "
          + "Grade your code: swift run workshop \(number)")
    }
    if let problem { io.printError("workshop: \(problem)") }
    return .success
  }

  private static func resetHints(_ number: Int?, io: CommandIO, store: HintStore) -> ExitCode {
    let notice: String?
    do {
      notice = try store.reset(number)
    } catch {
      io.printError("workshop: could not reset the hints: \(describe(error, store: store))")
      return .failure
    }
    if let notice { io.printError("workshop: \(notice)") }
    if let number {
      io.print(
        "Hints of exercise \(number) reset: workshop hint \(number) starts again from hint 1.")
    } else {
      io.print("Hints of every exercise reset: each workshop hint N starts again from hint 1.")
    }
    return .success
  }

  /// What went wrong with the hints file, in one line that names it. A refusal names it
  /// already; the file system's errors are told in the system's words (`reason(of:)`), never
  /// by the `NSError` dump that interpolating one prints.
  private static func describe(_ error: any Error, store: HintStore) -> String {
    let text =
      (error as? HintStore.Refusal)?.description
      ?? "\(store.url.path): \(reason(of: error))"
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  // MARK: - Help

  /// The text of `--help`.
  package static var help: String {
    """
    OVERVIEW: Fix each stage's flaw yourself, in Exercises/, and have the scenarios that
    compare-stages runs grade your code, live.

    \(syntax.usage)
    COMMANDS:
    \(syntax.wordsHelp)
    EXERCISES:
    \(Exercise.all.map { "  \(String($0.number).padded(to: 2)) \($0.title) (after chapter \($0.chapter.number))" }.joined(separator: "\n"))

    OPTIONS:
    \(syntax.optionsHelp)
    Edit the files of Exercises/NN-name/; a solution for each is in Exercises/Solutions/.
    Beside the scenarios, each exercise has checks of what its task asks. Each exercise is
    graded in a process of its own: a scenario or check that hangs (\(Int(GradingLimits.standard.perCriterion)) seconds) gets a ✗
    that says so, one that traps shows the runtime's message, and the others are still graded.
    No exercise takes more than \(Int(GradingLimits.standard.total)) seconds to grade.
    Exercises/ is a package your editor can open; each exercise is built on its own, by
    SwiftPM, when it is graded: one that does not compile shows the compiler's errors and stops
    nothing else, not the other exercises, hint or swift test.

    \(ExitCode.help(
      success: "graded (solved or not), unless --strict is given; a hint shown, even one that "
        + "could not be remembered (standard error says why); hints reset",
      failure: "with --strict, some exercise graded is not yet solved; with hint --reset, the "
        + "hints could not be reset (standard error says why)"))
    """
  }
}
