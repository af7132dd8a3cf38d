import Stage1Closures

extension Demo {
  /// Chapter 1: a label kept up to date, and the closures of closed screens that never leave.
  func stoneAge() {
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
  }
}
