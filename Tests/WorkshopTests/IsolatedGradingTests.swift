import CommandSupport
import Foundation
import ObserverScenarios
import TestSupport
import Testing
import WorkshopKit

/// A stand-in for the workshop's executable, in a real child process: a shell script that
/// reports on descriptor 3 as the workshop's grading child does, with `behaviour` run for each
/// criterion before its `done` line (`$name` is the criterion). The JSON tests use it too.
struct StandIn {
  let folder: URL
  let path: String

  init(_ behaviour: String) throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("workshop-child-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    path = folder.appendingPathComponent("child.sh").path
    try """
    #!/bin/sh
    shift 2  # --grade-in-child N
    for name in "$@"; do
      printf 'start\\t%s\\n' "$name" >&3
    \(behaviour)
      printf 'done\\tholds\\tgraded by the stand-in\\n' >&3
    done

    """.write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

private let graded = Outcome(verdict: .holds, detail: "graded by the stand-in")

/// Exercise 2, whose criteria the stand-ins are graded on.
private func exercise2() throws -> (Exercise, [Criterion]) {
  let exercise = try #require(Exercise.numbered(2))
  return (exercise, exercise.criteria.map(\.criterion))
}

/// Whether process `pid` is gone: no such process, or a zombie nobody has reaped yet.
private func isGone(_ pid: pid_t) -> Bool {
  if kill(pid, 0) != 0 { return true }
  #if os(Linux)
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
      return true
    }
    return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
  #else
    return false
  #endif
}

/// Waits until `condition` holds, checking every 20 ms, for at most `seconds`: for a process
/// to be gone, which takes the kernel a moment after a kill.
private func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if condition() { return true }
    usleep(20_000)
  }
  return condition()
}

