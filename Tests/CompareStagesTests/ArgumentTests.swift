import CommandSupport
import CompareStagesKit
import DesignCatalog
import ObserverScenarios
import Testing

/// What the errors list as valid for `--stage`: every design this platform runs, from the
/// design catalog, so that a new design or a platform without `Observations` changes it with no
/// edit here: the stages' numbers, their names, as `--help` lists them, then the references.
private let designIDs =
  (CatalogEntry.stages.map(\.id) + CatalogEntry.stages.map(\.design.shortName)
  + CatalogEntry.references.map(\.id)).joined(separator: ", ")

/// What the errors list as valid for `--graph`: the stages, by number and by name.
private let stageIDs = (CatalogEntry.stages.map(\.id) + CatalogEntry.stages.map(\.design.shortName))
  .joined(separator: ", ")

@Suite("compare-stages: arguments")
struct ArgumentTests {
  @Test("no arguments compare every scenario on every stage, as text")
  func defaults() throws {
    #expect(try Command.parse([]) == .compare(format: .text, scenarios: [], columns: []))
  }

  @Test("options narrow, repeat, and take their value after a space or an equals sign")
  func narrowing() throws {
    let command = try Command.parse([
      "--format=json", "--stage", "4", "--stage=2", "--scenario", "sendable", "--stage", "2",
    ])
    #expect(
      command
        == .compare(
          format: .json, scenarios: [.sendable], columns: [.keyedDict, .options]))
  }

  @Test("--with-platform adds the references; --stage takes their names")
  func platform() throws {
    // A stage by its name, as its column is headed, or by its number.
    #expect(
      try Command.parse(["--stage", "keyed", "--stage", "1"])
        == .compare(format: .text, scenarios: [], columns: [.closures, .keyedDict]))
    #expect(CatalogEntry.stages.allSatisfy { CatalogEntry.named($0.design.shortName) == $0 })
    #expect(
      try Command.parse(["--with-platform"])
        == .compare(
          format: .text, scenarios: [], columns: CatalogEntry.stages + CatalogEntry.references))
    #expect(
      try Command.parse(["--stage", "observation", "--stage", "1"])
        == .compare(
          format: .text, scenarios: [], columns: [.closures, .observation]))
    #expect(
      try Command.parse(["--stage", "2", "--with-platform"])
        == .compare(
          format: .text, scenarios: [], columns: [.keyedDict] + CatalogEntry.references))
  }

  @Test("modes: list, explain, version, help")
  func modes() throws {
    #expect(try Command.parse(["--list"]) == .list)
    #expect(
      try Command.parse(["--explain", "old-value"])
        == .explain(scenario: .oldValue, withPlatform: false))
    #expect(
      try Command.parse(["--with-platform", "--explain", "old-value"])
        == .explain(scenario: .oldValue, withPlatform: true))
    #expect(try Command.parse(["--version"]) == .version)
    #expect(try Command.parse(["-h"]) == .help)
    #expect(try Command.parse(["--list", "--help"]) == .help)
  }

  @Test(
    "bad input names the problem and the valid choices",
    arguments: [
      (
        ["--colour"],
        "unknown option '--colour' (valid for compare: --format, --scenario, --stage, "
          + "--with-platform)"
      ),
      (
        ["tables"],
        "unknown command 'tables' (valid: compare, list, explain, trace, graph, bench)"
      ),
      (["--format"], "--format needs a value (valid: text, markdown, json; mermaid with trace)"),
      (
        ["--format", "xml"],
        "unknown format 'xml' (valid: text, markdown, json; mermaid with trace)"
      ),
      (["--format", "json", "--format", "text"], "--format given more than once"),
      (
        ["--stage", "9"],
        "unknown stage '9' (valid: \(designIDs))"
      ),
      (
        ["--stage", "two"],
        "unknown stage 'two' (valid: \(designIDs))"
      ),
      (["--stage"], "--stage needs a value (valid: \(designIDs))"),
      (["--stage", "--list"], "--list and --stage cannot be combined (valid for list: none)"),
      (["--scenario", "leaks"], "unknown scenario 'leaks' (valid: delivers-every-change, "),
      (["--explain", "leaks"], "unknown scenario 'leaks' (valid: delivers-every-change, "),
      (["--list", "--explain", "sendable"], "--list and --explain cannot be combined"),
      (["list", "--explain", "sendable"], "list and --explain cannot be combined"),
      (["--list", "--stage", "1"], "--list and --stage cannot be combined (valid for list: none)"),
      (["list", "--stage", "1"], "list and --stage cannot be combined (valid for list: none)"),
      (
        ["--explain", "sendable", "--format", "json"],
        "--explain and --format cannot be combined (valid for explain: --with-platform)"
      ),
      (["explain"], "explain needs a name (valid: delivers-every-change, "),
      (
        ["explain", "sendable", "old-value"], "unexpected argument 'old-value' (valid for explain: "
      ),
      (["--version", "--list"], "--version takes nothing else"),
      (["--list=yes"], "--list takes no value"),
      (["--help="], "--help takes no value"),
      (["--version=1"], "--version takes no value"),
      (["--with-platform", "--with-platform"], "--with-platform given more than once"),
      (
        ["explain", "sendable", "--with-platform", "--with-platform"], "--with-platform given more"
      ),
    ])
  func badInput(arguments: [String], message: String) {
    #expect {
      try Command.parse(arguments)
    } throws: { error in
      (error as? UsageError)?.message.hasPrefix(message) == true
    }
  }

  @Test("an unknown option or argument lists exactly the options the command takes")
  func unknownListsTheTable() throws {
    for command in Command.syntax.words {
      let valid = command.options.isEmpty ? "none" : command.options.joined(separator: ", ")
      let argument = command.argumentName == nil ? [] : [command.name == "graph" ? "1" : "sendable"]
      let option = try #require(throws: UsageError.self) {
        try Command.parse([command.name] + argument + ["--colour"])
      }
      #expect(option.message == "unknown option '--colour' (valid for \(command.name): \(valid))")
      let extra = try #require(throws: UsageError.self) {
        try Command.parse([command.name] + argument + ["tables"])
      }
      #expect(extra.message == "unexpected argument 'tables' (valid for \(command.name): \(valid))")
    }
  }

  @Test(
    "every option a command takes is known to it; a flag takes no value, the others need one")
  func everyOptionIsKnown() throws {
    for command in Command.syntax.words {
      let argument = command.argumentName == nil ? [] : [command.name == "graph" ? "1" : "sendable"]
      for name in command.options {
        let option = try #require(
          Command.syntax.options.first { $0.name == name }, "\(name) is listed")
        if option.valueName == nil {
          let error = try #require(throws: UsageError.self) {
            try Command.parse([command.name] + argument + [name + "=x"])
          }
          #expect(error.message == "\(name) takes no value")
        } else {
          let error = try #require(throws: UsageError.self) {
            try Command.parse([command.name] + argument + [name])
          }
          #expect(error.message.hasPrefix("\(name) needs a value (valid: "))
        }
      }
    }
    #expect(try Command.parse(["-h"]) == .help)
    #expect(try Command.parse(["help"]) == .help)
    // The word help is listed, once, in the row of --help.
    #expect(CompareStagesCommand.help.components(separatedBy: "help as the first word").count == 2)
    #expect(try Command.parse(["bench", "--help"]) == .help)
  }

  @Test("each command has one spelling as a word and, but for the newest, its old one as an option")
  func spellings() throws {
    let pairs: [([String], [String])] = [
      (["compare", "--stage", "2"], ["--stage", "2"]),
      (["list"], ["--list"]),
      (
        ["explain", "old-value", "--with-platform"], ["--with-platform", "--explain", "old-value"]
      ),
      (["explain", "--with-platform", "old-value"], ["--explain=old-value", "--with-platform"]),
      (["trace", "sendable", "--stage", "5"], ["--stage", "5", "--trace", "sendable"]),
      (["trace", "--stage", "5", "sendable"], ["--trace", "sendable", "--stage", "5"]),
      (["graph", "3"], ["--graph", "3"]),
      (["bench", "--quick", "--format", "json"], ["--quick", "--bench", "--format", "json"]),
    ]
    for (new, old) in pairs {
      #expect(try Command.parse(new) == Command.parse(old), "\(new) and \(old)")
    }
    // The commands added since options stopped naming commands have no old spelling.
    #expect(Command.syntax.words.filter { $0.oldSpelling == nil }.map(\.name) == ["compare"])
  }

  @Test("every valid choice is listed when a scenario name is wrong")
  func listsEveryScenario() throws {
    let error = try #require(throws: UsageError.self) { try Command.parse(["--scenario", "x"]) }
    for scenario in Scenario.all {
      #expect(error.message.contains(scenario.name))
    }
  }
}

