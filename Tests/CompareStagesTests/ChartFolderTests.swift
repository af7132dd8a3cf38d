import CommandSupport
import CompareStagesKit
import DesignCatalog
import Foundation
import StageBench
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `compare-stages bench --quick --chart path`.
private func benchCharts(into path: String) -> CommandRun {
  compareStages(["bench", "--quick", "--chart", path])
}

/// On the main actor, as the bench needs (its main-actor contenders assume it): should a
/// folder not be refused, the bench runs, and the test fails rather than crashes.
@MainActor
@Suite("compare-stages bench --chart: a folder that cannot take the charts is refused at once")
struct ChartFolderTests {
  @Test("a folder with a chart's name: one line, exit 64, no report, nothing written")
  func chartNameTakenByAFolder() throws {
    try withTemporaryFolder("chart-folder") { temporary in
      let folder = temporary.appendingPathComponent("charts", isDirectory: true)
      let taken = folder.appendingPathComponent("bench-churn.svg")
      try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
      let result = benchCharts(into: folder.path)
      #expect(result.status == .usage)
      #expect(result.output.isEmpty)
      #expect(
        result.error
          == "compare-stages: cannot write chart '\(taken.path)': a folder has its name (valid: a "
          + "folder that can be created and written); see 'compare-stages --help'\n")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bench-churn.svg"])
    }
  }

  @Test(
    "a folder that exists but takes no file (/proc/1): one line with the reason, exit 64",
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/1"), "no /proc/1 here"))
  func folderThatTakesNoFile() {
    let result = benchCharts(into: "/proc/1")
    #expect(result.status == .usage)
    #expect(result.output.isEmpty)
    #expect(result.error.hasPrefix("compare-stages: cannot write charts into '/proc/1': "))
    #expect(
      result.error.hasSuffix(
        " (valid: a folder that can be created and written); see 'compare-stages --help'\n"))
    #expect(!result.error.contains("Error Domain"))
    #expect(result.error.filter { $0 == "\n" }.count == 1)
  }

  @Test(
    "a folder without write permission: one line, exit 64 (root ignores modes, so not as root)",
    .enabled(if: geteuid() != 0, "root can write into a folder of mode 555"))
  func readOnlyFolder() throws {
    try withTemporaryFolder("chart-folder") { temporary in
      let folder = temporary.appendingPathComponent("charts", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      chmod(folder.path, 0o555)
      let result = benchCharts(into: folder.path)
      #expect(result.status == .usage)
      #expect(result.output.isEmpty)
      #expect(
        result.error
          == "compare-stages: cannot write charts into '\(folder.path)': Permission denied "
          + "(valid: a folder that can be created and written); see 'compare-stages --help'\n")
    }
  }

  @Test("the check leaves a good folder as it found it: made if missing, nothing else in it")
  func checkLeavesNothing() throws {
    try withTemporaryFolder("chart-folder") { temporary throws in
      let folder = temporary.appendingPathComponent("charts", isDirectory: true)
      #expect(CompareStagesCommand.chartFolderProblem(folder) == nil)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
  }

  @Test("every chart a bench can write is among the names checked before it runs")
  func chartNames() throws {
    let checked = Set(CompareStagesCommand.chartNames)
    // The charts of every kind of run, not only of the shape the names are taken from: each
    // size, allocations counted or not, with every contender.
    for sizes in [BenchSizes.quick, .full] {
      for counting in [true, false] {
        var report = BenchReport.shape(of: sizes, contenders: CatalogEntry.contenders)
        report.allocationCounting = counting
        for chart in BenchCharts.charts(of: report) {
          #expect(
            checked.contains(chart.name),
            "a run (counting: \(counting)) writes \(chart.name), which is not checked")
        }
      }
    }
    // The charts a real run wrote: appendix 06a's, recorded by
    // `compare-stages bench --chart Tutorial/images`.
    let recorded = try FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appending(path: "Tutorial/images").path
    ).filter { $0.hasPrefix("bench-") && $0.hasSuffix(".svg") }
    #expect(!recorded.isEmpty, "Tutorial/images holds no recorded chart")
    for name in recorded {
      #expect(checked.contains(name), "the recorded run wrote \(name), which is not checked")
    }
  }

  @Test(
    "a chart that cannot be written after the run is named in one line, with the system's reason",
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/1"), "no /proc/1 here"))
  func writeFailure() {
    let failure = CompareStagesCommand.writeCharts(
      [(name: "bench-fanout.svg", svg: "<svg/>")], into: URL(fileURLWithPath: "/proc/1"))
    #expect(failure?.hasPrefix("cannot write chart /proc/1/bench-fanout.svg: ") == true)
    #expect(failure?.contains("Error Domain") == false)
  }

  @Test("charts are written whole, each in one step: no temporary file is left beside them")
  func writtenWhole() throws {
    try withTemporaryFolder("chart-folder") { temporary in
      let folder = temporary.appendingPathComponent("charts", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data("old".utf8).write(to: folder.appendingPathComponent("bench-fanout.svg"))
      #expect(
        CompareStagesCommand.writeCharts(
          [(name: "bench-fanout.svg", svg: "<svg/>")], into: folder)
          == nil)
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bench-fanout.svg"])
      #expect(
        try String(contentsOf: folder.appendingPathComponent("bench-fanout.svg"), encoding: .utf8)
          == "<svg/>")
    }
  }
}
