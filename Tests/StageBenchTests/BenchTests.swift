import AllocationCounter
import CommandSupport
import CompareStagesKit
import DesignCatalog
import Foundation
import ObserverScenarios
import StageBench
import Support
import TestSupport
import Testing

/// A design that skips every other callback: the bench must refuse its figures.
private final class SkippingBenchObservable: BenchObservable {
  var observers: [(Int) -> Void] = []
  var calls = 0

  func subscribe(_ owner: BenchOwner, index: Int, sum: Sum) {
    observers.append { sum.add($0) }
  }

  func unsubscribe(_ owner: BenchOwner, index: Int) {}

  func set(_ value: Int) {
    calls += 1
    guard calls.isMultiple(of: 2) else { return }
    for observer in observers { observer(value) }
  }
}

/// Whether heap allocations are counted in this build: on glibc (Linux), unsanitized, only. The
/// counter defines `malloc` and forwards to glibc's `__libc_malloc`; elsewhere, on Apple
/// platforms included, it compiles to queries that say counting is off.
private let countingIsActive = allocation_counter_is_active() != 0

/// Allocation counts describe optimized code: a debug build boxes values and closures that an
/// optimized one does not, so the exact counts are checked by `swift test -c release`.
#if DEBUG
  private let isOptimized = false
#else
  private let isOptimized = true
#endif