@Suite("compare-stages: --bench arguments")
struct BenchArgumentTests {
  @Test("--bench takes --quick and --format")
  func bench() throws {
    #expect(try Command.parse(["--bench"]) == .bench(format: .text, quick: false))
    #expect(
      try Command.parse(["--quick", "--bench", "--format", "json"])
        == .bench(format: .json, quick: true))
    #expect(
      try Command.parse(["--bench", "--chart", "charts"])
        == .bench(format: .text, quick: false, chartDirectory: "charts"))
    #expect(
      try Command.parse(["--chart=out/charts", "--bench"])
        == .bench(format: .text, quick: false, chartDirectory: "out/charts"))
  }

  @Test(
    "bad combinations name the problem",
    arguments: [
      (
        ["--quick"],
        "--quick goes with bench (valid without a command: --format, --scenario, "
          + "--stage, "
          + "--with-platform)"
      ),
      (
        ["--bench", "--stage", "2"],
        "--bench and --stage cannot be combined (valid for bench: --quick, --format, --chart)"
      ),
      (
        ["bench", "--scenario", "sendable"],
        "bench and --scenario cannot be combined (valid for bench: --quick, --format, --chart)"
      ),
      (["--bench", "--list"], "--bench and --list cannot be combined"),
      (["--bench=fast"], "--bench takes no value"),
      (
        ["--chart", "charts"],
        "--chart goes with bench (valid without a command: --format, --scenario, --stage, "
          + "--with-platform)"
      ),
      (
        ["--bench", "--chart"],
        "--chart needs a value (valid: a folder to write the SVG charts into)"
      ),
      (["--bench", "--chart", "a", "--chart", "b"], "--chart given more than once"),
      (["bench", "--quick", "--quick"], "--quick given more than once"),
    ])
  func badCombinations(arguments: [String], message: String) {
    #expect {
      try Command.parse(arguments)
    } throws: { error in
      (error as? UsageError)?.message == message
    }
  }
}

