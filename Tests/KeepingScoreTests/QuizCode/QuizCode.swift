/// The code of the quiz's "what does this print" questions, compiled: one function per
/// chapter, whose body is, line for line, the question's ``Question/code``.
///
/// Each takes `print` as a parameter, which the body's `print(…)` calls, so a test can see what
/// it prints; each chapter's file imports only the modules its code uses, as a reader's would.
enum QuizCode {}
