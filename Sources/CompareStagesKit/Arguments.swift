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
  var format: String?
  var scenarios: [Scenario.Name] = []
  var stages: [Design] = []
  var withPlatform = false
  var quick = false
  var chartDirectory: String?
  var asksForHelp = false
  /// The options given, in order, so that a command can name one it does not take.
  var given: [String] = []
}

/// One of `compare-stages`' commands: its word, the argument it takes, the options it accepts,
/// and its old spelling, an option, still accepted.
///
/// ``Command/subcommands`` lists them all; the parser and the USAGE and COMMANDS parts of
/// `--help` are made from that list.
package struct Subcommand: Sendable {
  /// Its word: "bench". The comparison's is "compare", which may be left out.
  package let name: String
  /// What `--help` calls its argument, "name"; `nil` for none.
  package let argumentName: String?
  /// The options it accepts, by name.
  package let options: [String]
  /// What it does, for `--help`.
  package let help: String
  /// The spelling it had as an option, "--bench", still accepted anywhere in the arguments.
  package let oldSpelling: String?
  /// Makes the command from its argument and the options given.
  fileprivate let make:
    @Sendable (_ argument: String?, _ options: ParsedOptions) throws(UsageError) -> Command

  /// How USAGE shows it: its word, its argument, its options.
  package var usage: String {
    let options = self.options.compactMap { name -> String? in
      guard let option = Command.options.first(where: { $0.name == name }) else { return nil }
      let label = name + (option.valueName.map { " <\($0)>" } ?? "")
      return name == "--stage" && self.name == "trace" ? label : "[\(label)]"
    }
    return (["compare-stages", name] + (argumentName.map { ["<\($0)>"] } ?? []) + options)
      .joined(separator: " ")
  }
}

extension Command {
  /// Every option, in the order `--help` lists them. Which command takes which is said by
  /// ``subcommands``.
  ///
  /// Adding an option is adding an entry here, with its handling, and its name to the commands
  /// that take it.
  package static let options: [OptionSpec] = [
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
      help: "show only this stage, 1 to \(Design.stages.count), or a reference, "
        + Design.references.map(\.id).joined(separator: ", ")
        + "; repeat it for more (trace takes one)"
    ) { options, text throws(UsageError) in
      guard let stage = Design.named(text) else {
        throw UsageError(message: "unknown stage '\(text)' (valid: \(stageNumbers))")
      }
      if !options.stages.contains(stage) { options.stages.append(stage) }
    },
    .flag(
      "--with-platform",
      help: "add the platform's own observers as references: "
        + Design.references.map(\.observable.name).joined(separator: ", ") + ", run live"
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
    .flag("--help", alias: "-h", help: "print this help") { options in options.asksForHelp = true },
  ]

