import AllocationCounter
import Support

/// The sizes a bench run uses.
package struct BenchSizes: Sendable, Codable, Equatable {
  /// Observer counts for the fan-out and allocation tables.
  package var fanOut: [Int]
  /// Observer counts for the churn table; the growth factor compares the last with the first.
  package var churn: [Int]
  /// Observers registered for the memory table.
  package var memory: Int
  /// Observers released before the stale-entry table's sets.
  package var stale: Int
  /// Repetitions of each fan-out measurement.
  package var repetitions: Int
  /// Roughly how long each fan-out sample runs, in nanoseconds.
  package var sampleNanoseconds: Int

  /// The full run: N = 1, 10, 100, 1,000; churn of 1,000 and 10,000; 100,000 for memory.
  package static let full = BenchSizes(
    fanOut: [1, 10, 100, 1_000], churn: [1_000, 10_000], memory: 100_000, stale: 10_000,
    repetitions: 7, sampleNanoseconds: 10_000_000)

  /// Tiny sizes, so that a test can check every row in seconds.
  package static let quick = BenchSizes(
    fanOut: [1, 10], churn: [10, 100], memory: 100, stale: 100, repetitions: 2,
    sampleNanoseconds: 100_000)
}

/// A bench run's figures.
package struct BenchReport: Sendable, Codable {
  /// Time per observer callback at one N.
  package struct FanOut: Sendable, Codable {
    package var observers: Int
    package var medianNanoseconds: Double
    package var minNanoseconds: Double
    package var maxNanoseconds: Double
    /// The median divided by the floor's median at the same N.
    package var ratioToFloor: Double
    /// Heap allocations per set, once subscribed; `nil` when counting is off.
    package var allocationsPerSet: Double?
  }

  /// Adding then removing observers one at a time.
  package struct Churn: Sendable, Codable {
    package var observers: Int
    package var milliseconds: Double
  }

  /// One contender's figures.
  package struct Row: Sendable, Codable {
    package var contender: String
    package var stage: Int?
    package var fanOut: [FanOut]
    package var churn: [Churn]
    /// How much longer the largest churn took than the smallest; ×10 is linear, ×100 quadratic.
    package var churnGrowth: Double
    /// Whether churn removed observers (`false`: they were released instead).
    package var churnRemoves: Bool
    /// Heap bytes per registered observer; `nil` when counting is off.
    package var bytesPerObserver: Double?
    /// How many observers the memory figure was measured with.
    package var memoryObservers: Int
    /// The first set after the stale observers were released, in microseconds.
    package var firstSetAfterReleaseMicroseconds: Double
    /// The median of the next sets, in microseconds.
    package var laterSetMicroseconds: Double
  }

  package var sizes: BenchSizes
  package var allocationCounting: Bool
  package var rows: [Row]
}

extension BenchReport {
  /// A report with every row and column a run of `sizes` would have, and zero for every
  /// figure, allocation counting on: the shape that a copy of a bench table in the docs must
  /// keep.
  package static func shape(of sizes: BenchSizes, contenders: [Contender]) -> BenchReport {
    BenchReport(
      sizes: sizes, allocationCounting: true,
      rows: contenders.map { contender in
        Row(
          contender: contender.name, stage: contender.stage,
          fanOut: sizes.fanOut.map {
            FanOut(
              observers: $0, medianNanoseconds: 0, minNanoseconds: 0, maxNanoseconds: 0,
              ratioToFloor: 0, allocationsPerSet: 0)
          },
          churn: sizes.churn.map { Churn(observers: $0, milliseconds: 0) }, churnGrowth: 0,
          churnRemoves: contender.canUnsubscribe, bytesPerObserver: 0, memoryObservers: 0,
          firstSetAfterReleaseMicroseconds: 0, laterSetMicroseconds: 0)
      })
  }
}

/// A sum that came out wrong: a callback was skipped, doubled, or optimized away.
package struct BenchError: Error, CustomStringConvertible {
  package var description: String
}

