import Stage3WeakRefs

extension Demo {
  /// Chapter 3: a released screen is skipped, its entry stays, and a strong capture leaks.
  func weakRefs() {
    let message = Observable("Welcome")
    var detail: Screen? = Screen("detail")
    message.bindObserver(detail!) { [weak detail] text in
      detail?.label = text
      print("detail screen shows \"\(text)\"")
    }
    message.value = "Hello"
    detail = nil
    message.value = "Nobody is left to show this"
    print("entries stored after the screen closed: \(message.observerCount)")

    let home = Screen("home")
    message.bindObserver(home) { [weak home] text in home?.label = text }
    print("entries stored after the next bind: \(message.observerCount)")

    weak var leakyScreen: Screen?
    do {
      let screen = Screen("leaky")
      leakyScreen = screen
      message.bindObserver(screen) { text in screen.label = text }
    }
    message.value = "Still here?"
    print(
      "the leaky screen is \(leakyScreen == nil ? "freed" : "alive"), shows \"\(leakyScreen?.label ?? "")\""
    )

    print("")
    weakRefsNestedSet()

    print("")
    subscriptionCenter()
  }

  /// Chapter 3: a closure that sets the value, delivered as the article's `notify()` does.
  func weakRefsNestedSet() {
    let score = Observable(0)
    let (a, b, c) = (Screen("A"), Screen("B"), Screen("C"))
    var received: [String] = []
    score.bindObserver(a) { [weak score] value in
      received.append("A:\(value)")
      if value == 1 { score?.value = 2 }
    }
    score.bindObserver(b) { received.append("B:\($0)") }
    score.bindObserver(c) { received.append("C:\($0)") }
    score.value = 1
    print("received: \(received.joined(separator: " "))")
    withExtendedLifetime((a, b, c)) {}
  }

  /// Chapter 3: the subscription center, with topics of weak subscribers.
  func subscriptionCenter() {
    let center = SubscriptionCenter<String>()
    center.createTopic("computers")
    let ann = Shopper("Ann", demo: self)
    var bob: Shopper? = Shopper("Bob", demo: self)
    center.addSubscriber(ann, to: "computers")
    center.addSubscriber(bob!, to: "computers")
    center.send("a new laptop", to: "computers")

    bob = nil
    center.send("a cheaper laptop", to: "computers")
    center.addSubscriber(ann, to: "phones")
    print(
      "subscribers of computers: \(center.subscriberCount(of: "computers")); topics: \(center.topics)"
    )

    let otherCenter = SubscriptionCenter<String>()
    print("topics of another center: \(otherCenter.topics)")
  }
}

/// A subscriber that prints what it receives.
final class Shopper: Subscriber {
  let name: String
  let demo: Demo

  init(_ name: String, demo: Demo) {
    self.name = name
    self.demo = demo
  }

  func receive(_ message: String, topic: String) {
    demo.print("\(name) hears of \(message) (topic \(topic))")
  }
}
