import ObserverScenarios
import StageBench
import Support

/// The design catalog's entry for one design of this package, a stage or a platform
/// reference, with everything the scenarios, the bench, `compare-stages` and the tutorial read
/// about it: the one place its facts are written.
///
/// Each entry lives in a file of its own in this module, beside its adapters: its design for the
/// scenarios (``design``), its contenders for the bench, and, for a stage, who holds whom. A
/// stage is one entry, made by `stage(…)`, and the conformance that gives its observable its
/// shape and says how the bench subscribes to it.
package struct CatalogEntry: Sendable, Identifiable {
  /// What the scenarios know of it: names, capabilities, documented verdicts, and a factory.
  package var design: ObservableDesign
  /// How the bench measures it: usually one contender, stage 5 has a second on the main actor.
  package var contenders: [Contender]
  /// Who holds whom once a screen has subscribed, for a stage.
  package var graph: ReferenceGraph?

  /// The name `--stage` takes.
  package var id: String { design.id }
  /// The stage's number, for a stage.
  package var stageNumber: Int? { design.stageNumber }
}

extension CatalogEntry {
  /// The stages, in order: the one list of them.
  package static let stages: [CatalogEntry] = [
    .closures, .keyedDict, .weakRefs, .options, .concurrency,
  ]

  /// The platform's references this platform can run: `Observations` needs the Observation
  /// module of Swift 6.2, which Apple's OS versions have from 26 on.
  package static var references: [CatalogEntry] {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      [.notificationCenter, .observation, .observations]
    } else {
      [.notificationCenter, .observation]
    }
  }

  /// The names of the references this platform cannot run: empty where every one runs,
  /// `Observations` on an Apple OS before 26. A table measured where they run has their rows.
  package static var namesOfReferencesMissingHere: [String] {
    [observationsName].filter { name in !references.contains { $0.design.name == name } }
  }

  /// Every design's entry: the stages, then the references.
  package static var all: [CatalogEntry] { stages + references }

  /// The entry of the design `--stage` names, by its id ("2", "observation") or its short name
  /// ("keyed").
  package static func named(_ name: String) -> CatalogEntry? {
    all.first { $0.id == name || $0.design.shortName == name }
  }

  /// What the bench measures: the harness alone, then the floor and the closure array it
  /// compares with, then every design's contenders.
  package static var contenders: [Contender] {
    [.harness, .floor, .closureArray] + all.flatMap(\.contenders)
  }
}

extension CatalogEntry {
  /// Stage `number`, whose observable `adapter` drives: the one entry a stage needs, beside the
  /// conformance that says how the bench subscribes to its observable. Its id, name and role
  /// come from the number, its module and type name from the observable's type, its bench
  /// contender and its graph's sample from that conformance; the rest is the stage's own.
  static func stage<Adapter: ShapeAdapter>(
    _ number: Int, shortName: String, title: String, chapter: TutorialChapter,
    adapter: Adapter.Type, isSendable: Bool,
    addingCapabilities: Set<ObservableDesign.Capability> = [],
    documentedFlaws: Set<Scenario.Name>, graph: ReferenceGraph,
    allocationsPerSet: @escaping @Sendable (_ observers: Int) -> Double = { _ in 0 }
  ) -> CatalogEntry where Adapter.Observable: BenchObservable {
    let module = String(String(reflecting: Adapter.Observable.self).prefix { $0 != "." })
    let design = ObservableDesign(
      id: "\(number)", name: "stage \(number)", shortName: shortName, title: title,
      module: module, typeName: "\(module).Observable<Int>", chapter: chapter.path,
      role: .stage(number), addingCapabilities: addingCapabilities, isSendable: isSendable,
      documentedFlaws: documentedFlaws, adapter: adapter)
    return CatalogEntry(
      design: design,
      contenders: [
        Contender(design, allocationsPerSet: allocationsPerSet) { Adapter.Observable(0) }
      ],
      graph: graph)
  }

  /// A platform's reference, measured by the bench through the observable `bench` makes.
  static func reference(
    _ design: ObservableDesign, bench: @escaping @Sendable () -> any BenchObservable
  ) -> CatalogEntry {
    CatalogEntry(design: design, contenders: [Contender(design, make: bench)])
  }
}

extension Contender {
  /// The bench's contender for `design`, its facts read from it; its name is the design's by
  /// default, and `allocationsPerSet` is `nil` for a design whose allocations are measured, not
  /// documented.
  init(
    _ design: ObservableDesign, name: String? = nil,
    allocationsPerSet: (@Sendable (_ observers: Int) -> Double)? = nil,
    make: @escaping @Sendable () -> any BenchObservable
  ) {
    self.init(
      name: name ?? design.name, stage: design.stageNumber,
      deliversPreviousValue: design.has(.deliversBeforeWrite),
      canUnsubscribe: design.has(.unsubscribe),
      subscribingIsLinear: design.has(.linearSubscribe), allocationsPerSet: allocationsPerSet,
      make: make)
  }
}

/// A stage's observable is its own bench observable, so that a set calls its setter directly, as
/// every other contender's does: its conformance, in the stage's file, says how it subscribes,
/// and how it unsubscribes if it can.
extension BenchObservable where Self: AdaptableObservable {
  /// A stage with no removal does nothing: the bench releases the owner instead.
  package func unsubscribe(_ owner: BenchOwner, index: Int) {}

  package func set(_ value: Int) { self.value = value }
}

extension CatalogEntry: Equatable {
  /// Two entries are the same when they have the same id.
  package static func == (lhs: CatalogEntry, rhs: CatalogEntry) -> Bool { lhs.id == rhs.id }
}

extension CatalogEntry: CustomStringConvertible {
  /// What prose calls it: "stage 2", "NotificationCenter".
  package var description: String { design.name }
}
