import Stage4Options

extension QuizCode {
  static func chapter4(_ print: @escaping @Sendable (Any) -> Void) {
    final class Label {}
    let label = Label()
    let count = Observable(1)
    count.addObserver(label, options: [.initial, .new]) { value, option in
      print(option == .initial ? "initial \(value)" : "new \(value)")
    }
    count.value = 2
    withExtendedLifetime(label) {}
  }
}
