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

/// How `compare-stages --trace` prints a run.
package enum TraceFormat: String, CaseIterable, Sendable {
  /// An indented list of events.
  case text
  /// A Mermaid sequence diagram.
  case mermaid
}

/// A stage with its graph of who holds whom: what `--graph` takes, so that printing it cannot
/// find the graph missing.
package struct StageGraph: Equatable, Sendable {
  /// The stage.
  package let design: Design
  /// Who holds whom in it once a screen has subscribed.
  package let graph: ReferenceGraph

  /// The graph of `design`, if it has one: every stage does, the references do not.
  ///
  /// - Parameter design: A stage or a reference.
  package init?(_ design: Design) {
    guard let graph = design.graph else { return nil }
    self.design = design
    self.graph = graph
  }

  /// Every design that has a graph, in order: the stages.
  package static var all: [StageGraph] { Design.all.compactMap(StageGraph.init) }

  /// Two are the same when their designs are.
  package static func == (lhs: StageGraph, rhs: StageGraph) -> Bool { lhs.design == rhs.design }
}

/// What `compare-stages` was asked to do.
package enum Command: Equatable, Sendable {
  /// Run the scenarios and print the comparison; no columns means every stage.
  case compare(format: OutputFormat, scenarios: [Scenario.Name], columns: [Design])
  /// Measure what each design costs; `quick` uses tiny sizes; `chartDirectory`, when given, is
  /// where to write the SVG charts too.
  case bench(format: OutputFormat, quick: Bool, chartDirectory: String? = nil)
  /// Print the scenario names with what each checks.
  case list
  /// Tell one scenario's story.
  case explain(scenario: Scenario.Name, withPlatform: Bool)
  /// Print who holds whom in one stage, as a Mermaid flowchart.
  case graph(StageGraph)
  /// Record one scenario's run on one stage or reference, and print what happened.
  case trace(scenario: Scenario.Name, on: Design, format: TraceFormat)
  /// Print the help.
  case help
  /// Print the version.
  case version
}

/// Bad input: the message names the problem and the valid choices.
package struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, in one line.
  package var message: String

  /// The one line printed on standard error.
  package var description: String {
    CommandIO.usageLine("compare-stages", message)
  }
}

/// One option of `compare-stages`: the one place its name, its value, its help and its
/// handling are written.
///
/// ``Command/options`` lists them all; the parser's valid options and the OPTIONS part of
/// `--help` are made from that list.
package struct OptionSpec: Sendable {
  /// Its name, as given: "--format".
  package let name: String
  /// Another spelling, "-h" for `--help`; the valid options that errors list leave it out.
  package let alias: String?
  /// What `--help` calls its value, "format"; `nil` for a flag, which takes none.
  package let valueName: String?
  /// What it does, for `--help`: one paragraph, wrapped when printed.
  package let help: String
  /// What it does to the options parsed so far.
  fileprivate let handling: Handling

  /// How `--help` shows it: "--format <format>", "-h, --help".
  package var label: String {
    (alias.map { "\($0), " } ?? "") + name + (valueName.map { " <\($0)>" } ?? "")
  }

  /// What an option does, given its value if it takes one.
  fileprivate enum Handling {
    /// A flag: it takes no value.
    case flag(@Sendable (inout ParsedOptions) throws(UsageError) -> Void)
    /// An option with a value; `valid` names the values it takes, for "needs a value".
    case value(valid: String, @Sendable (inout ParsedOptions, String) throws(UsageError) -> Void)
  }

  /// A flag, which takes no value.
  fileprivate static func flag(
    _ name: String, alias: String? = nil, help: String,
    _ handle: @escaping @Sendable (inout ParsedOptions) throws(UsageError) -> Void
  ) -> OptionSpec {
    OptionSpec(name: name, alias: alias, valueName: nil, help: help, handling: .flag(handle))
  }

  /// An option with a value, called `valueName` in the help; `valid` names the values it takes.
  fileprivate static func value(
    _ name: String, _ valueName: String, valid: String, help: String,
    _ handle: @escaping @Sendable (inout ParsedOptions, String) throws(UsageError) -> Void
  ) -> OptionSpec {
    OptionSpec(
      name: name, alias: nil, valueName: valueName, help: help,
      handling: .value(valid: valid, handle))
  }
}

/// What the options given so far ask for, before one command is made of them.
private struct ParsedOptions {
  var format: OutputFormat?
  var traceFormat: TraceFormat?
  var scenarios: [Scenario.Name] = []
  var stages: [Design] = []
  var withPlatform = false
  var quick = false
  var chartDirectory: String?
  /// The modes asked for, with the option that asked: only one may be.
  var modes: [(flag: String, command: Command)] = []
  /// The option being handled, which names the mode it asks for.
  var flag = ""

