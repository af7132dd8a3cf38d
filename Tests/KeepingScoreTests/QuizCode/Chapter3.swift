import Stage3WeakRefs

extension QuizCode {
  static func chapter3(_ print: @escaping @Sendable (Any) -> Void) {
    final class Screen {}
    let screen = Screen()
    let count = Observable(0)
    count.bindObserver(screen) { print("first \($0)") }
    count.bindObserver(screen) { print("second \($0)") }
    count.value = 1
    withExtendedLifetime(screen) {}
  }
}