  /// Every command, in the order `--help` lists them; the first is the one run when no word
  /// is given.
  package static let subcommands: [Subcommand] = [
    Subcommand(
      name: "compare", argumentName: nil,
      options: ["--format", "--scenario", "--stage", "--with-platform"],
      help: "run the scenarios on every stage (or those given) and print the comparison; "
        + "the word may be left out",
      oldSpelling: nil
    ) { _, options throws(UsageError) in
      var columns = options.stages
      if options.withPlatform {
        if columns.allSatisfy({ $0.stageNumber == nil }) {
          columns += Design.stages
        }
        columns += Design.references
      }
      return .compare(
        format: try outputFormat(options.format), scenarios: options.scenarios,
        columns: Design.all.filter(columns.contains))
    },
    Subcommand(
      name: "list", argumentName: nil, options: [],
      help: "print every scenario's name and what it checks", oldSpelling: "--list"
    ) { _, _ in .list },
    Subcommand(
      name: "explain", argumentName: "name", options: ["--with-platform"],
      help: "tell one scenario's story: what it does, what each stage shows and why, and "
        + "which chapter covers it; with --with-platform, the references too",
      oldSpelling: "--explain"
    ) { name, options throws(UsageError) in
      .explain(scenario: try scenario(name ?? ""), withPlatform: options.withPlatform)
    },
    Subcommand(
      name: "trace", argumentName: "name", options: ["--stage", "--format"],
      help: "run one scenario on the one --stage given and print what happened: each "
        + "subscription, set (nested ones inside their handler), call and release; "
        + "--format mermaid prints a Mermaid sequence diagram",
      oldSpelling: "--trace"
    ) { name, options throws(UsageError) in
      let scenario = try scenario(name ?? "")
      guard options.stages.count == 1 else {
        throw UsageError(message: "trace needs one --stage (valid: \(stageNumbers))")
      }
      let format: TraceFormat
      switch options.format {
      case nil: format = .text
      case let name?:
        guard let known = TraceFormat(rawValue: name) else {
          throw UsageError(
            message: "trace prints text or mermaid, not '\(name)' (valid: "
              + TraceFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        format = known
      }
      return .trace(scenario: scenario, on: options.stages[0], format: format)
    },
    Subcommand(
      name: "graph", argumentName: "stage", options: [],
      help: "print who holds whom in stage 1 to \(Design.stages.count) as a Mermaid "
        + "flowchart: weak references dashed, the reference that leaks in red",
      oldSpelling: "--graph"
    ) { text, _ throws(UsageError) in
      guard let graph = StageGraph.all.first(where: { $0.design.id == text }) else {
        throw UsageError(
          message: "unknown stage '\(text ?? "")' for graph (valid: \(graphNumbers))")
      }
      return .graph(graph)
    },
    Subcommand(
      name: "bench", argumentName: nil, options: ["--quick", "--format", "--chart"],
      help: "measure what each design costs: time per callback, allocations per set, "
        + "add-and-remove churn, memory per observer, stale entries; run it as "
        + "'swift run -c release compare-stages bench'",
      oldSpelling: "--bench"
    ) { _, options throws(UsageError) in
      .bench(
        format: try outputFormat(options.format), quick: options.quick,
        chartDirectory: options.chartDirectory)
    },
  ]

  /// Parses the command-line arguments, without the program name.
  ///
  /// The first argument may name a command (`bench`, `trace`, …); none means `compare`. The
  /// old spellings, a command as an option (`--bench`, `--trace NAME`), are accepted anywhere.
  /// Options take their value as the next argument or after `=` (`--format=json`).
  ///
  /// - Parameter arguments: The arguments as given.
  /// - Returns: What to do.
  /// - Throws: ``UsageError`` naming the first problem found.
  package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    var remaining = arguments[...]
    if remaining.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help }
    if remaining.first == "help" { return .help }
    if remaining.contains("--version") {
      guard remaining.count == 1 else {
        throw UsageError(message: "--version takes nothing else")
      }
      return .version
    }
    // The command: named first, or by its old spelling anywhere.
    var subcommand: Subcommand?
    var argument: String?
    var spelledAs = ""
    if let word = remaining.first, !word.hasPrefix("-") {
      guard let named = subcommands.first(where: { $0.name == word }) else {
        throw UsageError(
          message: "unknown command '\(word)' (valid: \(subcommandNames))")
      }
      subcommand = named
      spelledAs = word
      remaining.removeFirst()
    }
    var rest: [String] = []
    while let next = remaining.popFirst() {
      let flag = String(next.prefix { $0 != "=" })
      guard let old = subcommands.first(where: { $0.oldSpelling == flag }) else {
        rest.append(next)
        continue
      }
      if subcommand != nil {
        throw UsageError(message: "\(spelledAs) and \(flag) cannot be combined")
      }
      subcommand = old
      spelledAs = flag
      if old.argumentName == nil {
        if flag != next { throw UsageError(message: "\(flag) takes no value") }
      } else if flag != next {
        argument = String(next.dropFirst(flag.count + 1))
      } else if let value = remaining.first, !value.hasPrefix("--") {
        argument = remaining.removeFirst()
      } else {
        throw UsageError(message: "\(flag) needs a value (valid: \(old.argumentChoices))")
      }
    }
    let command = subcommand ?? subcommands[0]
    // Its argument, if it takes one and the old spelling did not give it.
    if command.argumentName != nil && argument == nil {
      // The first argument that is neither an option nor an option's value.
      guard
        let index = rest.indices.first(where: { index in
          !rest[index].hasPrefix("-") && (index == 0 || !optionTakesValue(rest[index - 1]))
        })
      else {
        throw UsageError(
          message: "\(spelledAs) needs a \(command.argumentName ?? "value") "
            + "(valid: \(command.argumentChoices))")
      }
      argument = rest.remove(at: index)
    }
    let options = try parseOptions(rest, for: command, spelledAs: spelledAs)
    return try command.make(argument, options)
  }

  /// The options in `arguments`, each checked to be one `command` takes.
  private static func parseOptions(
    _ arguments: [String], for command: Subcommand, spelledAs: String
  ) throws(UsageError) -> ParsedOptions {
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
        let valid = command.options.isEmpty ? "none" : command.options.joined(separator: ", ")
        if argument.hasPrefix("-") {
          throw UsageError(
            message: "unknown option '\(flag)' (valid for \(command.name): \(valid))")
        }
        throw UsageError(
          message: "unexpected argument '\(argument)' (valid for \(command.name): \(valid))")
      }
      guard command.options.contains(option.name) else {
        let valid = command.options.isEmpty ? "none" : command.options.joined(separator: ", ")
        let takers = subcommands.filter { $0.options.contains(option.name) }.map(\.name)
        if spelledAs.isEmpty {
          throw UsageError(
            message: "\(flag) goes with "
              + (takers.isEmpty ? "no command" : takers.joined(separator: " or "))
              + " (valid without a command: \(valid))")
        }
        throw UsageError(
          message: "\(spelledAs.isEmpty ? "compare" : spelledAs) and \(flag) cannot be combined "
            + "(valid for \(command.name): \(valid))")
      }
      options.given.append(flag)
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
    return options
  }

  /// Whether `argument` is an option that takes the next argument as its value.
  private static func optionTakesValue(_ argument: String) -> Bool {
    guard let option = options.first(where: { $0.name == argument }) else { return false }
    if case .value = option.handling { return true }
    return false
  }

  /// The format named by `--format`, for the commands that print a report.
  private static func outputFormat(_ name: String?) throws(UsageError) -> OutputFormat {
    guard let name else { return .text }
    guard let format = OutputFormat(rawValue: name) else {
      throw UsageError(message: "unknown format '\(name)' (valid: \(formatChoices))")
    }
    return format
  }

  private static var subcommandNames: String {
    subcommands.map(\.name).joined(separator: ", ")
  }

  fileprivate static var formatChoices: String {
    OutputFormat.allCases.map(\.rawValue).joined(separator: ", ") + "; mermaid with trace"
  }

  fileprivate static var scenarioNames: String {
    Scenario.all.map(\.name).joined(separator: ", ")
  }

  fileprivate static var stageNumbers: String {
    Design.all.map(\.id).joined(separator: ", ")
  }

  fileprivate static var graphNumbers: String {
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

extension Subcommand {
  /// The valid values of its argument, for errors.
  fileprivate var argumentChoices: String {
    name == "graph" ? Command.graphNumbers : Command.scenarioNames
  }
}
