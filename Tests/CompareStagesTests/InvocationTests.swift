import CommandSupport
import CompareStagesKit
import DesignCatalog
import Foundation
import ObserverScenarios
import TestSupport
import Testing

@Suite("compare-stages: what it prints and how it exits")
struct InvocationTests {
  @Test(
    "bad input prints one line on stderr with a usage hint, nothing on stdout, and exits 64",
    arguments: [["--bogus"], ["--stage", "0"], ["--format", "yaml"], ["--scenario"], ["extra"]])
  func badInputExits64(arguments: [String]) {
    let result = compareStages(arguments)
    #expect(result.status == .usage)
    #expect(result.output.isEmpty)
    #expect(result.error.hasPrefix("compare-stages: "))
    #expect(result.error.hasSuffix("; see 'compare-stages --help'\n"))
    #expect(result.error.filter { $0 == "\n" }.count == 1)
  }

  @Test("the text table has a row per scenario, a column per stage, and fits in 100 columns")
  func textTable() {
    let result = compareStages([])
    #expect(result.status == .success)
    #expect(result.error.isEmpty)
    let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.allSatisfy { $0.count <= 100 })
    for scenario in Scenario.all {
      guard let row = lines.first(where: { $0.hasPrefix(scenario.name + " ") }) else {
        Issue.record("no row for \(scenario.name)")
        continue
      }
      let symbols = row.filter { $0 == "✓" || $0 == "✗" }.map(String.init)
      #expect(
        symbols
          == CatalogEntry.stages.map { $0.design.documentedVerdict(for: scenario.id)!.symbol },
        "\(scenario.name)")
    }
    let verdictCount = Scenario.all.count * CatalogEntry.stages.count
    #expect(lines.contains("All \(verdictCount) stage verdicts match the documented table."))
    #expect(!result.output.contains("\u{1B}["))
  }

  @Test("every ✗ has its evidence line under the table")
  func evidenceForEveryFlaw() {
    let report = ScenarioReport(designs: CatalogEntry.stages.map(\.design))
    let text = report.text()
    let evidence = text.components(separatedBy: "Evidence for each ✗:")[1]
    let unwrapped = evidence.replacingOccurrences(of: "\n     ", with: " ")
    for row in report.rows {
      for (stage, outcome) in row.outcomes where outcome.verdict == .flaw {
        #expect(
          unwrapped.contains("  \(stage.stageNumber!)  \(outcome.detail)"), "\(row.scenario.name)")
      }
    }
  }

  @Test("colour marks the symbols only when asked for")
  func colour() {
    let coloured = compareStages(["--scenario", "delivery-order"], isTerminal: true).output
    #expect(coloured.contains("\u{1B}[32m✓\u{1B}[0m"))
    #expect(coloured.contains("\u{1B}[31m✗\u{1B}[0m"))
    let plain = compareStages(["--format", "markdown"], isTerminal: true).output
    #expect(!plain.contains("\u{1B}["))
  }

  @Test("NO_COLOR turns colour off, even on a terminal")
  func noColour() {
    let output = compareStages(
      ["--scenario", "delivery-order"], isTerminal: true, environment: ["NO_COLOR": "1"]
    ).output
    #expect(output.contains("✓"))
    #expect(!output.contains("\u{1B}["))
  }

  @Test("--stage and --scenario narrow the table")
  func narrowed() {
    let output = compareStages(["--stage", "2", "--scenario", "same-key-two-observers"])
      .output
    #expect(output.contains(" 2 keyed\n"))
    #expect(!output.contains("1 closures"))
    #expect(output.contains("same-key-two-observers"))
    #expect(!output.contains("delivery-order"))
    #expect(output.contains("All 1 stage verdicts match"))
  }

  @Test("markdown: the documented table, row for row, then the evidence")
  func markdown() {
    let output = compareStages(["--format", "markdown"]).output
    let lines = output.split(separator: "\n").map(String.init)
    let columns = ["scenario", "what it checks"] + CatalogEntry.stages.map(\.id)
    #expect(lines[0] == "| " + columns.joined(separator: " | ") + " |")
    #expect(lines[1] == "|" + String(repeating: " --- |", count: columns.count))
    for (index, scenario) in Scenario.all.enumerated() {
      let symbols = CatalogEntry.stages.map {
        $0.design.documentedVerdict(for: scenario.id)!.symbol
      }
      #expect(
        lines[index + 2]
          == "| `\(scenario.name)` | \(scenario.title) | \(symbols.joined(separator: " | ")) |")
    }
    #expect(
      lines.contains(
        "- `same-key-two-observers`, stage 2: only the second observer was called: its bind under \"label\" replaced the first"
      ))
  }

  @Test("JSON: stages, then scenarios with a result per stage, as documented")
  func json() throws {
    let output = compareStages(["--format", "json", "--stage", "1", "--stage", "2"])
    #expect(output.status == .success)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(output.output.utf8)) as? [String: Any])
    let stages = try #require(object["stages"] as? [[String: Any]])
    #expect(stages.map { $0["stage"] as? Int } == [1, 2])
    #expect(stages.map { $0["module"] as? String } == ["Stage1Closures", "Stage2KeyedDict"])
    #expect(stages[0]["title"] as? String == "stone age: an array of closures")
    let scenarios = try #require(object["scenarios"] as? [[String: Any]])
    #expect(scenarios.map { $0["name"] as? String } == Scenario.all.map(\.name))
    let order = try #require(scenarios.first { $0["name"] as? String == "delivery-order" })
    #expect(order["title"] as? String == "many observers are called in subscription order")
    let results = try #require(order["results"] as? [[String: Any]])
    #expect(results.map { $0["stage"] as? Int } == [1, 2])
    #expect(results.map { $0["verdict"] as? String } == ["holds", "flaw"])
    #expect(results.map { $0["documented"] as? String } == ["holds", "flaw"])
    #expect((results[1]["detail"] as? String)?.hasPrefix("call order differed") == true)
    #expect(object["matchesDocumentedTable"] as? Bool == true)
  }

  @Test("a verdict that differs from the documented table is named on stderr, and exits 1")
  func mismatchExits1() throws {
    var report = ScenarioReport(
      scenarios: [.deliveryOrder], designs: [CatalogEntry.keyedDict.design])
    report.rows[0].outcomes[0].outcome = .holds("called in order, as if by a miracle")
    let captured = CapturedIO()
    #expect(CompareStagesCommand.print(report, as: .text, io: captured.io) == .failure)
    #expect(
      captured.error
        == "compare-stages: mismatch: delivery-order on stage 2: documented flaw, measured holds "
        + "(called in order, as if by a miracle)\n")
    #expect(captured.output.contains("1 of 1 stage verdicts differ from the documented table."))
  }

  @Test("list names every scenario and what it checks, in 100 columns")
  func list() {
    let output = compareStages(["list"]).output
    let lines = output.split(separator: "\n")
    #expect(lines.allSatisfy { $0.count <= 100 })
    for scenario in Scenario.all {
      #expect(lines.contains { $0.hasPrefix(scenario.name + "  ") })
    }
  }

  @Test("explain tells what the scenario does, what each stage shows, and where to read more")
  func explain() {
    let output = compareStages(["explain", "same-key-two-observers"]).output
    #expect(output.hasPrefix("same-key-two-observers: two observers subscribing under one name"))
    #expect(
      output.contains("Stage 2, iron age: closures keyed by string\n  ✗ flaw: only the second"))
    #expect(output.contains("Stage 1, stone age: an array of closures\n  ✓ holds: both called"))
    #expect(output.contains("Read more: Tutorial/02-iron-age-keyed-dictionary.md"))
  }

  @Test("--help shows every option and the exit statuses; --version the version")
  func helpAndVersion() {
    let help = compareStages(["--help"])
    #expect(help.status == .success)
    for option in ["--format", "--scenario", "--stage", "--list", "--explain", "--version", "64"] {
      #expect(help.output.contains(option))
    }
    #expect(help.output.hasSuffix("\n"))
    #expect(
      compareStages(["--version"]).output == "compare-stages \(CompareStagesCommand.version)\n"
    )
  }

  @Test("--help's EXIT STATUS lists 0, 1, 64 and 74, from the shape every command shares")
  func exitStatus() {
    let help = compareStages(["--help"]).output
    #expect(help.contains("\nEXIT STATUS:\n  0   "))
    for status in ["\n  1   ", "\n  64  bad usage", "\n  74  standard output cannot be written"] {
      #expect(help.contains(status), "\(status)")
    }
    #expect(
      help.replacingOccurrences(of: "\n      ", with: " ")
        .contains("a chart of bench --chart cannot be written"))
  }
}

