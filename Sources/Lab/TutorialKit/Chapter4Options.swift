import Stage4Options

/// The book's subject: a user whose name can be observed.
final class User {
  let name: Observable<String>

  init(name: String) {
    self.name = Observable(name)
  }
}

/// The book's observer: any object will do.
final class Observer {}

extension Demo {
  /// Chapter 4: the book's playground, then old values and explicit removal.
  func options() {
    print("--- Observable Example ---")
    let user = User(name: "Madeline")
    var observer: Observer? = Observer()
    user.name.addObserver(observer!, options: [.initial, .new]) { name, _ in
      print("User's name is \(name)")
    }
    user.name.value = "Amelia"
    observer = nil
    user.name.value = "Amelia is outta here!"
    print("callbacks stored: \(user.name.observerCount)")

    print("")
    let history = Observer()
    user.name.addObserver(history, options: [.old, .new]) { name, option in
      print(option == .old ? "old value: \(name)" : "new value: \(name)")
    }
    user.name.value = "Ray"
    user.name.removeObserver(history)
    user.name.value = "Nobody is listening"
    print("callbacks stored after removeObserver: \(user.name.observerCount)")
  }
}