  /// Asks for `command`, on behalf of the option being handled.
  mutating func ask(for command: Command) { modes.append((flag, command)) }
}

extension Command {
  /// Every option, in the order `--help` lists them.
  ///
  /// Adding an option is adding an entry here, with its handling.
  package static let options: [OptionSpec] = [
    .value(
      "--format", "format", valid: formatChoices,
      help: "text (the default), markdown or json"
    ) { options, name throws(UsageError) in
      guard options.format == nil && options.traceFormat == nil else {
        throw UsageError(message: "--format given more than once")
      }
      if name == TraceFormat.mermaid.rawValue {
        options.traceFormat = .mermaid
      } else {
        guard let format = OutputFormat(rawValue: name) else {
          throw UsageError(message: "unknown format '\(name)' (valid: \(formatChoices))")
        }
        options.format = format
      }
    },
    .value(
      "--scenario", "name", valid: scenarioNames,
      help: "run only this scenario; repeat it for more (names: --list)"
    ) { options, text throws(UsageError) in
      let name = try scenario(text)
      if !options.scenarios.contains(name) { options.scenarios.append(name) }
    },
    .value(
      "--stage", "number", valid: stageNumbers,
      help: "show only this stage, 1 to \(Design.stages.count), or a reference, "
        + "notificationcenter, observation or observations; repeat it for more"
    ) { options, text throws(UsageError) in
      guard let stage = Design.named(text) else {
        throw UsageError(message: "unknown stage '\(text)' (valid: \(stageNumbers))")
      }
      if !options.stages.contains(stage) { options.stages.append(stage) }
    },
    .flag(
      "--with-platform",
      help: "add the platform's own observers as references: Foundation's NotificationCenter, "
        + "and Swift's Observation and Observations, run live"
    ) { options in options.withPlatform = true },
    .flag("--list", help: "print every scenario's name and what it checks") { options in
      options.ask(for: .list)
    },
    .value(
      "--explain", "name", valid: scenarioNames,
      help: "tell one scenario's story: what it does, what each stage shows and why, and which "
        + "chapter covers it; with --with-platform, the references too"
    ) { options, text throws(UsageError) in
      options.ask(for: .explain(scenario: try scenario(text), withPlatform: false))
    },
    .value(
      "--trace", "name", valid: scenarioNames,
      help: "run one scenario on the one --stage given and print what happened: each "
        + "subscription, set (nested ones inside their handler), call and release; --format "
        + "mermaid prints a Mermaid sequence diagram"
    ) { options, text throws(UsageError) in
      options.ask(for: .trace(scenario: try scenario(text), on: .stoneAge, format: .text))
    },
    .value(
      "--graph", "number", valid: graphNumbers,
      help: "print who holds whom in stage 1 to \(Design.stages.count) as a Mermaid flowchart: "
        + "weak references dashed, the reference that leaks in red"
    ) { options, text throws(UsageError) in
      guard let graph = StageGraph.all.first(where: { $0.design.id == text }) else {
        throw UsageError(message: "unknown stage '\(text)' for --graph (valid: \(graphNumbers))")
      }
      options.ask(for: .graph(graph))
    },
    .flag(
      "--bench",
      help: "measure what each design costs: time per callback, allocations per set, "
        + "add-and-remove churn, memory per observer, stale entries; run it as "
        + "'swift run -c release compare-stages --bench'"
    ) { options in options.ask(for: .bench(format: .text, quick: false)) },
    .flag("--quick", help: "with --bench: tiny sizes, to check that every row is produced") {
      options in options.quick = true
    },
    .value(
      "--chart", "folder", valid: chartChoices,
      help: "with --bench: also write SVG charts of the run into the folder: time per callback "
        + "and churn against N, bytes per observer"
    ) { options, directory throws(UsageError) in
      guard options.chartDirectory == nil else {
        throw UsageError(message: "--chart given more than once")
      }
      guard !directory.isEmpty else {
        throw UsageError(message: "--chart needs a folder (valid: \(chartChoices))")
      }
      options.chartDirectory = directory
    },
    .flag("--version", help: "print the version") { options in options.ask(for: .version) },
    .flag("--help", alias: "-h", help: "print this help") { options in options.ask(for: .help) },
  ]

