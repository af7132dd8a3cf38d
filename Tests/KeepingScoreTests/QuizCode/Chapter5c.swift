import Stage5Concurrency

extension QuizCode {
  static func chapter5c(_ print: @escaping @Sendable (Any) -> Void) {
    let score = Observable(0)
    let token = score.observeOnAnyThread(options: .initial) { change in
      print(change.newValue)
    }
    score.value = 1
    token.cancel()
    score.value = 2
  }
}
