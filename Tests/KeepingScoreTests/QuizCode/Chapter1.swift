import Stage1Closures

extension QuizCode {
  static func chapter1(_ print: @escaping @Sendable (Any) -> Void) {
    let count = Observable(0)
    count.bindObserver { print("A \($0)") }
    count.bindObserver { print("B \($0)") }
    count.value = 1
    count.value = 2
  }
}
