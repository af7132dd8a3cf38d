import ObserverScenarios

/// What ``TokenInOwnerObservable/observe(_:)`` hands back: the subscription lasts as long as
/// the token, as Combine's `AnyCancellable` does.
final class Cancellable {
  private var onCancel: (() -> Void)?

  init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

  func cancel() {
    onCancel?()
    onCancel = nil
  }

  deinit { cancel() }
}

/// An observable of anonymous closures, each kept until its token is cancelled or freed. App
/// code keeps the token in the object that observes, so the subscription ends with it.
final class TokenInOwnerObservable<Value> {
  private var observers: [(id: Int, observer: (Value) -> Void)] = []
  private var nextID = 0

  var value: Value {
    didSet {
      for entry in observers {
        entry.observer(value)
      }
    }
  }

  var count: Int { observers.count }

  init(_ value: Value) { self.value = value }

  func observe(_ observer: @escaping (Value) -> Void) -> Cancellable {
    nextID += 1
    let id = nextID
    observers.append((id, observer))
    return Cancellable { [weak self] in self?.observers.removeAll { $0.id == id } }
  }
}

/// Its adapter keeps nothing: each token is stored on the owner, where app code keeps it.
final class TokenInOwnerAdapter: ScenarioObservable {
  private let observable: TokenInOwnerObservable<Int>

  init(_ value: Int) { observable = TokenInOwnerObservable(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.count }

  func subscribe(_ subscription: ScenarioSubscription) {
    subscription.storeInOwner(observable.observe(subscription.closure { .new($0) }))
  }

  func unsubscribe(_ subscription: ScenarioSubscription) {
    for case let token as Cancellable in subscription.removeTokensFromOwner() {
      token.cancel()
    }
  }
}

extension ObservableDesign {
  /// Tokens kept by their owners.
  static let tokenInOwner = ObservableDesign(
    id: "token-in-owner", title: "anonymous closures, each token kept by its owner",
    module: "LibraryShapes", typeName: "TokenInOwnerObservable<Int>", identity: .none,
    capabilities: [.unsubscribe, .storedEntryCount],
    inapplicableScenarios: [
      .sameObserverTwice:
        "closures are anonymous: subscribing twice is asking for two subscriptions"
    ],
    isSendable: ObservableDesign.isSendable(TokenInOwnerObservable<Int>.self),
    makeObservable: { TokenInOwnerAdapter($0) })
}