@Suite("compare-stages: the options table")
struct OptionTableTests {
  @Test("--help lists every option of the table, in order, each with its help text, and no other")
  func helpListsTheTable() throws {
    let help = compareStages(["--help"]).output
    let afterHeading = try #require(help.components(separatedBy: "\nOPTIONS:\n").last)
    let section = try #require(afterHeading.components(separatedBy: "\n\n").first)
    var entries: [(label: String, help: String)] = []
    for line in section.split(separator: "\n") {
      #expect(line.count <= 100)
      if line.hasPrefix("  -") {
        let text = line.dropFirst(2)
        let gap = try #require(text.range(of: "  "), "no help beside '\(text)'")
        let help = text[gap.upperBound...].trimmingPrefix(while: { $0 == " " })
        entries.append((String(text[..<gap.lowerBound]), String(help)))
      } else {
        let last = try #require(entries.indices.last, "'\(line)' continues no option")
        #expect(line.hasPrefix("      "), "'\(line)' should be indented under its option")
        entries[last].help += " " + line.trimmingPrefix(while: { $0 == " " })
      }
    }
    #expect(entries.map(\.label) == Command.syntax.options.map(\.label))
    // --help's row adds that the word help asks for it too.
    let helpWord = type(of: Command.syntax).helpWord
    #expect(
      entries.map(\.help)
        == Command.syntax.options.map { $0.name == "--help" ? $0.help + helpWord : $0.help })
  }

  @Test("each option's label names its value, or none for a flag")
  func labels() {
    let labels = Dictionary(
      uniqueKeysWithValues: Command.syntax.options.map { ($0.name, $0.label) })
    #expect(labels["--format"] == "--format <format>")
    #expect(labels["--with-platform"] == "--with-platform")
    #expect(labels["--help"] == "-h, --help")
  }
}

