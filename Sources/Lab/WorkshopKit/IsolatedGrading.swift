import CommandSupport
import Foundation
import ObserverScenarios
import Support
import Synchronization

/// How the workshop runs the scenarios and checks on an exercise.
package enum Grading: Sendable {
  /// In this process: for code known to be sound, the solutions in the tests.
  case inProcess
  /// In a child process started with `command` (the workshop's own executable), one per
  /// exercise: a learner's code that traps, hangs or floods its output costs the criterion it
  /// was running a ✗ with what happened, never the whole run.
  case isolated(command: [String], limits: GradingLimits = .standard)
  /// Each exercise built on its own by `builder`, then graded in its own children: what
  /// `swift run workshop` does with the learner's code, a package of its own, `Exercises/`.
  case compiled(ExerciseBuilder, limits: GradingLimits = .standard)
  /// No exercise can be graded, for the reason given: the workshop runs away from the package
  /// whose `Exercises/` it grades. Grading and watching exit with a usage error that says so;
  /// `hint` and `--help` still work.
  case unavailable(String)

  /// Why no exercise can be graded, when none can.
  package var unavailableReason: String? {
    if case .unavailable(let reason) = self { return reason }
    return nil
  }

  /// Whether exercises are graded in child processes.
  package var isInChildren: Bool {
    switch self {
    case .inProcess, .unavailable: false
    case .isolated, .compiled: true
    }
  }
}

/// How long grading may take.
package struct GradingLimits: Sendable, Equatable {
  /// The longest one scenario or check may run with no sign of progress (nothing printed, no
  /// generated program started) before it is stopped as hung, in seconds.
  package var perCriterion: Double
  /// The longest one exercise's grading may take, in seconds; what is left is not run. It only
  /// stops code that keeps printing for ever: an honest grade ends long before it.
  package var total: Double

  package init(perCriterion: Double, total: Double) {
    self.perCriterion = perCriterion
    self.total = total
  }

  /// The workshop's limits. Neither decides a verdict of honest code: a generated check runs
  /// every program, reporting each as it starts, however busy the machine. The longest an honest
  /// criterion goes without a sign of progress, exercise 9's threaded checks on its solution,
  /// is about a second on a two-core Linux machine with two busy loops beside it (a debug
  /// build): 4 s is four times that. Exercise 9's whole grade, the slowest, takes about 5 s
  /// quiet and 12 s loaded; 60 s stops only code that prints for ever.
  package static let standard = GradingLimits(perCriterion: 4, total: 60)
}

