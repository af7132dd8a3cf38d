import Stage5Concurrency

extension QuizCode {
  static func chapter9(_ print: @escaping @Sendable (Any) -> Void) {
    let score = Observable(0)
    let header = score.observeOnAnyThread { print("header \($0.newValue)") }
    let log = score.observeOnAnyThread { print("log \($0.newValue)") }
    score.value = 1
    header.cancel()
    score.value = 2
    log.cancel()
  }
}
