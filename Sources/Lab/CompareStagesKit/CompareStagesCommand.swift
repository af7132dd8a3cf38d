import CommandSupport
import DesignCatalog
import Foundation
import ObserverScenarios
import StageBench
import Support

/// The `compare-stages` command, as a function from arguments to output, so tests can run it.
package enum CompareStagesCommand {
  /// The tool's version.
  package static let version = "0.1.0"

  /// Runs the command on `arguments`, without the program name: writes what it prints to `io`,
  /// and returns how it ended: ``ExitCode/failure`` if a verdict differs from the documented
  /// table or a bench sum came out wrong; ``ExitCode/usage`` on bad input, named in one line on
  /// standard error. `isDebugBuild` warns that timings mean little in a debug build.
  package static func run(
    _ arguments: [String], io: CommandIO, isDebugBuild: Bool = false
  ) -> ExitCode {
    guard let command = io.parseReportingUsage(try Command.parse(arguments)) else { return .usage }
    switch command {
    case .help:
      io.write(help)
    case .version:
      io.print("compare-stages \(version)")
    case .list:
      io.write(list)
    case .explain(let name, let withPlatform):
      io.write(explanation(of: name.scenario, withPlatform: withPlatform))
    case .bench(let format, let quick, let chartDirectory):
      return bench(
        format: format, quick: quick, chartDirectory: chartDirectory, io: io,
        isDebugBuild: isDebugBuild)
    case .graph(let graph):
      io.write(graph.mermaid)
    case .trace(let name, let entry, let format):
      let trace = name.scenario.trace(on: entry.design).trace
      io.write(format == .mermaid ? trace.mermaid : trace.text)
    case .compare(let format, let scenarios, let columns):
      return print(
        ScenarioReport(
          scenarios: scenarios.isEmpty ? Scenario.Name.allCases : scenarios,
          designs: (columns.isEmpty ? CatalogEntry.stages : columns).map(\.design)),
        as: format, io: io)
    }
    return .success
  }

  /// Runs the bench and prints its report; writes the charts into `chartDirectory` if given.
  ///
  /// The folder is made, and checked to be writable, before the bench runs, so that a bad one
  /// fails at once. A chart that still cannot be written once the bench has run is named on
  /// standard error after the report, and the status is ``ExitCode/ioError``.
  private static func bench(
    format: OutputFormat, quick: Bool, chartDirectory: String?, io: CommandIO,
    isDebugBuild: Bool
  ) -> ExitCode {
    let folder = chartDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
    if let folder, let problem = chartFolderProblem(folder) {
      return io.usageError("compare-stages", problem)
    }
    if isDebugBuild {
      io.printError(
        "compare-stages: this is a debug build; timings are only meaningful with "
          + "'swift run -c release compare-stages bench'")
    }
    let report: BenchReport
    do {
      report = try Bench.run(sizes: quick ? .quick : .full, contenders: CatalogEntry.contenders)
    } catch {
      // A sum that came out wrong says which; anything else in the system's words.
      io.printError("compare-stages: \((error as? BenchError)?.description ?? reason(of: error))")
      return .failure
    }
    switch format {
    case .text: io.write(report.text)
    case .markdown: io.write(report.markdown)
    case .json: io.write(report.json)
    }
    if let folder, let failure = writeCharts(BenchCharts.charts(of: report), into: folder) {
      io.printError("compare-stages: \(failure)")
      return .ioError
    }
    return .success
  }

  /// Every name a chart of `bench --chart` may have: those of a report with every chart.
  package static var chartNames: [String] {
    BenchCharts.charts(of: BenchReport.shape(of: .quick, contenders: [])).map(\.name)
  }

  /// Why `folder` cannot take the charts, as a usage problem, or `nil` when it can: it is made
  /// if missing, then a file is created in it and removed, and no chart's name may be taken by
  /// a folder, which a chart cannot replace.
  package static func chartFolderProblem(_ folder: URL) -> String? {
    let valid = "(valid: a folder that can be created and written)"
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let probe = folder.appendingPathComponent(".compare-stages-\(UUID().uuidString)")
      try Data().write(to: probe, options: .withoutOverwriting)
      try FileManager.default.removeItem(at: probe)
    } catch {
      return "cannot write charts into '\(folder.path)': \(reason(of: error)) \(valid)"
    }
    for name in chartNames {
      var isFolder: ObjCBool = false
      let path = folder.appendingPathComponent(name).path
      if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
        return "cannot write chart '\(path)': a folder has its name \(valid)"
      }
    }
    return nil
  }

  /// Writes each chart into `folder`, each in one step, so that no chart is ever half written:
  /// `nil` when all were written, else the problem, naming the chart that was not. The charts
  /// before it stay, whole.
  package static func writeCharts(_ charts: [(name: String, svg: String)], into folder: URL)
    -> String?
  {
    for chart in charts {
      let url = folder.appendingPathComponent(chart.name)
      do {
        try Data(chart.svg.utf8).write(to: url, options: .atomic)
      } catch {
        return "cannot write chart \(url.path): \(reason(of: error))"
      }
    }
    return nil
  }

  /// Prints `report` in `format`, and names each verdict that differs from the documented
  /// table on standard error: ``ExitCode/failure`` if any does.
  package static func print(
    _ report: ScenarioReport, as format: OutputFormat, io: CommandIO
  ) -> ExitCode {
    switch format {
    case .text: io.write(report.text(color: io.allowsColor))
    case .markdown: io.write(report.markdown)
    case .json: io.write(report.json)
    }
    let mismatches = report.mismatches
    for mismatch in mismatches {
      io.printError("compare-stages: mismatch: \(mismatch)")
    }
    return mismatches.isEmpty ? .success : .failure
  }

  /// The text of `--help`: its USAGE, COMMANDS and OPTIONS are made from ``Command/syntax``.
  package static let help = """
    OVERVIEW: Run the same observer scenarios on every stage, live, and show where each
    stage leaks, collides or misbehaves.

    \(Command.syntax.usage)
    COMMANDS:
    \(Command.syntax.wordsHelp)
    OPTIONS:
    \(Command.syntax.optionsHelp)
    \(Command.syntax.oldSpellingsHelp)
    Colour is used only when standard output is a terminal and NO_COLOR is unset.

    \(ExitCode.help(
      success: "every stage's verdict matches the table documented in the README",
      failure: "some verdict differs from it, each difference named on standard error; or a "
        + "bench sum came out wrong",
      ioError: "a chart of bench --chart cannot be written once the bench has run (the report "
        + "is printed first)"))
    """

  /// The text of `list`.
  package static var list: String {
    let width = (Scenario.all.map(\.name.count).max() ?? 0) + 2
    return Scenario.all.flatMap {
      wrap(
        $0.title, firstPrefix: $0.name.padded(to: width),
        prefix: String(repeating: " ", count: width))
    }.map { $0 + "\n" }.joined()
  }

  /// The text of `explain`, in paragraphs wrapped at 100 columns: what the scenario does, what
  /// each stage shows (and each reference, `withPlatform`), and where to read more.
  package static func explanation(of scenario: Scenario, withPlatform: Bool = false) -> String {
    var lines = ["\(scenario.name): \(scenario.title)", ""]
    lines += wrap(scenario.story, firstPrefix: "", prefix: "")
    lines.append("")
    lines += wrap("Sized for: " + scenario.sizing, firstPrefix: "", prefix: "")
    lines.append("")
    let columns = CatalogEntry.stages + (withPlatform ? CatalogEntry.references : [])
    for design in columns.map(\.design) {
      let outcome = scenario.run(on: design)
      lines.append(
        design.stageNumber.map { "Stage \($0), \(design.title)" } ?? "Reference: \(design.title)")
      lines += wrap(
        "\(outcome.verdict.symbol) \(outcome.verdict.rawValue): \(outcome.detail)",
        firstPrefix: "  ", prefix: "    ")
    }
    lines += ["", "Read more: \(scenario.chapter)"]
    return lines.joined(separator: "\n") + "\n"
  }
}