/// The protocol between the workshop and the child that grades one exercise: before each
/// scenario or check the child writes `start<TAB>name`, after it `done<TAB>verdict<TAB>detail`,
/// and, while a generated check runs, `program<TAB>number<TAB>count` as each program starts,
/// each line at once, on a descriptor of their own (``reportDescriptor``), so that what the
/// learner's code prints cannot mix with them, and a child that dies leaves behind how far it
/// got.
package enum IsolatedGrading {
  /// The hidden argument that makes the workshop a grading child.
  package static let childFlag = "--grade-in-child"
  /// The child's descriptor for the protocol's lines.
  package static let reportDescriptor: Int32 = 3
  /// The environment variable that tells a grading child it was started by a grader, which
  /// reads ``reportDescriptor``.
  package static let reportVariable = "WORKSHOP_REPORT_FD"
  /// The environment variable that gives a grading child its grader's process id: the parent it
  /// must outlive by no more than a moment.
  package static let graderVariable = "WORKSHOP_GRADER_PID"
  /// The most of a child's standard output and error kept, from its end: where the runtime's
  /// last words are.
  package static let keptOutput = 64 * 1024
  /// The most of the protocol's lines kept: far more than any honest report.
  package static let keptReport = 1024 * 1024

  /// In the child: runs `criteria` on `code`, reporting each as it goes.
  package static func report(_ criteria: [Criterion], on code: ExerciseCode, io: CommandIO) {
    let write = io.write
    GeneratedPrograms.progress = { write("program\t\($0)\t\($1)\n") }
    for criterion in criteria {
      io.write("start\t\(criterion.name)\n")
      let outcome = code.run(criterion)
      let detail = outcome.detail.replacing("\n", with: " ")
      io.write("done\t\(outcome.verdict.rawValue)\t\(detail)\n")
    }
  }

  /// In the child: where the protocol's lines go. A child started by a grader writes them to
  /// ``reportDescriptor``, and stops its whole process group once that grader is gone, so that
  /// a workshop that is killed leaves no learner's code running.
  package static func childIO(_ io: CommandIO) -> CommandIO {
    guard io.environment[reportVariable] == String(reportDescriptor) else { return io }
    stopWhenOrphaned(grader: io.environment[graderVariable].flatMap { pid_t($0) })
    var child = io
    child.write = { text in
      var bytes = Array(text.utf8)[...]
      while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes {
          Foundation.write(reportDescriptor, $0.baseAddress, $0.count)
        }
        if written <= 0 { return }
        bytes = bytes.dropFirst(written)
      }
    }
    return child
  }

  /// Watches for the grader's end: when this process's parent is no longer the grader (it died
  /// and this process was handed to another), it kills its own process group, itself and
  /// whatever it started. Polling works on Linux and Darwin alike; Linux's `PR_SET_PDEATHSIG`
  /// would not reach the processes a learner's `fork()` makes.
  ///
  /// `grader` is the grader's process id, as it passed it, compared with the parent from the
  /// start: a grader killed before this child reached this point has already handed it to
  /// another parent, which reading the parent here would take for the grader (measured on
  /// Linux: such children ran on, looping, after the test that killed their workshop).
  private static func stopWhenOrphaned(grader: pid_t?) {
    let parent = grader ?? getppid()
    let thread = Thread {
      while getppid() == parent { usleep(50_000) }
      kill(0, SIGKILL)
    }
    thread.start()
  }

  // MARK: - In the workshop

  /// The process group of the child grading now, for the interrupt handler; 0 when none is.
  private static let runningGroup = Atomic<Int32>(0)

  /// Notes the process group an interrupt must kill, or that there is none any more: the
  /// workshop runs one child at a time, a grading child or, in `--watch`, `swift run`.
  package static func noteRunning(_ group: pid_t?) {
    runningGroup.store(group ?? 0, ordering: .relaxed)
  }

  /// On `SIGINT` and `SIGTERM`, kills the grading child's process group, then exits as the
  /// signal would. Call it once, from the workshop's `main`.
  package static func stopChildrenOnInterrupt() {
    _ = runningGroup.load(ordering: .relaxed)
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber) { received in
        let group = IsolatedGrading.runningGroup.load(ordering: .relaxed)
        if group > 0 { kill(-group, SIGKILL) }
        _exit(128 + received)
      }
    }
  }

  /// In the workshop: grades `exercise` in child processes. When a child hangs or crashes, the
  /// criterion it was running gets a ✗ saying so, with the runtime's own message for a crash,
  /// and a new child runs the ones after it.
  /// `command` is the grading child's executable and the arguments before ``childFlag``;
  /// `seed`, when given, is the generated programs' (``GeneratedPrograms``).
  package static func grade(
    _ exercise: Exercise, command: [String], limits: GradingLimits = .standard,
    seed: UInt64? = nil, progress: (Criterion) -> Void = { _ in }
  ) -> ExerciseGrade {
    let deadline = Date().addingTimeInterval(limits.total)
    var outcomes: [Criterion: Outcome] = [:]
    var remaining = exercise.criteria.map(\.criterion)
    // The evidence of the criteria not run, and why grading stopped, for the JSON.
    var notRun: String?
    var stop: ExerciseGrade.Stop?
    // Each crash told, by its message, and the criterion it was told for: a trap on a path
    // every criterion takes is told once.
    var crashes: [String: Criterion] = [:]
    while !remaining.isEmpty, notRun == nil {
      let run = runChild(
        exercise.number, remaining, command: command, limits: limits, seed: seed,
        deadline: deadline, progress: progress)
      outcomes.merge(run.outcomes) { $1 }
      guard let ending = run.ending else { break }
      guard let running = run.running, let index = remaining.firstIndex(of: running) else {
        notRun = "not run: \(ending.detail)"
        stop = ending.stop
        break
      }
      var detail = told(ending, in: run, exercise: exercise.number, seed: seed, earlier: &crashes)
      if case .crashed = ending, case .check(let check) = running, check.replaysAlone,
        let program = run.program,
        detail.hasPrefix("while generated program"),
        let steps = shrinkCrash(
          exercise.number, running, program: program.number, command: command, limits: limits,
          seed: seed, deadline: deadline)
      {
        detail += ". Shrunk, each try in a fresh process: \(steps)"
      }
      outcomes[running] = .flaw(detail)
      remaining = Array(remaining[(index + 1)...])
      switch ending {
      // What crashed or hung was that criterion's doing: a new child grades the rest.
      case .crashed, .hung: continue
      case .failedToStart, .exited: notRun = "not run: \(ending.detail)"
      case .outOfTime(let limit, _):
        notRun = "not run: grading stops after \(seconds(limit)) per exercise"
      }
      stop = ending.stop
    }
    confirmInFreshProcess(
      exercise, &outcomes, command: command, limits: limits, seed: seed, deadline: deadline)
    // A child that ended cleanly between two criteria, such as by the code calling `exit(0)`.
    if stop == nil, exercise.criteria.contains(where: { outcomes[$0.criterion] == nil }) {
      stop = ExerciseGrade.Stop(
        .exited, detail: "the grading process ended before it graded every scenario and check")
    }
    return ExerciseGrade(exercise, stop: stop, notRun: notRun) { outcomes[$0] }
  }

  /// The evidence of a criterion a child stopped in: what stopped it and, for a crash in a
  /// generated check, the program it ran and how to replay it; a crash told before, only its
  /// criterion.
  private static func told(
    _ ending: Ending, in run: ChildRun, exercise: Int, seed: UInt64?,
    earlier crashes: inout [String: Criterion]
  ) -> String {
    guard case .crashed = ending else { return "while it ran, \(ending.detail)" }
    if let first = crashes[ending.detail] {
      return "while it ran, the same crash as \(first.name)"
    }
    if let running = run.running { crashes[ending.detail] = running }
    guard let program = run.program else { return "while it ran, \(ending.detail)" }
    let seed = seed ?? GeneratedPrograms.defaultSeed
    return "while generated program \(program.number) of \(program.of) ran (seed \(seed); replay: "
      + "swift run workshop \(exercise) --seed \(seed)), \(ending.detail)"
  }

  /// The most fresh processes a crash's shrink starts, each running one smaller program.
  static let crashShrinkTries = 40

  /// Shrinks generated program `number`, which crashed the process running `criterion`: each
  /// smaller program is tried in a fresh process, within ``crashShrinkTries``, the first that
  /// crashes taken, as the shrink of a failure does; the program reached is then run once more,
  /// telling its steps, up to the one that crashes. `nil` when it no longer crashes alone.
  private static func shrinkCrash(
    _ exercise: Int, _ criterion: Criterion, program number: Int, command: [String],
    limits: GradingLimits, seed: UInt64?, deadline: Date
  ) -> String? {
    var shrink = GeneratedPrograms.CrashShrink(path: [], next: 0)
    for _ in 0..<crashShrinkTries {
      let run = runChild(
        exercise, [criterion], command: command, limits: limits, seed: seed, only: number,
        crashShrink: shrink, deadline: deadline, progress: { _ in })
      if case .crashed = run.ending {
        shrink.path.append(shrink.next ?? 0)
        shrink.next = 0
      } else if let count = run.candidates, let next = shrink.next, next + 1 < count {
        shrink.next = next + 1
      } else {
        break
      }
    }
    shrink.next = nil
    let told = runChild(
      exercise, [criterion], command: command, limits: limits, seed: seed, only: number,
      crashShrink: shrink, deadline: deadline, progress: { _ in })
    guard case .crashed = told.ending else { return nil }
    let steps = ProgramRun.folded(told.steps)
    return (steps + [told.starting.map { "then \($0), which crashed" } ?? "then it crashed"])
      .joined(separator: "; ")
  }

  /// Runs again, in a fresh process, the program a generated check of exercises 1 to 9 found
  /// failing, alone: the scenarios and programs run before it in the same process may have
  /// changed state the code keeps outside its observables. The fresh process's evidence is the
  /// one told; when the program passes there, the evidence says so, and why it failed before.
  /// (Exercises 10 and 11 are left as they are: what their programs find may be a race, which
  /// a second run need not show again.)
  private static func confirmInFreshProcess(
    _ exercise: Exercise, _ outcomes: inout [Criterion: Outcome], command: [String],
    limits: GradingLimits, seed: UInt64?, deadline: Date
  ) {
    for check in exercise.checks where check.replaysAlone {
      let criterion = Criterion.check(check)
      guard let found = outcomes[criterion], found.verdict == .flaw,
        let number = programNumber(in: found.detail)
      else { continue }
      let run = runChild(
        exercise.number, [criterion], command: command, limits: limits, seed: seed,
        only: number, deadline: deadline, progress: { _ in })
      guard let again = run.outcomes[criterion] else { continue }
      if again.verdict == .flaw {
        outcomes[criterion] = again
      } else {
        outcomes[criterion] = .flaw(
          found.detail + ". Alone, in a fresh process, generated program \(number) keeps the "
            + "promise: it failed only after the checks and programs before it had run, so your "
            + "code keeps state outside each observable (a global or static variable) that one "
            + "observable changes for the next")
      }
    }
  }

  /// The number of the generated program a check's evidence names: "(generated program 12 of
  /// seed 1, shrunk; …)".
  static func programNumber(in detail: String) -> Int? {
    guard let range = detail.range(of: "(generated program ", options: .backwards) else {
      return nil
    }
    return Int(detail[range.upperBound...].prefix { $0.isNumber })
  }

  /// Why a child stopped early.
  enum Ending {
    case failedToStart(String)
    case hung(seconds: Double, program: (number: Int, of: Int)?)
    /// The exercise's time ran out, while the code still made progress: `program` is the
    /// generated program that had last started, if one had.
    case outOfTime(seconds: Double, program: (number: Int, of: Int)?)
    case crashed(signal: Int32, message: String?)
    case exited(Int32)

    var detail: String {
      switch self {
      case .failedToStart(let reason): "the grading process could not start: \(reason)"
      case .hung(let limit, nil):
        "it did not finish within \(IsolatedGrading.seconds(limit)): a deadlock or an endless loop?"
      case .hung(let limit, let program?):
        "generated program \(program.number) of \(program.of) did not finish within "
          + "\(IsolatedGrading.seconds(limit)), after the \(program.number - 1) before it "
          + "each kept the promise: a deadlock or an endless loop? Unfinished, so not solved"
      // Not a hang, which the per-criterion limit stops: the code was making progress, and is
      // only slower than an honest answer, or prints without end.
      case .outOfTime(let limit, let program?):
        "the exercise's \(IsolatedGrading.seconds(limit)) ran out while generated program "
          + "\(program.number) of \(program.of) ran, after the \(program.number - 1) before it "
          + "each kept the promise: it was making progress, not hung, but slower than an honest "
          + "answer (one that waits, such as a set that waits for a delivery, or prints on every "
          + "call, is). Unfinished, so not solved"
      case .outOfTime(let limit, nil):
        "the exercise's \(IsolatedGrading.seconds(limit)) ran out while it still ran, making "
          + "progress (it printed, so it was not stopped as hung): it prints without end, or is "
          + "slower than an honest answer. Unfinished, so not solved"
      case .crashed(let signal, let message):
        "the program crashed (signal \(signal)): \(message ?? meaning(of: signal))"
      case .exited(let status): "the grading process exited with status \(status)"
      }
    }

    /// What a signal that ended a grading child says of the code, when the runtime said nothing.
    private func meaning(of signal: Int32) -> String {
      switch signal {
      case SIGILL, SIGTRAP:
        "a trap, such as a force unwrap of nil or a Mutex locked twice on one thread"
      case SIGSEGV, SIGBUS:
        "it used memory it does not own, as two threads changing one array at once can"
      case SIGABRT: "it aborted, as the allocator does on a corrupted heap"
      case SIGKILL: "it was killed from outside"
      default: "a signal the program did not handle"
      }
    }

    /// Why the exercise's grading stopped, as its grade tells it, when it ended the child
    /// outside any criterion; within one, a hang or a crash is that criterion's ✗, and a new
    /// child grades the rest.
    var stop: ExerciseGrade.Stop? {
      switch self {
      case .failedToStart: ExerciseGrade.Stop(.couldNotStart, detail: detail)
      case .hung: nil
      case .outOfTime: ExerciseGrade.Stop(.timedOut, detail: detail)
      case .crashed: ExerciseGrade.Stop(.crashed, detail: detail)
      case .exited: ExerciseGrade.Stop(.exited, detail: detail)
      }
    }
  }

  /// What one child reported, and why it stopped early, if it did.
  struct ChildRun {
    var outcomes: [Criterion: Outcome]
    var running: Criterion?
    var ending: Ending?
    /// The generated program it was running, if any.
    var program: (number: Int, of: Int)? = nil
    /// What it reported of a crash's shrink.
    var candidates: Int? = nil
    var steps: [String] = []
    var starting: String? = nil
  }

  /// Runs one child on `criteria`, reading its report as it comes.
  private static func runChild(
    _ number: Int, _ criteria: [Criterion], command: [String], limits: GradingLimits,
    seed: UInt64?, only: Int? = nil, crashShrink: GeneratedPrograms.CrashShrink? = nil,
    deadline: Date, progress: (Criterion) -> Void
  ) -> ChildRun {
    var environment = ProcessInfo.processInfo.environment
    environment[GeneratedPrograms.seedVariable] = seed.map { String($0) }
    environment[GeneratedPrograms.onlyVariable] = only.map { String($0) }
    environment[GeneratedPrograms.crashShrinkVariable] = crashShrink?.text
    environment[reportVariable] = String(reportDescriptor)
    environment[graderVariable] = String(getpid())
    // The runtime's backtrace, plain, without waiting for a debugger: its first frame in the
    // graded code says where a trap happened (about 0.1 s on Linux).
    environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,color=no"
    // A crash's shrink only asks whether a try crashes: no backtrace, which takes a while.
    if crashShrink != nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
    let child: ChildProcess
    do {
      child = try ChildProcess(
        command + [childFlag, String(number)] + criteria.map(\.name), environment: environment,
        outputs: [[1, 2], [reportDescriptor]])
    } catch {
      return ChildRun(outcomes: [:], running: nil, ending: .failedToStart("\(error)"))
    }
    noteRunning(child.pid)
    defer {
      child.killGroup()
      noteRunning(nil)
    }
    var reader = ReportReader()
    var parsed = ChildRun(outcomes: [:], running: nil, ending: nil)
    var started = Date()
    var announced: Criterion?
    let kept = child.outputs(keeping: keptOutput, waiting: 20) { chunks in
      // Output is a sign of life: code that prints 8 MB per set is slow, not hung. Code that
      // prints for ever is stopped by the exercise's limit. So is each generated program that
      // starts: a check that runs all its programs on a busy machine is slow, not hung.
      if !chunks[0].isEmpty { started = Date() }
      let marks = reader.marks
      reader.read(chunks[1])
      parsed.outcomes = reader.outcomes
      if reader.running != parsed.running || reader.marks != marks {
        parsed.running = reader.running
        started = Date()
      }
      parsed.program = reader.program
      (parsed.candidates, parsed.steps, parsed.starting) =
        (reader.candidates, reader.steps, reader.starting)
      if let running = reader.running, running != announced {
        announced = running
        progress(running)
      }
    } stopIf: {
      if Date() > deadline {
        parsed.ending = .outOfTime(seconds: limits.total, program: parsed.program)
      } else if parsed.running != nil, Date().timeIntervalSince(started) > limits.perCriterion {
        parsed.ending = .hung(seconds: limits.perCriterion, program: parsed.program)
      }
      return parsed.ending != nil
    }
    guard let kept, let ending = child.ending else { return parsed }
    switch ending {
    case .exited(0): parsed.ending = parsed.running == nil ? nil : .exited(0)
    case .exited(let status): parsed.ending = .exited(status)
    case .signaled(let signal):
      parsed.ending = .crashed(signal: signal, message: runtimeMessage(in: kept[0].text))
    }
    return parsed
  }

  /// The runtime's first line about a trap in `output`, `…: Fatal error: Index out of range`,
  /// with the place in the graded code the backtrace found it in: `, in
  /// Observable.removeObserver(_:) at Observable.swift:74`; without the path before the file's
  /// name.
  package static func runtimeMessage(in output: String) -> String? {
    let markers = [
      "Fatal error", "Simultaneous accesses", "Fatal access conflict", "fatal error",
      "free(): ", "malloc(): ", "double free", "corrupted",
    ]
    let lines = output.split(whereSeparator: \.isNewline)
    guard let line = lines.first(where: { line in markers.contains { line.contains($0) } })
    else { return nil }
    var text = String(line.suffix(500))
    // "/long/path/Exercises/01-x/Observable.swift:73: Fatal error: …": the path's last part.
    if let range = text.range(of: ": Fatal error") ?? text.range(of: ": fatal error") {
      let location = text[..<range.lowerBound]
      if let slash = location.lastIndex(of: "/") {
        text = String(location[location.index(after: slash)...]) + text[range.lowerBound...]
      }
    }
    return text + (placeInGradedCode(lines) ?? "")
  }

  /// The first frame of a backtrace in the graded code, not in the grader's sources, the
  /// runtime or generated code: `, in Observable.removeObserver(_:) at Observable.swift:74`.
  private static func placeInGradedCode(_ lines: [Substring]) -> String? {
    for line in lines {
      guard let at = line.range(of: " at /", options: .backwards), line.contains(" in "),
        !line.contains("/Sources/")
      else { continue }
      let location = line[line.index(before: at.upperBound)...].split(separator: ":")
      guard location.count >= 2, let number = Int(location[1]),
        let file = location[0].split(separator: "/").last
      else { continue }
      // "  3 [ra]   0x000055b1 Observable.removeObserver(_:) + 139 in grading-child at …"
      let function = line[..<at.lowerBound].split(separator: " ").drop { !$0.hasPrefix("0x") }
        .dropFirst().prefix { $0 != "+" }.joined(separator: " ")
      return (function.isEmpty ? "" : ", in \(function)") + " at \(file):\(number)"
    }
    return nil
  }

  /// The outcomes a child reported, and the criterion it had started and not finished, if any.
  package static func parse(_ output: String) -> (
    outcomes: [Criterion: Outcome], running: Criterion?
  ) {
    var reader = ReportReader()
    reader.read(Data(output.utf8))
    reader.read(Data("\n".utf8))
    return (reader.outcomes, reader.running)
  }

  /// The protocol's lines, read as they come, each once: a child writes one a program.
  struct ReportReader {
    private(set) var outcomes: [Criterion: Outcome] = [:]
    /// The criterion started and not finished, if any.
    private(set) var running: Criterion?
    /// The generated program it runs: its number and the check's count.
    private(set) var program: (number: Int, of: Int)?
    /// How many program lines were read: each, a program started or a shrink's try, is a sign
    /// of life.
    private(set) var marks = 0
    /// In a crash's shrink: how many smaller programs the one reached has.
    private(set) var candidates: Int?
    /// In a crash's shrink, telling the program reached: the steps done, and the last begun.
    private(set) var steps: [String] = []
    private(set) var starting: String?
    /// The start of a line not yet ended.
    private var partial = Data()
    /// How much was read: past ``keptReport``, more is not kept.
    private var total = 0

    mutating func read(_ chunk: Data) {
      guard total < keptReport else { return }
      let chunk = chunk.prefix(keptReport - total)
      total += chunk.count
      partial += chunk
      guard let last = partial.lastIndex(of: UInt8(ascii: "\n")) else { return }
      let complete = partial[..<last]
      partial = Data(partial[(last + 1)...])
      for line in complete.split(separator: UInt8(ascii: "\n")) {
        take(String(decoding: line, as: UTF8.self))
      }
    }

    private mutating func take(_ line: String) {
      let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
      if fields.count == 2, fields[0] == "start" {
        running = Criterion(name: String(fields[1]))
        program = nil
      } else if fields.count == 3, fields[0] == "program", let number = Int(fields[1]),
        let count = Int(fields[2])
      {
        program = (number, count)
        marks += 1
      } else if fields.count == 2, fields[0] == "candidates", let count = Int(fields[1]) {
        candidates = count
      } else if fields.count == 2, fields[0] == "starting" {
        starting = String(fields[1])
      } else if fields.count == 3, fields[0] == "step", let number = Int(fields[1]),
        number == steps.count + 1
      {
        steps.append(String(fields[2]))
        starting = nil
      } else if fields.count == 3, fields[0] == "done", let name = running,
        let verdict = Verdict(rawValue: String(fields[1]))
      {
        outcomes[name] = Outcome(verdict: verdict, detail: String(fields[2]))
        running = nil
        program = nil
      }
    }
  }

  /// "1 second", "30 seconds", "0.5 seconds".
  static func seconds(_ seconds: Double) -> String {
    let number = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    return seconds == 1 ? "1 second" : "\(number) seconds"
  }
}

/// The last `capacity` bytes written to it: what is kept of a child's output, however much it
/// prints.
package struct TailBuffer {
  private var bytes = Data()
  package let capacity: Int

  package init(capacity: Int) { self.capacity = capacity }

  /// Appends `chunk`, dropping the oldest bytes beyond the capacity.
  package mutating func append(_ chunk: Data) {
    if chunk.count >= capacity {
      bytes = Data(chunk.suffix(capacity))
      return
    }
    bytes.append(chunk)
    if bytes.count > capacity { bytes = Data(bytes.suffix(capacity)) }
  }

  package var count: Int { bytes.count }

  package var text: String { String(decoding: bytes, as: UTF8.self) }
}
