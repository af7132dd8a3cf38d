import ObserverScenarios

/// An observable shaped like RxSwift's `Bag`: its first observer sits in a field of its own, the
/// next 30 in an array, and any more in a dictionary keyed by token. Calls keep subscription
/// order for 31 observers; past them, the dictionary picks.
final class ThresholdBagObservable<Value> {
  private var first: (token: Int, observer: (Value) -> Void)?
  private var pairs: [(token: Int, observer: (Value) -> Void)] = []
  private var overflow: [Int: (Value) -> Void] = [:]
  private var nextToken = 0
  /// How many observers the array keeps before the dictionary takes the rest.
  static var arrayCapacity: Int { 30 }

  var value: Value {
    didSet {
      first?.observer(value)
      for pair in pairs {
        pair.observer(value)
      }
      for observer in overflow.values {
        observer(value)
      }
    }
  }

  var count: Int { (first == nil ? 0 : 1) + pairs.count + overflow.count }

  init(_ value: Value) { self.value = value }

  func observe(_ observer: @escaping (Value) -> Void) -> Int {
    nextToken += 1
    if first == nil {
      first = (nextToken, observer)
    } else if pairs.count < Self.arrayCapacity {
      pairs.append((nextToken, observer))
    } else {
      overflow[nextToken] = observer
    }
    return nextToken
  }

  func cancel(_ token: Int) {
    if first?.token == token {
      first = nil
    } else if let index = pairs.firstIndex(where: { $0.token == token }) {
      pairs.remove(at: index)
    } else {
      overflow[token] = nil
    }
  }
}

/// Its adapter: tokens filed by owner, as an adapter that keeps them itself does.
final class ThresholdBagAdapter: ScenarioObservable {
  private let observable: ThresholdBagObservable<Int>
  private var tokens: [ObjectIdentifier: [Int]] = [:]

  init(_ value: Int) { observable = ThresholdBagObservable(value) }

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

extension ObservableDesign {
  /// Order kept up to 31 observers, then a dictionary's.
  static let thresholdBag = ObservableDesign(
    id: "threshold-bag", title: "31 observers in order, the rest in a dictionary",
    module: "LibraryShapes", typeName: "ThresholdBagObservable<Int>", identity: .none,
    capabilities: [.unsubscribe, .storedEntryCount],
    isSendable: ObservableDesign.isSendable(ThresholdBagObservable<Int>.self),
    makeObservable: { ThresholdBagAdapter($0) })
}
