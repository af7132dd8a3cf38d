import LifetimeTracking
import Stage1Closures
import Stage2KeyedDict
import Stage3WeakRefs
import Stage4Options

// MARK: - Stage 1

final class StoneAgeAdapter: ScenarioObservable {
  let observable: Stage1Closures.Observable<Int>

  init(_ value: Int) { observable = .init(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.observerCount }

  func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(subscription.closure { .new($0) })
  }

  func unsubscribe(owner: TrackedObject, key: String) {
    preconditionFailure("stage 1 has no removal")
  }
}

// MARK: - Stage 2

final class IronAgeAdapter: ScenarioObservable {
  let observable: Stage2KeyedDict.Observable<Int>

  init(_ value: Int) { observable = .init(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.observerCount }

  func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(forKey: subscription.key, subscription.closure { .new($0) })
  }

  func unsubscribe(owner: TrackedObject, key: String) {
    observable.removeObserver(forKey: key)
  }
}

// MARK: - Stage 3

final class InformationAgeAdapter: ScenarioObservable {
  let observable: Stage3WeakRefs.Observable<Int>

  init(_ value: Int) { observable = .init(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.observerCount }

  func subscribe(_ subscription: ScenarioSubscription) {
    observable.bindObserver(subscription.owner, closure: subscription.closure { .new($0) })
  }

  func unsubscribe(owner: TrackedObject, key: String) {
    preconditionFailure("stage 3 has no removal")
  }
}

// MARK: - Stage 4

final class OptionSetsAdapter: ScenarioObservable {
  let observable: Stage4Options.Observable<Int>

  init(_ value: Int) { observable = .init(value) }

  var value: Int {
    get { observable.value }
    set { observable.value = newValue }
  }

  var storedEntryCount: Int { observable.observerCount }

  func subscribe(_ subscription: ScenarioSubscription) {
    var options: ObservableOptions = [.new]
    if subscription.wantsInitial { options.insert(.initial) }
    if subscription.wantsOld { options.insert(.old) }
    let closure = subscription.closure { (value: Int, option: ObservableOptions) -> Delivery in
      switch option {
      case .initial: .initial(value)
      case .old: .old(value)
      default: .new(value)
      }
    }
    observable.addObserver(subscription.owner, options: options) { closure(($0, $1)) }
  }

  func unsubscribe(owner: TrackedObject, key: String) {
    observable.removeObserver(owner)
  }
}
