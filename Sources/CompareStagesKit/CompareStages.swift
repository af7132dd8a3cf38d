import DesignCatalog
import Foundation
import ObserverScenarios
import StageBench
import Support

/// What one run of `compare-stages` printed and how it exited.
package struct Invocation: Equatable, Sendable {
  /// What goes to standard output.
  package var standardOutput = ""
  /// What goes to standard error.
  package var standardError = ""
  /// The exit status.
  package var status: Int32 = 0
}

/// The `compare-stages` command, as a function from arguments to output, so tests can run it.
package enum CompareStages {
  /// The tool's version.
  package static let version = "0.1.0"

  /// Exit status: every verdict matches the documented table.
  package static let success: Int32 = 0
  /// Exit status: some verdict differs from the documented table.
  package static let mismatch: Int32 = 1
  /// Exit status: bad usage (`EX_USAGE`).
  package static let usage: Int32 = 64

  /// Runs the command.
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments, without the program name.
  ///   - color: Whether text output may use colour (stdout is a terminal and `NO_COLOR` unset).
  ///   - isDebugBuild: Whether to warn that `--bench` timings mean little in a debug build.
  /// - Returns: What to print and the exit status.
  package static func run(
    _ arguments: [String], color: Bool = false, isDebugBuild: Bool = false
  ) -> Invocation {
    let command: Command
    do {
      command = try Command.parse(arguments)
    } catch {
      return Invocation(standardError: "\(error)\n", status: usage)
    }
    switch command {
    case .help:
      return Invocation(standardOutput: help)
    case .version:
      return Invocation(standardOutput: "compare-stages \(version)\n")
    case .list:
      return Invocation(standardOutput: list)
    case .explain(let name, let withPlatform):
      return Invocation(
        standardOutput: explanation(of: name.scenario, withPlatform: withPlatform))
    case .bench(let format, let quick, let chartDirectory):
      let warning =
        isDebugBuild
        ? "compare-stages: this is a debug build; timings are only meaningful with "
          + "'swift run -c release compare-stages --bench'\n" : ""
      // The folder is made before the bench runs, so that a bad one fails at once.
      let folder = chartDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
      if let folder {
        do {
          try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
          return Invocation(
            standardError: "compare-stages: cannot write charts into '\(folder.path)' (valid: a "
              + "folder that can be created and written); see 'compare-stages --help'\n",
            status: usage)
        }
      }
      do {
        let report = try Bench.run(sizes: quick ? .quick : .full, contenders: Design.contenders)
        if let folder {
          for chart in BenchCharts.charts(of: report) {
            try Data(chart.svg.utf8).write(to: folder.appendingPathComponent(chart.name))
          }
        }
        let output =
          switch format {
          case .text: report.text
          case .markdown: report.markdown
          case .json: report.json
          }
        return Invocation(standardOutput: output, standardError: warning)
      } catch {
        return Invocation(standardError: warning + "\(error)\n", status: mismatch)
      }
    case .graph(let stage):
      // The parser accepts only stages, each of which has a graph.
      return Invocation(standardOutput: stage.graph!.mermaid)
    case .trace(let name, let design, let format):
      let trace = name.scenario.trace(on: design.observable).trace
      return Invocation(standardOutput: format == .mermaid ? trace.mermaid : trace.text)
    case .compare(let format, let scenarios, let columns):
      return invocation(
        printing: ScenarioReport(
          scenarios: scenarios.isEmpty ? Scenario.Name.allCases : scenarios,
          designs: (columns.isEmpty ? Design.stages : columns).map(\.observable)),
        as: format, color: color)
    }
  }

  /// Prints `report` in `format`, names each verdict that differs from the documented table on
  /// standard error, and exits 1 if there is any.
  ///
  /// - Parameters:
  ///   - report: The scenarios' results.
  ///   - format: How to print them.
  ///   - color: Whether text output may use colour.
  /// - Returns: What to print and the exit status.
  package static func invocation(
    printing report: ScenarioReport, as format: OutputFormat, color: Bool = false
  ) -> Invocation {
    let output =
      switch format {
      case .text: report.text(color: color)
      case .markdown: report.markdown
      case .json: report.json
      }
    let mismatches = report.mismatches
    return Invocation(
      standardOutput: output,
      standardError: mismatches.map { "compare-stages: mismatch: \($0)\n" }.joined(),
      status: mismatches.isEmpty ? success : mismatch)
  }

  /// The text of `--help`.
  package static let help = """
    OVERVIEW: Run the same observer experiments on every stage, live, and show where each
    stage leaks, collides or misbehaves.

    USAGE: compare-stages [--format <format>] [--scenario <name> ...] [--stage <number> ...]
                          [--with-platform]
           compare-stages --list
           compare-stages --explain <name>
           compare-stages --trace <name> --stage <number> [--format text|mermaid]
           compare-stages --graph <number>
           compare-stages --bench [--quick] [--format <format>] [--chart <folder>]

    OPTIONS:
      --format <format>   text (the default), markdown or json
      --scenario <name>   run only this scenario; repeat it for more (names: --list)
      --stage <number>    show only this stage, 1 to \(Design.stages.count), or a reference,
                          notificationcenter, observation or observations; repeat it for more
      --with-platform     add the platform's own observers as references: Foundation's
                          NotificationCenter, and Swift's Observation and Observations, run
                          live
      --list              print every scenario's name and what it checks
      --explain <name>    tell one scenario's story: what it does, what each stage shows and
                          why, and which chapter covers it; with --with-platform, the
                          references too
      --trace <name>      run one scenario on the one --stage given and print what happened:
                          each subscription, set (nested ones inside their handler), call
                          and release; --format mermaid prints a Mermaid sequence diagram
      --graph <number>    print who holds whom in stage 1 to 5 as a Mermaid flowchart: weak
                          references dashed, the reference that leaks in red
      --bench             measure what each design costs: time per callback, allocations per
                          set, add-and-remove churn, memory per observer, stale entries; run
                          it as 'swift run -c release compare-stages --bench'
      --quick             with --bench: tiny sizes, to check that every row is produced
      --chart <folder>    with --bench: also write SVG charts of the run into the folder:
                          time per callback and churn against N, bytes per observer
      --version           print the version
      -h, --help          print this help

    Colour is used only when standard output is a terminal and NO_COLOR is unset.

    EXIT STATUS:
      0   every stage's verdict matches the table documented in the README
      1   some verdict differs from it, each difference named on standard error; or a bench
          sum came out wrong
      64  bad usage; the problem is named on standard error

    """

  /// The text of `--list`.
  package static var list: String {
    let width = (Scenario.all.map(\.name.count).max() ?? 0) + 2
    return Scenario.all.flatMap {
      wrap(
        $0.title, firstPrefix: $0.name.padding(toLength: width, withPad: " ", startingAt: 0),
        prefix: String(repeating: " ", count: width))
    }.map { $0 + "\n" }.joined()
  }

  /// The text of `--explain`: what the scenario does, what each stage shows, and where to read
  /// more.
  ///
  /// - Parameters:
  ///   - scenario: The scenario to explain.
  ///   - withPlatform: Whether to tell what the platform's references show too.
  /// - Returns: Paragraphs wrapped at 100 columns.
  package static func explanation(of scenario: Scenario, withPlatform: Bool = false) -> String {
    var lines = ["\(scenario.name): \(scenario.title)", ""]
    lines += wrap(scenario.story, firstPrefix: "", prefix: "")
    lines.append("")
    let columns = Design.stages + (withPlatform ? Design.references : [])
    for design in columns.map(\.observable) {
      let outcome = scenario.run(on: design)
      if let number = design.stageNumber {
        lines.append("Stage \(number), \(design.title)")
      } else {
        lines.append("Reference: \(design.title)")
      }
      lines += wrap(
        "\(outcome.verdict.symbol) \(outcome.verdict.rawValue): \(outcome.detail)",
        firstPrefix: "  ", prefix: "    ")
    }
    lines.append("")
    lines.append("Read more: \(scenario.chapter)")
    return lines.joined(separator: "\n") + "\n"
  }
}
