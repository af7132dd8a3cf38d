import Stage2KeyedDict

extension Demo {
  /// Chapter 2: removal by key, then two screens that pick the same key.
  func keyedDict() {
    let message = Observable("Welcome")
    message.bindObserver(forKey: "home.title") { print("home title: \($0)") }
    message.value = "Hello"
    message.removeObserver(forKey: "home.title")
    message.value = "Nobody hears this"
    print("closures stored after removal: \(message.observerCount)")

    message.bindObserver(forKey: "title") { print("home title: \($0)") }
    message.bindObserver(forKey: "title") { print("detail title: \($0)") }
    message.value = "Collision"
    print("closures stored after two binds: \(message.observerCount)")

    print("")
    keyedDictNestedSet()

    print("")
    yepLoginUser()
  }

  /// Chapter 2: a closure that sets the value, delivered as the article's `notify()` does, in
  /// the dictionary's order.
  func keyedDictNestedSet() {
    let score = Observable(0)
    var received: [String: [Int]] = [:]
    var first: String?
    for name in ["A", "B", "C"] {
      score.bindObserver(forKey: name) { [weak score] value in
        received[name, default: []].append(value)
        if first == nil {
          first = name  // whichever the dictionary calls first sets 2
          score?.value = 2
        }
      }
    }
    score.value = 1
    let others = received.filter { $0.key != first }.values.map(\.description).sorted()
    print("the one called first received \(received[first ?? "", default: []])")
    print("the two others received \(others.joined(separator: " and "))")
    print("the value is \(score.value)")
  }

  /// Chapter 2: Yep's `Listenable`, which persists the logged-in user on every set.
  func yepLoginUser() {
    let defaults = KeyValueStore()
    let loginUser = Listenable<String?>("ann") { user in
      defaults["loginUserId"] = user
      print("setter action saves loginUserId = \(user ?? "nil")")
    }
    loginUser.bindAndFireListener(name: "ProfileScreen.loginUser") { user in
      print("profile screen shows \(user ?? "nobody")")
    }
    loginUser.bindListener(name: "ProfileScreen.loginUser") { user in
      print("second profile screen shows \(user ?? "nobody")")
    }
    print("listeners bound: \(loginUser.listenerCount)")
    loginUser.value = "bob"
    loginUser.removeListener(name: "ProfileScreen.loginUser")
    loginUser.value = nil
    print("saved loginUserId: \(defaults["loginUserId"] ?? "nil")")
  }
}

/// A stand-in for `UserDefaults`: a dictionary of strings that outlives the closures using it.
final class KeyValueStore {
  private var values: [String: String] = [:]

  subscript(key: String) -> String? {
    get { values[key] }
    set { values[key] = newValue }
  }
}
