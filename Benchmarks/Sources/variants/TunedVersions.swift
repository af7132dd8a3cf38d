import Foundation
import Stage5Concurrency
import Stage5Tuned
import Stage5TunedAllocating
import Stage5TunedMutex
import Stage5TunedRetaining
import Stage5TunedTwoTrips
import Stage5TunedWeakToken
import Stage5TunedWrapped
import StageBench

/// Stage 5 tuned, versions of it that each go without one of its optimisations, and the lesson
/// it is compared with: what `bash Benchmarks/variants` measures, for appendix 05a.
///
/// Each version but one is the tuned module's own source with one patch of `Patches/` applied,
/// compiled as a module of its own; its row is named on the patch's first line. The version
/// without `@inlinable` is the tuned module itself, called from generic code that the compiler
/// may not specialize, as a caller outside the module would call it if its methods were not
/// inlinable.
package enum TunedVersions {
  /// The row every other is divided by.
  package static let baseline = "stage 5 tuned"

  /// The table's title.
  package static let title =
    "Stage 5 tuned, and each optimisation taken away alone: time per observer callback, "
    + "median of 7, as a multiple of stage 5 tuned's (its own in ns)"

  /// The floor, the tuned version, then one version per optimisation.
  package static let contenders: [Contender] = [
    .floor,
    Contender(name: baseline) { VersionBench<Stage5Tuned.Observable<Int>>() },
    Contender(name: "without @inlinable") { UnspecializedBench() },
    version("Mutex", Stage5TunedMutex.Observable<Int>.self),
    version("TwoTrips", Stage5TunedTwoTrips.Observable<Int>.self),
    version("Allocating", Stage5TunedAllocating.Observable<Int>.self),
    version("Retaining", Stage5TunedRetaining.Observable<Int>.self),
    version("Wrapped", Stage5TunedWrapped.Observable<Int>.self),
    version("WeakToken", Stage5TunedWeakToken.Observable<Int>.self),
    // The lesson, as chapter 5 shows it: what the tuned module is compared with.
    Contender(name: lessonAsAProduct) { VersionBench<Stage5Concurrency.Observable<Int>>() },
    Contender(name: lessonCopied) { VersionBench<Observable<Int>>() },
  ]

  /// The lesson's row as a package product: its generic code, not `@inlinable`, is not
  /// specialized for the caller's `Int`.
  package static let lessonAsAProduct = "the lesson (Stage5Concurrency), as a package product"
  /// The lesson's row as copied into the caller's module (`Sources/variants/Lesson` links to
  /// its copy list), where the compiler specializes it.
  package static let lessonCopied = "the lesson, copied into the caller's module"

  /// The row of the version that `Patches/PATCH.patch` makes, measured through its token API,
  /// named as the patch's first line says ("Row: two trips through the lock").
  private static func version<Version: TunedVersion>(
    _ patch: String, _: Version.Type
  ) -> Contender {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Patches/\(patch).patch")
    let firstLine = (try? String(contentsOf: file, encoding: .utf8))?
      .prefix { $0 != "\n" }
    guard let firstLine, firstLine.hasPrefix("Row: ") else {
      fatalError("\(file.path) does not start with 'Row: NAME'")
    }
    return Contender(name: String(firstLine.dropFirst("Row: ".count))) { VersionBench<Version>() }
  }

  /// Runs the bench on every version and returns the table, as Markdown. Throws `BenchError`
  /// when a running sum is wrong, and ``UnexpectedAllocations`` when a version does not
  /// allocate as its row says: one allocation a set for "an allocation per set", none for any
  /// other.
  package static func table(sizes: BenchSizes = .full) throws -> String {
    let report = try Bench.run(sizes: sizes, contenders: contenders)
    for row in report.rows where row.contender != "floor" {
      let expected: Double = row.contender == "an allocation per set" ? 1 : 0
      for fanOut in row.fanOut {
        guard let measured = fanOut.allocationsPerSet, measured != expected else { continue }
        throw UnexpectedAllocations(
          description: "\(row.contender) made \(measured) allocations a set at N="
            + "\(fanOut.observers), not \(expected)")
      }
    }
    return markdown(of: report)
  }

  /// The table of a run of ``contenders``, as Markdown.
  package static func markdown(of report: BenchReport) -> String {
    report.comparisonMarkdown(against: baseline, title: title) ?? ""
  }
}

/// A version that allocates otherwise than its row says.
package struct UnexpectedAllocations: Error, CustomStringConvertible {
  package var description: String
}

/// What the bench uses of one version: an `Observable<Int>` from one of the modules.
protocol TunedVersion: AnyObject, Sendable {
  init(_ value: Int)
  func set(_ value: Int)
  /// Observes on any thread, adding each value to `sum`; returns the token.
  func observe(adding sum: Sum) -> AnyObject
  /// Cancels a token that ``observe(adding:)`` returned.
  func cancel(_ token: AnyObject)
}

