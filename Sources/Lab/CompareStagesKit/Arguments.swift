import CommandSupport
import DesignCatalog
import ObserverScenarios

/// The output formats `compare-stages` can print.
package enum OutputFormat: String, CaseIterable, Sendable {
  /// A table for a terminal, then the evidence of every flaw.
  case text
  /// The same as a Markdown table and list.
  case markdown
  /// Every stage, scenario and result, for programs.
  case json
}

/// How `compare-stages trace` prints a run.
package enum TraceFormat: String, CaseIterable, Sendable {
  /// An indented list of events.
  case text
  /// A Mermaid sequence diagram.
  case mermaid
}

/// What `compare-stages` was asked to do.
package enum Command: Equatable, Sendable {
  /// Run the scenarios and print the comparison; no columns means every stage.
  case compare(format: OutputFormat, scenarios: [Scenario.Name], columns: [CatalogEntry])
  /// Measure what each design costs; `quick` uses tiny sizes; `chartDirectory`, when given, is
  /// where to write the SVG charts too.
  case bench(format: OutputFormat, quick: Bool, chartDirectory: String? = nil)
  /// Print the scenario names with what each checks.
  case list
  /// Tell one scenario's story.
  case explain(scenario: Scenario.Name, withPlatform: Bool)
  /// Print who holds whom in one stage, as a Mermaid flowchart.
  case graph(ReferenceGraph)
  /// Record one scenario's run on one stage or reference, and print what happened.
  case trace(scenario: Scenario.Name, on: CatalogEntry, format: TraceFormat)
  /// Print the help.
  case help
  /// Print the version.
  case version
}

/// What the options given so far ask for, before one command is made of them.
package struct ParsedOptions: Sendable {
  var format: String?
  var scenarios: [Scenario.Name] = []
  var stages: [CatalogEntry] = []
  var withPlatform = false
  var quick = false
  var chartDirectory: String?
}