@Suite("Workshop: grading in a child process")
struct IsolatedGradingTests {
  @Test("a child's lines give each criterion's outcome, and the one it died in")
  func parsesTheChildsReport() {
    let output = """
      start\tdelivers-every-change
      done\tholds\treceived 1, 2, 3, 4, 5: every value set, in order
      start\tdelivery-order
      done\tflaw\tcall order differed
      start\tgenerated-binds-and-removals

      """
    let (outcomes, running) = IsolatedGrading.parse(output)
    #expect(outcomes[.scenario(.deliversEveryChange)]?.verdict == .holds)
    #expect(
      outcomes[.scenario(.deliveryOrder)]
        == Outcome(verdict: .flaw, detail: "call order differed"))
    #expect(outcomes[.check(.generatedRemovals)] == nil)
    #expect(running == .check(.generatedRemovals))
    #expect(IsolatedGrading.parse("").running == nil)
  }

  @Test("a child reports exactly the criteria it is asked for, in order")
  func childReports() throws {
    let captured = CapturedIO()
    let code = try #require(testedCode[2])
    let status = WorkshopCommand.run(
      [IsolatedGrading.childFlag, "2", "delivery-order", "generated-keys-in-order"],
      io: captured.io, code: [2: code])
    #expect(status == .success)
    let (outcomes, running) = IsolatedGrading.parse(captured.output)
    #expect(running == nil)
    #expect(
      Set(outcomes.keys) == [.scenario(.deliveryOrder), .check(.generatedKeysInOrder)])
    #expect(outcomes[.scenario(.deliveryOrder)] == code.run(.scenario(.deliveryOrder)))
  }

  @Test("a hang costs its criterion a ✗ saying so within the limit; a new child grades the rest")
  func hangCostsOneCriterion() throws {
    let (exercise, criteria) = try exercise2()
    let hanging = criteria[1]
    let child = try StandIn(#"  [ "$name" = "\#(hanging.name)" ] && exec sleep 60"#)
    defer { child.remove() }
    let grade = IsolatedGrading.grade(
      exercise, command: [child.path], limits: GradingLimits(perCriterion: 1, total: 14))
    for result in grade.results {
      #expect(
        result.outcome
          == (result.criterion == hanging
            ? .flaw(
              "while it ran, it did not finish within 1 second: a deadlock or an endless loop?")
            : graded),
        "\(result.criterion.name)")
    }
  }

  @Test("code that hangs in every criterion is stopped at the exercise's limit; the rest say so")
  func everyCriterionHangs() throws {
    let (exercise, _) = try exercise2()
    let child = try StandIn("  exec sleep 60")
    defer { child.remove() }
    let grade = IsolatedGrading.grade(
      exercise, command: [child.path], limits: GradingLimits(perCriterion: 1, total: 2.5))
    let details = grade.results.map(\.outcome.detail)
    #expect(details.first?.contains("did not finish within 1 second") == true)
    #expect(details.last == "not run: grading stops after 2.5 seconds per exercise")
    #expect(grade.results.allSatisfy { $0.outcome.verdict == .flaw })
  }

  @Test(
    "code that traps in every criterion gets each one's ✗, each from a process of its own, the crash told once"
  )
  func everyCriterionTraps() throws {
    let (exercise, _) = try exercise2()
    let child = try StandIn("  kill -ILL $$")
    defer { child.remove() }
    let grade = IsolatedGrading.grade(exercise, command: [child.path])
    #expect(grade.stop == nil)
    let first = try #require(grade.results.first)
    #expect(
      first.outcome.detail.hasPrefix("while it ran, the program crashed (signal \(SIGILL))"),
      "\(first.outcome.detail)")
    for result in grade.results {
      #expect(result.ran && result.outcome.verdict == .flaw)
      guard result.criterion != first.criterion else { continue }
      #expect(
        result.outcome.detail == "while it ran, the same crash as \(first.criterion.name)",
        "\(result.criterion.name): \(result.outcome.detail)")
    }
  }

  @Test("a crash in a generated program names the program and how to replay it")
  func crashNamesTheProgram() throws {
    let (exercise, criteria) = try exercise2()
    let generated = try #require(criteria.first { $0.name.hasPrefix("generated-") })
    let child = try StandIn(
      #"  [ "$name" = "\#(generated.name)" ] && { printf 'program\t6\t4000\n' >&3; "#
        + #"printf 'program\t7\t4000\n' >&3; kill -ILL $$; }"#)
    defer { child.remove() }
    let grade = IsolatedGrading.grade(exercise, command: [child.path], seed: 5)
    let outcome = try #require(grade.results.first { $0.criterion == generated }).outcome
    #expect(
      outcome.detail.hasPrefix(
        "while generated program 7 of 4000 ran (seed 5; replay: swift run workshop 2 --seed 5), "
          + "the program crashed (signal \(SIGILL))"), "\(outcome.detail)")
  }

  @Test("a trap shows the runtime's own line once, under its criterion; the ones after are graded")
  func trapShowsTheRuntimesLine() throws {
    let (exercise, criteria) = try exercise2()
    let trapping = criteria[2]
    let child = try StandIn(
      #"  [ "$name" = "\#(trapping.name)" ] && { echo "x=1 and some output" ; "#
        + #"echo "/home/me/p/Exercises/02-call-in-order/Observable.swift:73: Fatal error: Index out of range" >&2; "#
        + #"echo "💣 Program crashed: Illegal instruction" >&2; "#
        + #"echo "  2 [ra]  0x00007f91 Array.remove(at:) + 273 in libswiftCore.so" >&2; "#
        + #"echo "  3 [ra]  0x000055b1 Observable.removeObserver(_:) + 139 in child at /home/me/p/Exercises/02-call-in-order/Observable.swift:74:15" >&2; "#
        + #"echo "  5 [ra]  0x000055b2 KeyedAdapter.unsubscribe(_:) + 507 in child at /home/me/p/Sources/Lab/WorkshopKit/ExerciseAdapters.swift:119:18" >&2; "#
        + #"kill -ILL $$; }"#)
    defer { child.remove() }
    let grade = IsolatedGrading.grade(exercise, command: [child.path])
    let outcomes = Dictionary(
      uniqueKeysWithValues: grade.results.map { ($0.criterion, $0.outcome) })
    #expect(outcomes[criteria[0]] == graded)
    #expect(outcomes[criteria[1]] == graded)
    #expect(
      outcomes[trapping]
        == .flaw(
          "while it ran, the program crashed (signal \(SIGILL)): Observable.swift:73: Fatal error: "
            + "Index out of range, in Observable.removeObserver(_:) at Observable.swift:74"))
    for criterion in criteria.dropFirst(3) {
      #expect(outcomes[criterion] == graded, "\(criterion.name), graded by a new process")
    }
    #expect(grade.stop == nil)
    #expect(grade.results.allSatisfy { $0.ran })
    let text = WorkshopCommand.text(of: grade)
    #expect(text.components(separatedBy: "Fatal error").count == 2, "shown once")
  }

  @Test(
    "output without newlines or in megabytes changes no verdict",
    arguments: [
      "  head -c 3000 /dev/zero | tr '\\\\0' x", "  head -c 8000000 /dev/zero | tr '\\\\0' x",
      "  head -c 3000 /dev/zero | tr '\\\\0' x >&2",
    ])
  func floodsOfOutput(printing: String) throws {
    let (exercise, _) = try exercise2()
    let child = try StandIn(printing)
    defer { child.remove() }
    let grade = IsolatedGrading.grade(exercise, command: [child.path])
    for result in grade.results {
      #expect(result.outcome == graded, "\(result.criterion.name)")
    }
  }

  @Test("code that prints as it works is slow, not hung: only the exercise's limit stops it")
  func printingIsASignOfLife() throws {
    let (exercise, criteria) = try exercise2()
    let slow = criteria[0]
    let child = try StandIn(
      #"  [ "$name" = "\#(slow.name)" ] && for i in $(seq 30); do echo "step $i"; sleep 0.1; done"#)
    defer { child.remove() }
    let grade = IsolatedGrading.grade(
      exercise, command: [child.path], limits: GradingLimits(perCriterion: 2, total: 14))
    #expect(grade.results.allSatisfy { $0.outcome == graded })
    let forever = try StandIn("  while true; do echo more; sleep 0.1; done")
    defer { forever.remove() }
    let stopped = IsolatedGrading.grade(
      exercise, command: [forever.path], limits: GradingLimits(perCriterion: 1, total: 2))
    #expect(
      stopped.results.first?.outcome
        == .flaw(
          "while it ran, the exercise's 2 seconds ran out while it still ran, making progress "
            + "(it printed, so it was not stopped as hung): it prints without end, or is slower "
            + "than an honest answer. Unfinished, so not solved"))
    #expect(
      stopped.results.dropFirst().allSatisfy {
        $0.outcome == .flaw("not run: grading stops after 2 seconds per exercise")
      })
  }

  @Test("a check whose programs each finish but together outlast the exercise's time is named so")
  func slowProgramsAreNotHung() throws {
    let (exercise, _) = try exercise2()
    // Every program starts within the per-criterion limit, none finishing the check in time.
    let slow = try StandIn(
      #"  i=0; while true; do i=$((i+1)); printf 'program\t%s\t4000\n' $i >&3; sleep 0.2; done"#)
    defer { slow.remove() }
    let grade = IsolatedGrading.grade(
      exercise, command: [slow.path], limits: GradingLimits(perCriterion: 1, total: 2))
    let first = try #require(grade.results.first?.outcome)
    #expect(first.verdict == .flaw)
    #expect(
      first.detail.contains(
        /the exercise's 2 seconds ran out while generated program (\d+) of 4000 ran, after the \d+ before it each kept the promise: it was making progress, not hung/
      ), "\(first.detail)")
    #expect(!first.detail.contains("endless loop"))
    #expect(first.detail.hasSuffix("Unfinished, so not solved"))
    #expect(grade.stop?.reason == .timedOut)
  }

  @Test("what is kept of a child's output is bounded, and is its end")
  func keptOutputIsBounded() {
    var buffer = TailBuffer(capacity: IsolatedGrading.keptOutput)
    for _ in 0..<128 { buffer.append(Data(repeating: 120, count: 65_536)) }
    buffer.append(Data("\nFatal error: last words\n".utf8))
    #expect(buffer.count == IsolatedGrading.keptOutput)
    #expect(IsolatedGrading.runtimeMessage(in: buffer.text) == "Fatal error: last words")
  }

  @Test("a process the graded code starts is gone when grading ends")
  func forkedProcessesAreKilled() throws {
    let (exercise, criteria) = try exercise2()
    let pidFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("forked-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: pidFile) }
    let child = try StandIn(
      #"  [ "$name" = "\#(criteria[0].name)" ] && { sleep 90 & echo $! > "\#(pidFile)"; }"#)
    defer { child.remove() }
    let grade = IsolatedGrading.grade(exercise, command: [child.path])
    #expect(grade.results.allSatisfy { $0.outcome == graded })
    let pid = try #require(
      Int32(
        try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(
          in: .whitespacesAndNewlines)))
    #expect(eventually { isGone(pid) }, "the forked sleep \(pid) still runs")
  }

  @Test(
    "a grading child whose workshop is interrupted or killed is gone with it",
    arguments: [SIGINT, SIGTERM, SIGKILL])
  func childGoesWithTheWorkshop(signal: Int32) async throws {
    #if os(Linux)
      // A grading child run by hand grades as the workshop does, in grading children of its
      // own: here an exercise whose removal loop never ends, so that its child hangs.
      try await withWrongAnswerChild("01-removal-loop-never-advances") { child in
        let workshop = try ChildProcess(
          [child], environment: ProcessInfo.processInfo.environment, outputs: [[1, 2]])
        var gradingChild: pid_t?
        #expect(
          eventually {
            gradingChild = children(of: workshop.pid).first
            return gradingChild != nil
          }, "no grading child started")
        let pid = try #require(gradingChild)
        kill(workshop.pid, signal)
        #expect(eventually { workshop.checkEnding() != nil })
        if signal != SIGKILL { #expect(workshop.ending == .exited(128 + signal)) }
        #expect(eventually { isGone(pid) }, "the grading child \(pid) still runs")
        workshop.killGroup()
      }
    #endif
  }
}

#if os(Linux)
  /// The processes whose parent is `parent`, from `/proc`.
  private func children(of parent: pid_t) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry in
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 2,
        pid_t(fields[1]) == parent, fields[0] != "Z"
      else { return nil }
      return pid
    }
  }
#endif