/// One version behind the bench's interface, through its token API, as `compare-stages
/// --bench` measures stage 5.
final class VersionBench<Version: TunedVersion>: BenchObservable {
  let observable = Version(0)

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    owner.token = observable.observe(adding: sum)
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    if let token = owner.token { observable.cancel(token) }
    owner.token = nil
  }

  func set(_ value: Int) { observable.set(value) }
}

/// The tuned module called from generic code that is never specialized: the code a caller in
/// another module runs when the module's generic methods are not `@inlinable`.
final class UnspecializedBench: BenchObservable {
  let observable = Stage5Tuned.Observable(0)

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    owner.token = observeUnspecialized(observable) { sum.add($0.newValue) }
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {
    (owner.token as? Stage5Tuned.ObservationToken)?.cancel()
    owner.token = nil
  }

  func set(_ value: Int) { setUnspecialized(observable, to: value) }
}

@inline(never) @_semantics("optimize.sil.specialize.generic.never")
private func setUnspecialized<Value: Sendable>(
  _ observable: Stage5Tuned.Observable<Value>, to value: Value
) {
  observable.value = value
}

@inline(never) @_semantics("optimize.sil.specialize.generic.never")
private func observeUnspecialized<Value: Sendable>(
  _ observable: Stage5Tuned.Observable<Value>,
  _ handler: @escaping @Sendable (Stage5Tuned.Change<Value>) -> Void
) -> AnyObject {
  observable.observeOnAnyThread(handler)
}

// Each module's `Observable<Int>`, behind the same small interface. The handler is written in
// each one, so that each is compiled for `Int`, as a caller's would be.

extension Stage5Tuned.Observable<Int>: TunedVersion {
  func set(_ value: Int) { self.value = value }
  func observe(adding sum: Sum) -> AnyObject { observeOnAnyThread { sum.add($0.newValue) } }
  func cancel(_ token: AnyObject) { (token as? Stage5Tuned.ObservationToken)?.cancel() }
}

extension Stage5Concurrency.Observable<Int>: TunedVersion {
  func set(_ value: Int) { self.value = value }
  func observe(adding sum: Sum) -> AnyObject { observeOnAnyThread { sum.add($0.newValue) } }
  func cancel(_ token: AnyObject) { (token as? Stage5Concurrency.ObservationToken)?.cancel() }
}

// The copy in this module: `Observable` here is the lesson's, from Sources/variants/Lesson.
extension Observable<Int>: TunedVersion {
  func set(_ value: Int) { self.value = value }
  func observe(adding sum: Sum) -> AnyObject { observeOnAnyThread { sum.add($0.newValue) } }
  func cancel(_ token: AnyObject) { (token as? ObservationToken)?.cancel() }
}

extension Stage5TunedMutex.Observable<Int>: TunedVersion {
  func set(_ value: Int) { self.value = value }
  func observe(adding sum: Sum) -> AnyObject { observeOnAnyThread { sum.add($0.newValue) } }
  func cancel(_ token: AnyObject) { (token as? Stage5TunedMutex.ObservationToken)?.cancel() }
}

extension Stage5TunedTwoTrips.Observable<Int>: TunedVersion {
  func set(_ value: Int) { self.value = value }
  func observe(adding sum: Sum) -> AnyObject { observeOnAnyThread { sum.add($0.newValue) } }
  func cancel(_ token: AnyObject) { (token as? Stage5TunedTwoTrips.ObservationToken)?.cancel() }
}

extension Stage5TunedAllocating.Observable<Int>: TunedVersion {
  func set(_ value: Int) { self.value = value }
  func observe(adding sum: Sum) -> AnyObject { observeOnAnyThread { sum.add($0.newValue) } }
  func cancel(_ token: AnyObject) {
    (token as? Stage5TunedAllocating.ObservationToken)?.cancel()
  }
}

extension Stage5TunedRetaining.Observable<Int>: TunedVersion {
  func set(_ value: Int) { self.value = value }
  func observe(adding sum: Sum) -> AnyObject { observeOnAnyThread { sum.add($0.newValue) } }
  func cancel(_ token: AnyObject) { (token as? Stage5TunedRetaining.ObservationToken)?.cancel() }
}

extension Stage5TunedWrapped.Observable<Int>: TunedVersion {
  func set(_ value: Int) { self.value = value }
  func observe(adding sum: Sum) -> AnyObject { observeOnAnyThread { sum.add($0.newValue) } }
  func cancel(_ token: AnyObject) { (token as? Stage5TunedWrapped.ObservationToken)?.cancel() }
}

extension Stage5TunedWeakToken.Observable<Int>: TunedVersion {
  func set(_ value: Int) { self.value = value }
  func observe(adding sum: Sum) -> AnyObject { observeOnAnyThread { sum.add($0.newValue) } }
  func cancel(_ token: AnyObject) { (token as? Stage5TunedWeakToken.ObservationToken)?.cancel() }
}
