import ObserverScenarios

/// An observable of your own: closures kept in an array with a token each, so that an
/// observer can be cancelled by the token it was given.
final class TokenObservable<Value> {
  private var observers: [(token: Int, observer: (Value) -> Void)] = []
  private var nextToken = 0

  var value: Value {
    didSet {
      for entry in observers {
        entry.observer(value)
      }
    }
  }

  var count: Int { observers.count }

  init(_ value: Value) { self.value = value }

  func observe(_ observer: @escaping (Value) -> Void) -> Int {
    nextToken += 1
    observers.append((nextToken, observer))
    return nextToken
  }

  func cancel(_ token: Int) {
    observers.removeAll { $0.token == token }
  }
}

/// Its adapter: what the scenarios ask for, in the observable's own words.
final class TokenAdapter: ScenarioObservable {
  private let observable: TokenObservable<Int>
  private var tokens: [ObjectIdentifier: [Int]] = [:]

  init(_ value: Int) { observable = TokenObservable(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.count }

  func subscribe(_ subscription: ScenarioSubscription) {
    let token = observable.observe(subscription.closure { .new($0) })
    tokens[ObjectIdentifier(subscription.owner), default: []].append(token)
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    for token in tokens.removeValue(forKey: ObjectIdentifier(subscription.owner)) ?? [] {
      observable.cancel(token)
    }
  }
}

/// What the scenarios need to know about it.
let design = ObservableDesign(
  id: "tokens", title: "closures in an array, cancelled by token", module: "GradeYourOwn",
  typeName: "TokenObservable<Int>", identity: .none,
  capabilities: [.unsubscribe, .storedEntryCount],
  isSendable: ObservableDesign.isSendable(TokenObservable<Int>.self),
  makeObservable: { TokenAdapter($0) })

print(ScenarioReport(designs: [design]).text(), terminator: "")
