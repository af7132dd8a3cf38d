import Stage2KeyedDict

extension QuizCode {
  static func chapter2(_ print: @escaping @Sendable (Any) -> Void) {
    let name = Observable("Ann")
    name.bindObserver(forKey: "label") { print("first \($0)") }
    name.bindObserver(forKey: "label") { print("second \($0)") }
    name.value = "Bob"
  }
}
