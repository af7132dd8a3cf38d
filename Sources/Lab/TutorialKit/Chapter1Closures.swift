import Stage1Closures

extension Demo {
  /// Chapter 1: a label kept up to date, and the closures of closed screens that never leave.
  func closures() {
    let message = Observable("Welcome")
    let home = Screen("home")
    message.bindObserver { text in
      home.label = text
      print("home screen shows \"\(text)\"")
    }
    message.value = "Hello"

    for visit in 1...3 {
      let detail = Screen("detail")
      message.bindObserver { [weak detail] text in
        let state = detail == nil ? "closed" : "open"
        print("closure of detail visit \(visit) runs for \"\(text)\"; the screen is \(state)")
      }
    }
    message.value = "Goodbye"
    print("closures stored: \(message.observerCount)")

    print("")
    closuresNestedSet()
  }

  /// Chapter 1: a closure that sets the value, delivered as the article's `notify()` does.
  func closuresNestedSet() {
    let score = Observable(0)
    var received: [String] = []
    score.bindObserver { [weak score] value in
      received.append("A:\(value)")
      if value == 1 { score?.value = 2 }
    }
    score.bindObserver { received.append("B:\($0)") }
    score.bindObserver { received.append("C:\($0)") }
    score.value = 1
    print("received: \(received.joined(separator: " "))")
    print("the value is \(score.value)")
  }
}