/// Runs the bench.
package enum Bench {
  private static let clock = ContinuousClock()

  /// Measures every contender; the floor must be among them. Throws ``BenchError`` when a
  /// running sum is not what the sets should have produced.
  package static func run(
    sizes: BenchSizes = .full, contenders: [Contender]
  ) throws -> BenchReport {
    var samples: [[[Double]]] = contenders.map { _ in sizes.fanOut.map { _ in [] } }
    var setsPerSample: [[Int]] = contenders.map { _ in sizes.fanOut.map { _ in 1 } }

    // Calibrate, then interleave repetitions across every case, so that a noisy moment on a
    // shared machine spreads over all of them instead of landing on one. Contenders whose
    // observers run on another thread come after all the others.
    for measuresOtherThreads in [false, true] {
      // Each contender's index, and an N's, in the order they are measured.
      let cases = contenders.indices.filter {
        contenders[$0].deliversOnAnotherThread == measuresOtherThreads
      }.flatMap { c in sizes.fanOut.indices.map { n in (c, n) } }
      for (c, n) in cases {
        let probe = try timeFanOut(contenders[c], observers: sizes.fanOut[n], sets: 16)
        let perSet = max(probe, 1) / 16
        setsPerSample[c][n] = max(1, Int(Double(sizes.sampleNanoseconds) / perSet))
      }
      for _ in 0..<sizes.repetitions {
        for (c, n) in cases {
          let (sets, observers) = (setsPerSample[c][n], sizes.fanOut[n])
          let elapsed = try timeFanOut(contenders[c], observers: observers, sets: sets)
          samples[c][n].append(elapsed / Double(sets * observers))
        }
      }
    }

    let floorIndex = contenders.firstIndex { $0.name == Contender.floor.name }
    let floorMedians = floorIndex.map { samples[$0].map(median) }
    let counting = allocation_counter_is_active() != 0

    let rows = try contenders.enumerated().map { c, contender in
      let fanOut = try sizes.fanOut.enumerated().map { n, observers in
        let values = samples[c][n]
        return BenchReport.FanOut(
          observers: observers, medianNanoseconds: median(values),
          minNanoseconds: values.min() ?? 0, maxNanoseconds: values.max() ?? 0,
          ratioToFloor: floorMedians.map { median(values) / $0[n] } ?? 1,
          allocationsPerSet: counting ? try allocationsPerSet(contender, observers: observers) : nil
        )
      }
      let churn = sizes.churn.map {
        BenchReport.Churn(
          observers: $0, milliseconds: churnTime(contender, observers: $0, runs: sizes.repetitions))
      }
      let stale = try staleSets(contender, released: sizes.stale)
      let memoryObservers =
        contender.subscribingIsLinear
        ? min(sizes.memory, sizes.churn.last ?? sizes.memory) : sizes.memory
      return BenchReport.Row(
        contender: contender.name, stage: contender.stage, fanOut: fanOut, churn: churn,
        churnGrowth: (churn.last?.milliseconds ?? 0) / max(churn.first?.milliseconds ?? 1, 1e-9),
        churnRemoves: contender.canUnsubscribe,
        bytesPerObserver: counting ? bytesPerObserver(contender, observers: memoryObservers) : nil,
        memoryObservers: memoryObservers,
        firstSetAfterReleaseMicroseconds: stale.first, laterSetMicroseconds: stale.later)
    }
    return BenchReport(sizes: sizes, allocationCounting: counting, rows: rows)
  }

  // MARK: - Measurements

  /// A fresh observable with `observers` observers, warmed up by one set of 0 (which adds nothing
  /// to the sum). Keep the owners alive for as long as the observable is measured.
  private static func subscribed(_ contender: Contender, observers: Int) -> (
    observable: any BenchObservable, sum: Sum, owners: [BenchOwner]
  ) {
    let observable = contender.make()
    let sum = Sum(0)
    let owners = (0..<observers).map { _ in BenchOwner() }
    for (index, owner) in owners.enumerated() {
      observable.subscribe(owner, index: index, sum: sum)
    }
    observable.set(0)
    return (observable, sum, owners)
  }

  /// Nanoseconds for `sets` sets reaching `observers` observers, the sum checked.
  private static func timeFanOut(_ contender: Contender, observers: Int, sets: Int) throws -> Double
  {
    let (observable, sum, owners) = subscribed(contender, observers: observers)
    let start = clock.now
    for value in 1...sets { observable.set(value) }
    let elapsed = clock.now - start
    try check(sum, contender, observers: observers, values: 1...sets)
    withExtendedLifetime(owners) {}
    return elapsed / .nanoseconds(1)
  }

  /// Heap allocations per set, once subscribed and warmed up: those of 64 sets, divided by 64.
  package static func allocationsPerSet(_ contender: Contender, observers: Int) throws -> Double {
    let (observable, sum, owners) = subscribed(contender, observers: observers)
    let sets = 64
    let elsewhereBefore = observable.countersElsewhere().allocations
    let before = allocation_counter_allocations()
    for value in 1...sets { observable.set(value) }
    let after = allocation_counter_allocations()
    let elsewhereAfter = observable.countersElsewhere().allocations
    try check(sum, contender, observers: observers, values: 1...sets)
    withExtendedLifetime(owners) {}
    let counted = UInt64(after - before) + (elsewhereAfter - elsewhereBefore)
    return Double(counted) / Double(sets)
  }

  /// Milliseconds to add `observers` observers one at a time, then remove them (or release
  /// their owners, for a design without removal) one at a time, in the order they came: the
  /// least of up to `runs` runs, no more once they took a tenth of a second, so that a pause of
  /// a shared machine seldom lands on the figure, and a slow design runs once.
  private static func churnTime(_ contender: Contender, observers: Int, runs: Int) -> Double {
    var (least, total) = (Double.infinity, 0.0)
    for _ in 0..<runs where total < 100 {
      let observable = contender.make()
      let sum = Sum(0)
      var owners: [BenchOwner?] = (0..<observers).map { _ in BenchOwner() }
      let start = clock.now
      for index in 0..<observers { observable.subscribe(owners[index]!, index: index, sum: sum) }
      for index in 0..<observers {
        if contender.canUnsubscribe { observable.unsubscribe(owners[index]!, index: index) }
        owners[index] = nil
      }
      let milliseconds = (clock.now - start) / .milliseconds(1)
      withExtendedLifetime(observable) {}
      (least, total) = (min(least, milliseconds), total + milliseconds)
    }
    return least
  }

  /// Heap bytes held per registered observer, owners and closures' captures excluded.
  private static func bytesPerObserver(_ contender: Contender, observers: Int) -> Double {
    let owners = (0..<observers).map { _ in BenchOwner() }
    let sum = Sum(0)
    let observable = contender.make()
    let elsewhereBefore = observable.countersElsewhere().liveBytes
    let before = allocation_counter_live_bytes()
    for (index, owner) in owners.enumerated() {
      observable.subscribe(owner, index: index, sum: sum)
    }
    let after = allocation_counter_live_bytes()
    let elsewhereAfter = observable.countersElsewhere().liveBytes
    withExtendedLifetime((owners, observable)) {}
    let held = Int64(after - before) + (elsewhereAfter - elsewhereBefore)
    return Double(held) / Double(observers)
  }

  /// Microseconds for the first set after `released` observers' owners were released, and the
  /// median of the next 100, with one live observer throughout.
  private static func staleSets(_ contender: Contender, released: Int) throws -> (
    first: Double, later: Double
  ) {
    let observable = contender.make()
    let sum = Sum(0)
    let live = BenchOwner()
    observable.subscribe(live, index: 0, sum: sum)
    do {
      let owners = (0..<released).map { _ in BenchOwner() }
      for (index, owner) in owners.enumerated() {
        observable.subscribe(owner, index: index + 1, sum: sum)
      }
    }
    func microseconds(toSet value: Int) -> Double {
      let start = clock.now
      observable.set(value)
      return (clock.now - start) / .microseconds(1)
    }
    let first = microseconds(toSet: 1)
    let later = (2...101).map(microseconds(toSet:))
    withExtendedLifetime(live) {}
    return (first, median(later))
  }

  /// Fails loudly when the callbacks did not add up to what `values` should give.
  private static func check(
    _ sum: Sum, _ contender: Contender, observers: Int, values: ClosedRange<Int>
  ) throws {
    let delivered =
      contender.deliversPreviousValue ? (values.lowerBound - 1)...(values.upperBound - 1) : values
    let expected = observers &* delivered.reduce(0, &+)
    guard sum.value == expected else {
      throw BenchError(
        description: "bench: \(contender.name) summed \(sum.value) over \(observers) observers "
          + "and \(values.count) sets, not \(expected): a callback was skipped or doubled")
    }
  }
}
