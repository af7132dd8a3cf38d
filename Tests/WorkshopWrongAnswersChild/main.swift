import CommandSupport
import Foundation
import WorkshopKit
import WorkshopWrongAnswers

// The workshop's executable, for the wrong and right answers instead of the learner's code.
// For tests only. `workshop-wrong-answers NAME --grade-in-child N criteria…` is a grading
// child, as the workshop's is; `workshop-wrong-answers NAME` grades NAME's
// exercise as `workshop N` does, in a grading child of its own, with the same interrupt
// handling. NAME is a wrong answer's name or a right answer's. (A solution's grading child is
// the learner's: Exercises/Grading/GradeNN, built with the solution in place.)
let arguments = Array(CommandLine.arguments.dropFirst())
/// The exercise and code called `name`: a wrong answer or a right answer.
func graded(_ name: String) -> (exercise: Int, code: ExerciseCode)? {
  if let answer = WrongAnswer.named(name) { return (answer.exercise, answer.code) }
  if let answer = RightAnswer.all.first(where: { $0.name == name }) {
    return (answer.exercise, answer.code)
  }
  return nil
}

guard let name = arguments.first, let answer = graded(name) else {
  FileHandle.standardError.write(
    Data("workshop-wrong-answers: no wrong answer named '\(arguments.first ?? "")'\n".utf8))
  exit(64)
}
let rest = Array(arguments.dropFirst())
let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
IsolatedGrading.stopChildrenOnInterrupt()
let status = WorkshopCommand.run(
  rest.isEmpty ? [String(answer.exercise)] : rest, io: .standard,
  code: [answer.exercise: answer.code], grading: .isolated(command: [executable, name]))
exit(status.rawValue)
