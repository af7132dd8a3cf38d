import CommandSupport
import Foundation
import WorkshopKit
import WorkshopWrongAnswers

// The workshop's executable, for the wrong answers instead of the learner's code. For tests
// only. `workshop-wrong-answers NAME --grade-in-child N criteria…` is a grading child, as the
// workshop's is; `workshop-wrong-answers NAME` grades NAME's exercise as `workshop N` does, in
// a grading child of its own, with the same interrupt handling.
let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let answer = WrongAnswer.named(name) else {
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
