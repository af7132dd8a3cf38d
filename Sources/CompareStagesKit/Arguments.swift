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
  case graph(Design)
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
    "compare-stages: \(message); see 'compare-stages --help'"
  }
}

extension Command {
  private static let options = [
    "--format", "--scenario", "--stage", "--with-platform", "--list", "--explain", "--trace",
    "--graph", "--bench", "--quick", "--chart", "--version", "--help",
  ]

  /// Parses the command-line arguments, without the program name.
  ///
  /// Options take their value as the next argument or after `=` (`--format=json`).
  ///
  /// - Parameter arguments: The arguments as given.
  /// - Returns: What to do.
  /// - Throws: ``UsageError`` naming the first problem found.
  package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    var format: OutputFormat?
    var scenarios: [Scenario.Name] = []
    var stages: [Design] = []
    var withPlatform = false
    var modes: [(flag: String, command: Command)] = []
    var quick = false
    var chartDirectory: String?
    var traceFormat: TraceFormat?

    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      var flag = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        flag = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }

      func value(validChoices: String) throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        guard let next = remaining.first, !next.hasPrefix("--") else {
          throw UsageError(message: "\(flag) needs a value (valid: \(validChoices))")
        }
        remaining.removeFirst()
        return next
      }

      func noValue() throws(UsageError) {
        if inlineValue != nil { throw UsageError(message: "\(flag) takes no value") }
      }

      switch flag {
      case "--format":
        let formats = OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")
        let name = try value(validChoices: formats + "; mermaid with --trace")
        guard format == nil && traceFormat == nil else {
          throw UsageError(message: "--format given more than once")
        }
        if name == TraceFormat.mermaid.rawValue {
          traceFormat = .mermaid
        } else {
          guard let parsed = OutputFormat(rawValue: name) else {
            throw UsageError(
              message: "unknown format '\(name)' (valid: \(formats); mermaid with --trace)")
          }
          format = parsed
        }
      case "--scenario":
        let name = try scenario(value(validChoices: scenarioNames))
        if !scenarios.contains(name) { scenarios.append(name) }
      case "--stage":
        let text = try value(validChoices: stageNumbers)
        guard let stage = Design.named(text) else {
          throw UsageError(message: "unknown stage '\(text)' (valid: \(stageNumbers))")
        }
        if !stages.contains(stage) { stages.append(stage) }
      case "--with-platform":
        try noValue()
        withPlatform = true
      case "--list":
        try noValue()
        modes.append((flag, .list))
      case "--explain":
        let name = try scenario(value(validChoices: scenarioNames))
        modes.append((flag, .explain(scenario: name, withPlatform: false)))
      case "--trace":
        let name = try scenario(value(validChoices: scenarioNames))
        modes.append((flag, .trace(scenario: name, on: .stoneAge, format: .text)))
      case "--graph":
        let valid = Design.stages.map(\.id).joined(separator: ", ")
        let text = try value(validChoices: valid)
        guard let stage = Design.stages.first(where: { $0.id == text }) else {
          throw UsageError(message: "unknown stage '\(text)' for --graph (valid: \(valid))")
        }
        modes.append((flag, .graph(stage)))
      case "--bench":
        try noValue()
        modes.append((flag, .bench(format: .text, quick: false)))
      case "--quick":
        try noValue()
        quick = true
      case "--chart":
        let directory = try value(validChoices: "a folder to write the SVG charts into")
        guard chartDirectory == nil else {
          throw UsageError(message: "--chart given more than once")
        }
        guard !directory.isEmpty else {
          throw UsageError(
            message: "--chart needs a folder (valid: a folder to write the SVG charts into)")
        }
        chartDirectory = directory
      case "--version":
        try noValue()
        modes.append((flag, .version))
      case "--help", "-h":
        try noValue()
        modes.append((flag, .help))
      default:
        if argument.hasPrefix("-") {
          throw UsageError(
            message: "unknown option '\(flag)' (valid: \(options.joined(separator: ", ")))")
        }
        throw UsageError(
          message: "unexpected argument '\(argument)' (valid: \(options.joined(separator: ", ")))")
      }
    }

    if modes.contains(where: { $0.command == .help }) { return .help }
    if traceFormat != nil && !modes.contains(where: { $0.flag == "--trace" }) {
      throw UsageError(message: "--format mermaid goes with --trace (valid: text, markdown, json)")
    }
    if quick && !modes.contains(where: { $0.flag == "--bench" }) {
      throw UsageError(message: "--quick goes with --bench")
    }
    if chartDirectory != nil && !modes.contains(where: { $0.flag == "--bench" }) {
      throw UsageError(message: "--chart goes with --bench")
    }
    guard let mode = modes.first else {
      var columns = stages
      if withPlatform {
        if columns.allSatisfy({ $0.stageNumber == nil }) {
          columns += Design.stages
        }
        columns += Design.references.filter { !columns.contains($0) }
      }
      let order = Design.all.map(\.id)
      return .compare(
        format: format ?? .text, scenarios: scenarios,
        columns: columns.sorted { order.firstIndex(of: $0.id)! < order.firstIndex(of: $1.id)! })
    }
    if modes.count > 1 {
      throw UsageError(message: "\(mode.flag) and \(modes[1].flag) cannot be combined")
    }
    if case .trace(let name, _, _) = mode.command {
      if let first = [
        scenarios.isEmpty ? nil : "--scenario", withPlatform ? "--with-platform" : nil,
        format.flatMap { $0 == .text ? nil : "--format \($0.rawValue)" },
      ].compactMap({ $0 }).first {
        throw UsageError(message: "--trace and \(first) cannot be combined")
      }
      guard stages.count == 1 else {
        throw UsageError(
          message: "--trace needs one --stage (valid: \(stageNumbers))")
      }
      return .trace(scenario: name, on: stages[0], format: traceFormat ?? .text)
    }
    if mode.flag == "--bench" {
      if let first = [
        scenarios.isEmpty ? nil : "--scenario", stages.isEmpty ? nil : "--stage",
        withPlatform ? "--with-platform" : nil,
      ].compactMap({ $0 }).first {
        throw UsageError(message: "--bench and \(first) cannot be combined")
      }
      return .bench(format: format ?? .text, quick: quick, chartDirectory: chartDirectory)
    }
    let explains = mode.flag == "--explain"
    let narrowing = [
      format != nil ? "--format" : nil, scenarios.isEmpty ? nil : "--scenario",
      stages.isEmpty ? nil : "--stage", withPlatform && !explains ? "--with-platform" : nil,
    ].compactMap { $0 }
    if let first = narrowing.first {
      throw UsageError(message: "\(mode.flag) and \(first) cannot be combined")
    }
    if case .explain(let name, _) = mode.command {
      return .explain(scenario: name, withPlatform: withPlatform)
    }
    return mode.command
  }

  private static var scenarioNames: String {
    Scenario.all.map(\.name).joined(separator: ", ")
  }

  private static var stageNumbers: String {
    Design.all.map(\.id).joined(separator: ", ")
  }

  /// The scenario named `name`.
  private static func scenario(_ name: String) throws(UsageError) -> Scenario.Name {
    guard let scenario = Scenario.Name(rawValue: name) else {
      throw UsageError(message: "unknown scenario '\(name)' (valid: \(scenarioNames))")
    }
    return scenario
  }
}