  /// Parses the command-line arguments, without the program name.
  ///
  /// Options take their value as the next argument or after `=` (`--format=json`).
  ///
  /// - Parameter arguments: The arguments as given.
  /// - Returns: What to do.
  /// - Throws: ``UsageError`` naming the first problem found.
  package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    var options = ParsedOptions()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      var flag = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        flag = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = Self.options.first(where: { $0.name == flag || $0.alias == flag })
      else {
        let valid = Self.options.map(\.name).joined(separator: ", ")
        if argument.hasPrefix("-") {
          throw UsageError(message: "unknown option '\(flag)' (valid: \(valid))")
        }
        throw UsageError(message: "unexpected argument '\(argument)' (valid: \(valid))")
      }
      options.flag = flag
      switch option.handling {
      case .flag(let handle):
        if inlineValue != nil { throw UsageError(message: "\(flag) takes no value") }
        try handle(&options)
      case .value(let valid, let handle):
        if let inlineValue {
          try handle(&options, inlineValue)
        } else if let next = remaining.first, !next.hasPrefix("--") {
          remaining.removeFirst()
          try handle(&options, next)
        } else {
          throw UsageError(message: "\(flag) needs a value (valid: \(valid))")
        }
      }
    }
    return try command(for: options)
  }

  /// The one command `options` ask for.
  private static func command(for options: ParsedOptions) throws(UsageError) -> Command {
    let modes = options.modes
    if modes.contains(where: { $0.command == .help }) { return .help }
    if options.traceFormat != nil && !modes.contains(where: { $0.command.isTrace }) {
      throw UsageError(message: "--format mermaid goes with --trace (valid: text, markdown, json)")
    }
    if options.quick && !modes.contains(where: { $0.command.isBench }) {
      throw UsageError(message: "--quick goes with --bench")
    }
    if options.chartDirectory != nil && !modes.contains(where: { $0.command.isBench }) {
      throw UsageError(message: "--chart goes with --bench")
    }
    guard let mode = modes.first else {
      var columns = options.stages
      if options.withPlatform {
        if columns.allSatisfy({ $0.stageNumber == nil }) {
          columns += Design.stages
        }
        columns += Design.references
      }
      return .compare(
        format: options.format ?? .text, scenarios: options.scenarios,
        columns: Design.all.filter(columns.contains))
    }
    if modes.count > 1 {
      throw UsageError(message: "\(mode.flag) and \(modes[1].flag) cannot be combined")
    }
    switch mode.command {
    case .trace(let name, _, _):
      if let first = [
        options.scenarios.isEmpty ? nil : "--scenario",
        options.withPlatform ? "--with-platform" : nil,
        options.format.flatMap { $0 == .text ? nil : "--format \($0.rawValue)" },
      ].compactMap({ $0 }).first {
        throw UsageError(message: "\(mode.flag) and \(first) cannot be combined")
      }
      guard options.stages.count == 1 else {
        throw UsageError(message: "\(mode.flag) needs one --stage (valid: \(stageNumbers))")
      }
      return .trace(scenario: name, on: options.stages[0], format: options.traceFormat ?? .text)
    case .bench:
      if let first = [
        options.scenarios.isEmpty ? nil : "--scenario", options.stages.isEmpty ? nil : "--stage",
        options.withPlatform ? "--with-platform" : nil,
      ].compactMap({ $0 }).first {
        throw UsageError(message: "\(mode.flag) and \(first) cannot be combined")
      }
      return .bench(
        format: options.format ?? .text, quick: options.quick,
        chartDirectory: options.chartDirectory)
    default:
      break
    }
    let explains = if case .explain = mode.command { true } else { false }
    let narrowing = [
      options.format != nil ? "--format" : nil, options.scenarios.isEmpty ? nil : "--scenario",
      options.stages.isEmpty ? nil : "--stage",
      options.withPlatform && !explains ? "--with-platform" : nil,
    ].compactMap { $0 }
    if let first = narrowing.first {
      throw UsageError(message: "\(mode.flag) and \(first) cannot be combined")
    }
    if case .explain(let name, _) = mode.command {
      return .explain(scenario: name, withPlatform: options.withPlatform)
    }
    return mode.command
  }

  /// Whether this is `--trace`.
  private var isTrace: Bool { if case .trace = self { true } else { false } }

  /// Whether this is `--bench`.
  private var isBench: Bool { if case .bench = self { true } else { false } }

  private static var formatChoices: String {
    OutputFormat.allCases.map(\.rawValue).joined(separator: ", ") + "; mermaid with --trace"
  }

  private static var scenarioNames: String {
    Scenario.all.map(\.name).joined(separator: ", ")
  }

  private static var stageNumbers: String {
    Design.all.map(\.id).joined(separator: ", ")
  }

  private static var graphNumbers: String {
    StageGraph.all.map(\.design.id).joined(separator: ", ")
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
