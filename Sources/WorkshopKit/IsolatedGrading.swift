import CommandSupport
import Foundation
import ObserverScenarios
import Support

/// How the workshop runs the scenarios on an exercise.
package enum Grading: Sendable {
  /// In this process: for code known to be sound, the solutions in the tests.
  case inProcess
  /// In a child process, the workshop's own executable at `executable`, one per exercise: a
  /// learner's code that traps, or hangs for `timeout` seconds, then costs that exercise a ✗
  /// with what happened, never the whole run.
  case isolated(executable: String, timeout: Double = timeout)

  /// How long one grading child may take, in seconds, before it is stopped as hung.
  package static let timeout = 30.0
}

/// The protocol between the workshop and the child that grades one exercise: before each
/// scenario the child prints `start<TAB>name`, after it `done<TAB>verdict<TAB>detail`, each line
/// written at once, so that a child that dies leaves behind how far it got.
package enum IsolatedGrading {
  /// The hidden argument that makes the workshop a grading child.
  package static let childFlag = "--grade-in-child"

  /// In the child: runs `criteria` on `code`, reporting each as it goes.
  ///
  /// - Parameters:
  ///   - criteria: The scenarios and checks to run, in order.
  ///   - code: The learner's code.
  ///   - io: Where the lines go.
  package static func report(_ criteria: [Criterion], on code: ExerciseCode, io: CommandIO) {
    for criterion in criteria {
      io.write("start\t\(criterion.name)\n")
      let outcome = code.run(criterion)
      io.write("done\t\(outcome.verdict.rawValue)\t\(outcome.detail)\n")
    }
  }

  /// In the workshop: grades `exercise` in child processes. When a child dies or hangs, the
  /// scenario it was running gets a ✗ with the cause, and a new child runs the ones after it.
  ///
  /// - Parameters:
  ///   - exercise: The exercise.
  ///   - executable: The workshop's executable.
  ///   - timeout: How long one child may take, in seconds.
  /// - Returns: The grade.
  package static func grade(_ exercise: Exercise, executable: String, timeout: Double)
    -> ExerciseGrade
  {
    var outcomes: [Criterion: Outcome] = [:]
    var remaining = exercise.criteria.map(\.criterion)
    while !remaining.isEmpty {
      let (output, ending) = runChild(
        exercise.number, remaining, executable: executable, timeout: timeout)
      let (reported, running) = parse(output)
      outcomes.merge(reported) { $1 }
      guard let running, let index = remaining.firstIndex(of: running) else {
        for name in remaining where outcomes[name] == nil {
          outcomes[name] = Outcome(
            verdict: .flaw,
            detail: "not graded: \(ending ?? "the grading process reported nothing for it")")
        }
        break
      }
      outcomes[running] = Outcome(
        verdict: .flaw,
        detail: "while it ran, \(ending ?? "the grading process stopped without a word")")
      remaining = Array(remaining[(index + 1)...])
    }
    return ExerciseGrade(exercise) {
      outcomes[$0] ?? Outcome(verdict: .flaw, detail: "not graded")
    }
  }

  /// The outcomes a child reported, and the scenario it had started and not finished, if any.
  ///
  /// - Parameter output: What the child printed.
  /// - Returns: The outcomes by scenario, and the unfinished scenario.
  package static func parse(_ output: String) -> (
    outcomes: [Criterion: Outcome], running: Criterion?
  ) {
    var outcomes: [Criterion: Outcome] = [:]
    var running: Criterion?
    for line in output.split(separator: "\n") {
      let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
      if fields.count == 2, fields[0] == "start" {
        running = Criterion(name: String(fields[1]))
      } else if fields.count == 3, fields[0] == "done", let name = running,
        let verdict = Verdict(rawValue: String(fields[1]))
      {
        outcomes[name] = Outcome(verdict: verdict, detail: String(fields[2]))
        running = nil
      }
    }
    return (outcomes, running)
  }

  /// Runs one child on `scenarios`; returns what it printed, and why it stopped early, if it
  /// did.
  private static func runChild(
    _ number: Int, _ criteria: [Criterion], executable: String, timeout: Double
  ) -> (output: String, ending: String?) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = [childFlag, String(number)] + criteria.map(\.name)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return ("", "could not start \(executable): \(error)")
    }
    let deadline = Date().addingTimeInterval(timeout)
    var timedOut = false
    let reader = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }
    while process.isRunning {
      if Date() > deadline {
        timedOut = true
        // SIGKILL, which a child can neither catch, block nor ignore: under `swift test`,
        // SIGTERM left a hanging stand-in child running for its whole sleep.
        kill(process.processIdentifier, SIGKILL)
        break
      }
      Thread.sleep(forTimeInterval: 0.01)
    }
    process.waitUntilExit()
    let text = String(decoding: readAll(reader), as: UTF8.self)
    if timedOut {
      return (
        text, "it did not finish within \(seconds(timeout)): a deadlock or an endless loop?"
      )
    }
    if process.terminationReason == .uncaughtSignal {
      return (
        text,
        "the program crashed (signal \(process.terminationStatus)): a trap, such as a force "
          + "unwrap of nil or a Mutex locked twice on one thread"
      )
    }
    if process.terminationStatus != 0 {
      return (text, "the grading process exited with status \(process.terminationStatus)")
    }
    return (text, nil)
  }

  /// "1 second", "30 seconds", "0.5 seconds".
  private static func seconds(_ seconds: Double) -> String {
    let number = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    return seconds == 1 ? "1 second" : "\(number) seconds"
  }

  private static func readAll(_ task: Task<Data, Never>) -> Data {
    // Written before the semaphore is signalled, read after it is waited on.
    let read = HandOff<Data>()
    let done = DispatchSemaphore(value: 0)
    Task {
      read.value = await task.value
      done.signal()
    }
    done.wait()
    return read.value ?? Data()
  }
}