extension Command {
  /// The command line of `compare-stages`: every option and every command, each written once;
  /// the parser and `--help` are made from it.
  ///
  /// Adding an option is adding an entry to its options, with its handling, and its name to the
  /// commands that take it.
  package static let syntax = CommandSyntax<ParsedOptions, Command>(
    command: "compare-stages",
    options: [
      .value(
        "--format", "format", valid: formatChoices,
        help: "text (the default), markdown or json; text or mermaid for trace"
      ) { options, name throws(UsageError) in
        guard options.format == nil else {
          throw UsageError(message: "--format given more than once")
        }
        options.format = name
      },
      .value(
        "--scenario", "name", valid: scenarioNames,
        help: "run only this scenario; repeat it for more (names: compare-stages list)"
      ) { options, text throws(UsageError) in
        let name = try scenario(text)
        if !options.scenarios.contains(name) { options.scenarios.append(name) }
      },
      .value(
        "--stage", "id", valid: stageNumbers,
        help: "show only this stage, 1 to \(CatalogEntry.stages.count) or its name ("
          + CatalogEntry.stages.map(\.design.shortName).joined(separator: ", ")
          + "), or a reference, "
          + CatalogEntry.references.map(\.id).joined(separator: ", ")
          + "; repeat it for more (trace takes one)"
      ) { options, text throws(UsageError) in
        guard let stage = CatalogEntry.named(text) else {
          throw UsageError(message: "unknown stage '\(text)' (valid: \(stageNumbers))")
        }
        if !options.stages.contains(stage) { options.stages.append(stage) }
      },
      .flag(
        "--with-platform",
        help: "add the platform's own observers as references: "
          + CatalogEntry.references.map(\.design.name).joined(separator: ", ") + ", run live"
      ) { options in options.withPlatform = true },
      .flag("--quick", help: "tiny sizes, to check that every row is produced") { options in
        options.quick = true
      },
      .value(
        "--chart", "folder", valid: chartChoices,
        help: "also write SVG charts of the run into the folder: time per callback and churn "
          + "against N, bytes per observer"
      ) { options, directory throws(UsageError) in
        guard options.chartDirectory == nil else {
          throw UsageError(message: "--chart given more than once")
        }
        guard !directory.isEmpty else {
          throw UsageError(message: "--chart needs a folder (valid: \(chartChoices))")
        }
        options.chartDirectory = directory
      },
      .flag("--version", help: "print the version") { _ in },
      .flag("--help", alias: "-h", help: "print this help") { _ in },
    ],
    words: [
      CommandWord(
        "compare", options: ["--format", "--scenario", "--stage", "--with-platform"],
        help: "run the scenarios on every stage (or those given) and print the comparison; "
          + "the word may be left out"
      ) { _, options throws(UsageError) in
        var columns = options.stages
        if options.withPlatform {
          if columns.allSatisfy({ $0.stageNumber == nil }) {
            columns += CatalogEntry.stages
          }
          columns += CatalogEntry.references
        }
        return .compare(
          format: try outputFormat(options.format), scenarios: options.scenarios,
          columns: CatalogEntry.all.filter(columns.contains))
      },
      CommandWord(
        "list", help: "print every scenario's name and what it checks", oldSpelling: "--list"
      ) { _, _ in .list },
      CommandWord(
        "explain", argument: ("name", { scenarioNames }), options: ["--with-platform"],
        help: "tell one scenario's story: what it does, what each stage shows and why, and "
          + "which chapter covers it; with --with-platform, the references too",
        oldSpelling: "--explain"
      ) { name, options throws(UsageError) in
        .explain(scenario: try scenario(name ?? ""), withPlatform: options.withPlatform)
      },
      CommandWord(
        "trace", argument: ("name", { scenarioNames }), options: ["--stage", "--format"],
        required: ["--stage"],
        help: "run one scenario on the one --stage given and print what happened: each "
          + "subscription, set (nested ones inside their handler), call and release; "
          + "--format mermaid prints a Mermaid sequence diagram",
        oldSpelling: "--trace"
      ) { name, options throws(UsageError) in
        let scenario = try scenario(name ?? "")
        guard options.stages.count == 1 else {
          throw UsageError(message: "trace needs one --stage (valid: \(stageNumbers))")
        }
        var format = TraceFormat.text
        if let name = options.format {
          guard let known = TraceFormat(rawValue: name) else {
            throw UsageError(
              message: "trace prints text or mermaid, not '\(name)' (valid: "
                + TraceFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")")
          }
          format = known
        }
        return .trace(scenario: scenario, on: options.stages[0], format: format)
      },
      CommandWord(
        "graph", argument: ("stage", { graphNumbers }),
        help:
          "print who holds whom in stage 1 to \(CatalogEntry.stages.count), or the one named, "
          + "as a Mermaid flowchart: weak references dashed, the reference that leaks in red",
        oldSpelling: "--graph"
      ) { text, _ throws(UsageError) in
        guard let graph = text.flatMap(CatalogEntry.named)?.graph else {
          throw UsageError(
            message: "unknown stage '\(text ?? "")' for graph (valid: \(graphNumbers))")
        }
        return .graph(graph)
      },
      CommandWord(
        "bench", options: ["--quick", "--format", "--chart"],
        help: "measure what each design costs: time per callback, allocations per set, "
          + "add-and-remove churn, memory per observer, stale entries; run it as "
          + "'swift run -c release compare-stages bench'",
        oldSpelling: "--bench"
      ) { _, options throws(UsageError) in
        .bench(
          format: try outputFormat(options.format), quick: options.quick,
          chartDirectory: options.chartDirectory)
      },
    ],
    initial: ParsedOptions())

  /// Parses the command-line arguments, without the program name, as ``syntax`` says.
  package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    switch try syntax.parse(arguments) {
    case .help: .help
    case .version: .version
    case .run(let command): command
    }
  }

  /// The format named by `--format`, for the commands that print a report.
  private static func outputFormat(_ name: String?) throws(UsageError) -> OutputFormat {
    guard let name else { return .text }
    guard let format = OutputFormat(rawValue: name) else {
      throw UsageError(message: "unknown format '\(name)' (valid: \(formatChoices))")
    }
    return format
  }

  private static var formatChoices: String {
    OutputFormat.allCases.map(\.rawValue).joined(separator: ", ") + "; mermaid with trace"
  }

  private static var scenarioNames: String {
    Scenario.all.map(\.name).joined(separator: ", ")
  }

  /// What `--stage` takes, as `--help` says: each stage's number, then each stage's name, then
  /// each reference.
  private static var stageNumbers: String {
    (CatalogEntry.stages.map(\.id) + CatalogEntry.stages.map(\.design.shortName)
      + CatalogEntry.references.map(\.id)).joined(separator: ", ")
  }

  /// What `graph` takes: each design with a graph (every stage) by its number, then by its name.
  private static var graphNumbers: String {
    let stages = CatalogEntry.all.filter { $0.graph != nil }
    return (stages.map(\.id) + stages.map(\.design.shortName)).joined(separator: ", ")
  }

  private static let chartChoices = "a folder to write the SVG charts into"

  /// The scenario named `name`.
  private static func scenario(_ name: String) throws(UsageError) -> Scenario.Name {
    guard let scenario = Scenario.Name(rawValue: name) else {
      throw UsageError(message: "unknown scenario '\(name)' (valid: \(scenarioNames))")
    }
    return scenario
  }
}