// On the main actor: the bench measures stage 5 with a main-actor handler, set from the main
// actor, as compare-stages does from its main thread.
@Suite("compare-stages bench")
@MainActor
struct BenchTests {
  @Test("--quick produces every table, with a row for every stage and reference")
  func quickStructure() throws {
    let result = CommandRun { CompareStagesCommand.run(["bench", "--quick"], io: $0) }
    #expect(result.status == .success)
    // The harness, the two baselines, then each design's contenders in catalog order.
    let expectedRows = CatalogEntry.contenders.map(\.name)
    #expect(
      expectedRows.prefix(3) == ["harness", "floor", "closure array"],
      "the harness and the baselines come first")
    var titles = ["Fan-out:", "Churn:", "Stale entries:"]
    if countingIsActive { titles += ["Heap allocations per set", "Memory:"] }
    let tables = result.output.components(separatedBy: "\n\n")
    for title in titles {
      let table = try #require(tables.first { $0.hasPrefix(title) }, "no \(title) table")
      let rows = table.split(separator: "\n").dropFirst(2).map { String($0) }
      #expect(rows.map { $0.components(separatedBy: "  ").first ?? "" } == expectedRows, "\(title)")
    }
  }

  @Test("JSON carries the same figures, for every contender and size")
  func quickJSON() throws {
    let result = CommandRun {
      CompareStagesCommand.run(["bench", "--quick", "--format", "json"], io: $0)
    }
    #expect(result.status == .success)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let rows = try #require(object["rows"] as? [[String: Any]])
    #expect(rows.count == CatalogEntry.contenders.count)
    #expect(rows.map { $0["contender"] as? String } == CatalogEntry.contenders.map(\.name))
    for row in rows {
      let fanOut = try #require(row["fanOut"] as? [[String: Any]])
      #expect(fanOut.map { $0["observers"] as? Int } == [1, 10])
      for cell in fanOut {
        let median = try #require(cell["medianNanoseconds"] as? Double)
        #expect(median > 0)
        #expect((cell["minNanoseconds"] as? Double ?? .infinity) <= median)
        #expect((cell["maxNanoseconds"] as? Double ?? 0) >= median)
      }
      #expect((row["churn"] as? [[String: Any]])?.count == 2)
      #expect(row["laterSetMicroseconds"] is Double)
    }
    #expect(object["allocationCounting"] as? Bool == countingIsActive)
  }

  @Test("a figure JSON cannot hold (a ratio over a floor timed at 0 ns) is written, not a crash")
  func infiniteFigure() {
    struct Figures: Encodable {
      var ratioToFloor: Double
      var churnGrowth: Double
    }
    #expect(
      prettyJSON(Figures(ratioToFloor: .infinity, churnGrowth: .nan))
        == "{\n  \"churnGrowth\" : \"NaN\",\n  \"ratioToFloor\" : \"Infinity\"\n}\n")
  }

  @Test(
    "tables and charts round to 1, 2, 3 or 5 times a power of ten: a rerun that moves no rounded figure prints the same bytes"
  )
  func roundedFigures() throws {
    /// A report whose figures are `scale` times a spread of raw ones, the floor's kept.
    func report(scale: Double, churn: Double = 1) -> BenchReport {
      var report = BenchReport.shape(of: .quick, contenders: [.floor, .closureArray])
      for (r, raw) in [(0, 15.8), (1, 26.1)] {
        for n in report.rows[r].fanOut.indices {
          report.rows[r].fanOut[n].medianNanoseconds = raw * (r == 0 ? 1 : scale) / Double(n + 1)
          report.rows[r].fanOut[n].ratioToFloor = r == 0 ? 1 : 26.1 * scale / 15.8
        }
        for (c, observers) in [10, 100].enumerated() {
          report.rows[r].churn[c].milliseconds = 0.21 * churn * Double(observers)
        }
        report.rows[r].churnGrowth = 10.3 * churn
        report.rows[r].bytesPerObserver = 92.4
        report.rows[r].firstSetAfterReleaseMicroseconds = 120 * scale
        report.rows[r].laterSetMicroseconds = 0.04
      }
      return report
    }
    let recorded = report(scale: 1)
    let markdown = recorded.markdown
    #expect(markdown.contains("| floor | ×1 (20 ns) | ×1 (10 ns) |"), "\(markdown)")
    #expect(markdown.contains("| closure array | ×2 | ×2 |"), "26.1 / 15.8 is 1.65: ×2")
    #expect(markdown.contains("| closure array | 2 | 20 | ×10 | remove |"))
    #expect(markdown.contains("| floor | 92 | 0 |"), "bytes to the byte")
    #expect(markdown.contains("| closure array | 100 | 0 |"), "120 µs is 100, 0.04 is 0")
    // 26.1 ns moving to 30.0 (×1.90), the churn by 10%: no rounded figure moves.
    let rerun = report(scale: 1.15, churn: 1.1)
    #expect(rerun.markdown == markdown)
    #expect(BenchCharts.charts(of: rerun).map(\.svg) == BenchCharts.charts(of: recorded).map(\.svg))
    // Past ×2.45 (here ×2.81), the ratio is ×3: those cells and the fan-out chart move, nothing else.
    let moved = report(scale: 1.7)
    #expect(moved.markdown.contains("| closure array | ×3 | ×3 |"))
    let (before, after) = (BenchCharts.charts(of: recorded), BenchCharts.charts(of: moved))
    #expect(zip(before, after).map { $0.svg == $1.svg } == [false, true, true])
  }

  @Test("--chart writes three SVG charts, each with a title, axis labels and every contender")
  func charts() throws {
    // A folder not made yet: the bench makes it.
    try withTemporaryFolder("bench-charts") { temporary in
      let folder = temporary.appendingPathComponent("charts")
      let result = CommandRun {
        CompareStagesCommand.run(["bench", "--quick", "--chart", folder.path], io: $0)
      }
      #expect(result.status == .success)
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      let expected =
        ["bench-churn.svg", "bench-fanout.svg"] + (countingIsActive ? ["bench-memory.svg"] : [])
      #expect(names == expected.sorted())
      for name in names {
        let svg = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""), "\(name)")
        #expect(svg.contains("<text class=\"title\""), "\(name)")
        #expect(svg.contains("prefers-color-scheme: dark"), "\(name)")
        for contender in CatalogEntry.contenders {
          #expect(
            svg.contains("data-contender=\"\(contender.name)\""), "\(name): \(contender.name)")
        }
      }
      let fanOut = try String(
        contentsOf: folder.appendingPathComponent("bench-fanout.svg"), encoding: .utf8)
      #expect(fanOut.contains("observers notified by one set, N"))
      #expect(fanOut.contains("× the floor, median"))
    }
  }

  @Test("--chart into a folder that cannot be made fails at once, with one line and exit 64")
  func chartFolderThatCannotBeMade() {
    let result = CommandRun {
      CompareStagesCommand.run(["bench", "--quick", "--chart", "/proc/no-such-folder"], io: $0)
    }
    #expect(result.status == .usage)
    #expect(result.output.isEmpty)
    #expect(
      result.error
        == "compare-stages: cannot write charts into '/proc/no-such-folder': No such file or "
        + "directory (valid: a folder that can be created and written); see "
        + "'compare-stages --help'\n")
  }

  @Test("markdown: one table per measurement")
  func quickMarkdown() {
    let result = CommandRun {
      CompareStagesCommand.run(["bench", "--quick", "--format", "markdown"], io: $0)
    }
    let output = result.output
    #expect(output.contains("**Fan-out: time per observer callback"))
    #expect(output.contains("| contender | N=1 | N=10 |\n| --- | ---: | ---: |\n| harness | "))
    #expect(output.contains("| stage 5 |"))
  }

  @Test("a debug build warns, in one line on stderr, that timings need -c release")
  func debugWarning() {
    let result = CommandRun {
      CompareStagesCommand.run(["bench", "--quick"], io: $0, isDebugBuild: true)
    }
    #expect(
      result.error
        == "compare-stages: this is a debug build; timings are only meaningful with "
        + "'swift run -c release compare-stages bench'\n")
    let release = CommandRun {
      CompareStagesCommand.run(["bench", "--quick"], io: $0, isDebugBuild: false)
    }
    #expect(release.error.isEmpty)
  }

  @Test("a running sum that is wrong fails the bench loudly")
  func wrongSumFails() {
    let skipping = Contender(name: "skipping", make: { SkippingBenchObservable() })
    #expect {
      try Bench.run(sizes: .quick, contenders: [skipping])
    } throws: { error in
      "\(error)".hasPrefix("bench: skipping summed ")
    }
  }

  @Test(
    "allocations per set are exact, as each contender documents them: none for stages 1 to 3 and both stage 5 modules, 2·(⌈log₂N⌉ + 1) for stage 4",
    .enabled(
      if: countingIsActive,
      "allocation counting is off in this build: it is sanitized, or its C library is not glibc"),
    .enabled(if: isOptimized, "exact counts need an optimized build: swift test -c release"),
    arguments: [1, 10, 100, 1_000])
  func allocations(observers: Int) throws {
    let documented =
      [Contender.harness, .floor, .closureArray] + CatalogEntry.all.flatMap(\.contenders)
    for contender in documented {
      guard let expected = contender.allocationsPerSet else { continue }
      let counted = try Bench.allocationsPerSet(contender, observers: observers)
      #expect(counted == expected(observers), "\(contender.name) at N=\(observers)")
    }
    // Every stage documents its allocations; only the platform's references are measured.
    for stage in CatalogEntry.stages {
      #expect(stage.contenders.allSatisfy { $0.allocationsPerSet != nil }, "\(stage.id)")
    }
  }

  @Test(
    "stage 5 tuned holds at most 200 heap bytes per observer",
    .enabled(
      if: countingIsActive,
      "allocation counting is off in this build: it is sanitized, or its C library is not glibc"))
  func tunedMemory() throws {
    let tuned = try #require(CatalogEntry.contenders.first { $0.name == "stage 5 tuned" })
    var sizes = BenchSizes.quick
    sizes.memory = 10_000
    let rows = try Bench.run(sizes: sizes, contenders: [tuned]).rows
    let bytes = try #require(rows.first?.bytesPerObserver)
    #expect(bytes <= 200, "stage 5 tuned: \(bytes) bytes per observer")
    // A subscription and its handler's box, with the list's slot and id: more than nothing.
    #expect(bytes > 64, "stage 5 tuned: \(bytes) bytes per observer, too few to be measured")
  }
}
