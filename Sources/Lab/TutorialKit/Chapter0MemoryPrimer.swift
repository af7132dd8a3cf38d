import Stage1Closures

/// A screen that says when it is freed, for the memory primer.
final class PrimerScreen {
  let name: String
  var title = ""
  var onTap: (() -> Void)?
  private let report: (String) -> Void

  init(_ name: String, report: @escaping (String) -> Void) {
    self.name = name
    self.report = report
  }

  deinit { report("\(name) screen freed") }
}

extension Demo {
  /// The pattern in one picture, after the book's: who holds the list, who asks, who is told.
  static let patternPicture = """
      ┌──────────────────────┐    1. subscribe: "tell me"    ┌─────────────────────┐
      │  Observable          │ ◀──────────────────────────── │  Observer           │
      │  (the subject)       │                               │  (a screen's label) │
      │  value               │    2. on every change:        │                     │
      │  [observers]         │ ────────────────────────────▶ │  handler(value)     │
      └──────────────────────┘       call each handler       └─────────────────────┘
                 ▲
                 │ 0. the game sets the value, knowing nothing of screens
    """

  /// Chapter 0: the pattern, then the memory primer.
  func introduction() {
    print("-- the observer pattern --")
    print(Self.patternPicture)
    print("")
    memoryPrimer()
  }

  /// Chapter 0's memory primer, on real objects: a cycle, a capture list that breaks it, a leak
  /// rooted in a long-lived observable, and a weak reference becoming nil.
  func memoryPrimer() {
    print("-- a retain cycle: the screen holds a closure that holds the screen --")
    do {
      let screen = PrimerScreen("cyclic", report: { print($0) })
      screen.onTap = { print("tapped \(screen.name)") }
    }
    print("the variable is gone, and the screen was never freed")
    print("")

    print("-- a capture list breaks the cycle: [weak screen] --")
    do {
      let screen = PrimerScreen("weakly captured", report: { print($0) })
      screen.onTap = { [weak screen] in print("tapped \(screen?.name ?? "nothing")") }
    }
    print("")

    print("-- a rooted leak: a long-lived observable holds a closure that holds the screen --")
    let score = Observable(0)
    do {
      let screen = PrimerScreen("rooted", report: { print($0) })
      score.bindObserver { value in screen.title = "score \(value)" }
    }
    score.value = 1
    print("no cycle, yet the screen lives as long as the observable does")
    print("")

    print("-- a weak reference becomes nil when its object goes --")
    var owner: PrimerScreen? = PrimerScreen("owner", report: { print($0) })
    weak let watcher = owner
    print("before: the watcher sees \(watcher?.name ?? "nil")")
    owner = nil
    print("after: the watcher sees \(watcher?.name ?? "nil")")
  }
}
