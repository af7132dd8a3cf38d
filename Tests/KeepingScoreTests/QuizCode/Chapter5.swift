import TutorialKit

extension QuizCode {
  static func chapter5(_ print: @escaping @Sendable (Any) -> Void) {
    let count = SharedObservable(0)
    count.observe { value in
      print("A \(value)")
      if value == 1 { count.set(2) }
    }
    count.observe { print("B \($0)") }
    count.set(1)
  }
}