@Suite("compare-stages --with-platform")
struct PlatformInvocationTests {
  @Test("the text table gains a column per reference, fits in 100 columns, and explains every –")
  func text() {
    let result = compareStages(["--with-platform"])
    #expect(result.status == .success)
    let lines = result.output.split(separator: "\n")
    #expect(lines.allSatisfy { $0.count <= 100 })
    let header = lines.first { $0.hasPrefix("scenario ") }?.split(separator: " ").map(String.init)
    #expect(
      header?.suffix(CatalogEntry.references.count)
        == CatalogEntry.references.map(\.design.shortName)[...])
    #expect(result.output.contains("Evidence for each ✗ and –:"))
    // Evidence lines are indented to the widest label of the designs this platform has
    // ("obsns" where Observations runs, "obs" on an OS before 26).
    let labelWidth = CatalogEntry.all.map(\.design.label.count).max() ?? 0
    let nc = CatalogEntry.notificationCenter.design.label
      .padding(toLength: labelWidth, withPad: " ", startingAt: 0)
    #expect(
      result.output.contains(
        "  \(nc)  NotificationCenter does not say how many observers it holds"))
  }

  @Test(
    "when names would make the table wider than 100 columns, each column is headed by its label")
  func narrowHeadings() {
    // Two more stages, copies of stage 5 numbered after the last, beside the references:
    // wider than 100 columns with headings like "6 concurrency".
    let last = CatalogEntry.stages.count + 2
    let extra = (CatalogEntry.stages.count + 1...last).map { number in
      var design = CatalogEntry.concurrency.design
      design.id = String(number)
      design.role = .stage(number)
      return design
    }
    let designs = CatalogEntry.stages.map(\.design) + extra + CatalogEntry.references.map(\.design)
    let text = ScenarioReport(designs: designs).text()
    let lines = text.split(separator: "\n")
    #expect(lines.allSatisfy { $0.count <= 100 })
    let header = lines.first { $0.hasPrefix("scenario ") }?.split(separator: " ").map(String.init)
    #expect(header == ["scenario"] + designs.map(\.label))
    #expect(
      text.contains("\n        \(last) concurrency age: thread-safe, ordered, immediate removal\n"))

    // Five designs alone fit, headed by number and name: stages 1 to 5, say.
    let five: [CatalogEntry] = [.closures, .keyedDict, .weakRefs, .options, .concurrency]
    let fewer = ScenarioReport(designs: five.map(\.design)).text()
    #expect(
      fewer.contains(
        "\nscenario                                 1 closures  2 keyed  3 weak  4 options"))
  }

  @Test("markdown names the references in its header")
  func markdown() {
    let output = compareStages(["--with-platform", "--format", "markdown"]).output
    let columns =
      ["scenario", "what it checks"] + CatalogEntry.stages.map(\.id)
      + CatalogEntry.references.map(\.design.name)
    #expect(output.hasPrefix("| " + columns.joined(separator: " | ") + " |\n"))
    #expect(output.contains("- `old-value`, Observation: onChange carries no value"))
  }

  @Test("JSON lists the references and gives their results a reference name and n/a verdicts")
  func json() throws {
    let output = compareStages(["--stage", "observation", "--format", "json"]).output
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    #expect((object["stages"] as? [Any])?.isEmpty == true)
    let references = try #require(object["references"] as? [[String: Any]])
    #expect(references.map { $0["reference"] as? String } == ["observation"])
    #expect(references.first?["module"] as? String == "Observation")
    let scenarios = try #require(object["scenarios"] as? [[String: Any]])
    let old = try #require(scenarios.first { $0["name"] as? String == "old-value" })
    let result = try #require((old["results"] as? [[String: Any]])?.first)
    #expect(result["reference"] as? String == "observation")
    #expect(result["verdict"] as? String == "n/a")
    #expect(result["stage"] == nil && result["documented"] == nil)
  }

  @Test("the default table stays the stages alone")
  func defaultIsStagesOnly() {
    let output = compareStages([]).output
    #expect(!output.contains("References:"))
    #expect(!output.contains(" observ\n"))
    #expect(!output.contains("–"))
  }
}

@Suite("compare-stages explain --with-platform")
struct PlatformExplainTests {
  @Test("the story goes on with what each reference shows")
  func explainReferences() {
    let output = compareStages(["explain", "old-value", "--with-platform"]).output
    #expect(output.contains("Stage 5, concurrency age"))
    #expect(
      output.contains(
        "Reference: Foundation's NotificationCenter, block observers\n  – n/a: a notification carries"
      ))
    #expect(!compareStages(["explain", "old-value"]).output.contains("Reference:"))
  }
}
