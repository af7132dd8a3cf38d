import Stage1Closures
import Stage2KeyedDict

extension QuizCode {
  static func chapter6(_ print: @escaping @Sendable (Any) -> Void) {
    let one = Stage1Closures.Observable(0)
    let two = Stage2KeyedDict.Observable(0)
    for _ in 1...2 {
      one.bindObserver { _ in }
      two.bindObserver(forKey: "label") { _ in }
    }
    print("\(one.observerCount) \(two.observerCount)")
  }
}
