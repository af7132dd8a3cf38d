import ObserverScenarios

/// Closures stored by name, in the order their names were first used: stage 2's API over an
/// array, so that it keeps its order. Graded with the ready-made ``KeyedAdapter``: no adapter
/// of its own, one line to declare its shape.
final class NamedClosures<Value> {
  private var observers: [(name: String, observer: (Value) -> Void)] = []

  var value: Value {
    didSet {
      for entry in observers {
        entry.observer(value)
      }
    }
  }

  var observerCount: Int { observers.count }

  init(_ value: Value) { self.value = value }

  /// Stores `observer` under `name`, in place of the closure already stored under it.
  func bindObserver(forKey name: String, _ observer: @escaping (Value) -> Void) {
    if let index = observers.firstIndex(where: { $0.name == name }) {
      observers[index].observer = observer
    } else {
      observers.append((name, observer))
    }
  }

  /// Removes the closure stored under `name`.
  func removeObserver(forKey name: String) {
    observers.removeAll { $0.name == name }
  }
}

// Its shape, `AdaptableObservable, KeyedObservable where Value == Int`, is declared in
// DocExamples.swift, by the doc comment's example that names it `MyKeyedObservable`.

extension ObservableDesign {
  /// Named closures, graded through the ready-made adapter for stage 2's shape.
  static let namedClosures = ObservableDesign(
    id: "named", name: "named closures", title: "closures by name, in an array",
    module: "LibraryShapes", typeName: "NamedClosures<Int>",
    isSendable: ObservableDesign.isSendable(NamedClosures<Int>.self),
    adapter: KeyedAdapter<NamedClosures<Int>>.self)
}