@Suite("compare-stages: --trace arguments")
struct TraceArgumentTests {
  @Test("--trace takes one scenario, one --stage, and text or mermaid")
  func trace() throws {
    #expect(
      try Command.parse(["--trace", "sendable", "--stage", "5"])
        == .trace(scenario: .sendable, on: .concurrency, format: .text))
    #expect(
      try Command.parse(["--stage", "observation", "--trace", "sendable", "--format", "mermaid"])
        == .trace(scenario: .sendable, on: .observation, format: .mermaid))
  }

  @Test(
    "bad input names the problem and the valid choices",
    arguments: [
      (
        ["--trace", "sendable"],
        "trace needs one --stage (valid: \(designIDs))"
      ),
      (
        ["trace", "sendable", "--stage", "1", "--stage", "2"],
        "trace needs one --stage (valid: \(designIDs))"
      ),
      (
        ["--format", "mermaid"],
        "unknown format 'mermaid' (valid: text, markdown, json; mermaid with trace)"
      ),
      (
        ["--trace", "sendable", "--stage", "1", "--format", "json"],
        "trace prints text or mermaid, not 'json' (valid: text, mermaid)"
      ),
      (["trace", "--stage", "1"], "trace needs a name (valid: delivers-every-change, "),
      (["--trace", "sendable", "--bench"], "--trace and --bench cannot be combined"),
    ])
  func badInput(arguments: [String], message: String) {
    #expect {
      try Command.parse(arguments)
    } throws: { error in
      (error as? UsageError)?.message.hasPrefix(message) == true
    }
  }
}

@Suite("compare-stages: --graph arguments")
struct GraphArgumentTests {
  @Test("--graph takes a stage number or name, as --stage does")
  func graph() throws {
    #expect(try Command.parse(["--graph", "3"]) == .graph(#require(CatalogEntry.weakRefs.graph)))
    #expect(try Command.parse(["--graph=5"]) == .graph(#require(CatalogEntry.concurrency.graph)))
    for stage in CatalogEntry.stages {
      #expect(
        try Command.parse(["graph", stage.design.shortName]) == .graph(#require(stage.graph)))
    }
  }

  @Test("--graph hands over the stage's own graph; every stage has one, no reference does")
  func graphIsTheStages() throws {
    guard case .graph(let graph) = try Command.parse(["--graph", "2"]) else {
      Issue.record("--graph 2 should parse as .graph")
      return
    }
    #expect(graph == CatalogEntry.keyedDict.graph)
    #expect(graph.mermaid == CatalogEntry.keyedDict.graph?.mermaid)
    #expect(CatalogEntry.all.filter { $0.graph != nil } == CatalogEntry.stages)
    #expect(CatalogEntry.references.allSatisfy { $0.graph == nil })
  }

  @Test(
    "bad input names the problem and the valid choices",
    arguments: [
      (["--graph", "9"], "unknown stage '9' for graph (valid: \(stageIDs))"),
      (["graph", "observation"], "unknown stage 'observation' for graph (valid: \(stageIDs))"),
      (["--graph"], "--graph needs a value (valid: \(stageIDs))"),
      (["graph"], "graph needs a stage (valid: \(stageIDs))"),
      (
        ["--graph", "1", "--stage", "2"],
        "--graph and --stage cannot be combined (valid for graph: none)"
      ),
    ])
  func badInput(arguments: [String], message: String) {
    #expect {
      try Command.parse(arguments)
    } throws: { error in
      (error as? UsageError)?.message == message
    }
  }
}
