import Stage5Concurrency

extension QuizCode {
  static func chapter5(_ print: @escaping @Sendable (Any) -> Void) {
    let count = Observable(0)
    let first = count.observeOnAnyThread { change in
      print("A \(change.newValue)")
      if change.newValue == 1 { count.value = 2 }
    }
    let second = count.observeOnAnyThread { print("B \($0.newValue)") }
    count.value = 1
    first.cancel()
    second.cancel()
  }
}
