import DesignCatalog
import Foundation
import ObserverScenarios
import TestSupport
import Testing

/// The folders modules live in: the stages in `Sources`, the lab in `Sources/Lab`.
private let moduleFolders = ["Sources", "Sources/Lab"]

/// The catalog of `module`, relative to the package: `Sources/NAME/NAME.docc` for a stage,
/// `Sources/Lab/NAME/NAME.docc` for the lab's public library.
private func catalog(of module: String) -> String {
  let folders = moduleFolders.map { "\($0)/\(module)/\(module).docc" }
  return folders.first {
    FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent($0).path)
  } ?? folders[0]
}

/// The modules with a catalog, in `Sources/NAME/NAME.docc` or `Sources/Lab/NAME/NAME.docc`.
private func modulesWithCatalogs() throws -> Set<String> {
  var modules: Set<String> = []
  for folder in moduleFolders {
    let names = try FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent(folder).path)
    modules.formUnion(
      names.filter { module in
        FileManager.default.fileExists(
          atPath: packageRoot.appendingPathComponent(
            "\(folder)/\(module)/\(module).docc/\(module).md"
          ).path)
      })
  }
  return modules
}

@Suite("Documentation: DocC catalogs")
struct DocCCatalogTests {
  @Test(".spi.yml names exactly the modules that have a DocC catalog")
  func spiNamesEveryCatalog() throws {
    let spi = try String(
      contentsOf: packageRoot.appendingPathComponent(".spi.yml"), encoding: .utf8)
    let named = Set(
      spi.split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { $0.hasPrefix("- ") && !$0.hasPrefix("- documentation_targets") }
        .map { String($0.dropFirst(2)) })
    let catalogs = try modulesWithCatalogs()
    #expect(!catalogs.isEmpty)
    #expect(named == catalogs)
  }

  @Test("ObserverScenarios, the library to depend on, and stage 5 come first in .spi.yml")
  func spiOrder() throws {
    let spi = try String(
      contentsOf: packageRoot.appendingPathComponent(".spi.yml"), encoding: .utf8)
    let named = spi.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { $0.hasPrefix("- ") && !$0.hasPrefix("- documentation_targets") }
      .map { String($0.dropFirst(2)) }
    #expect(named.prefix(2) == ["ObserverScenarios", CatalogEntry.concurrency.design.module])
  }

  @Test(
    "every landing page opens with a one-line abstract, which the docs index shows",
    arguments: try modulesWithCatalogs().sorted())
  func landingPageAbstract(module: String) throws {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "\(catalog(of: module))/\(module).md"),
      encoding: .utf8)
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "# ``\(module)``")
    let abstract = lines.dropFirst().first { !$0.isEmpty }
    #expect(abstract.map { !$0.hasPrefix("#") && !$0.hasPrefix("-") } == true, "\(module)")
  }

  /// Every relative link of every catalog's articles: the module, the article's file, the
  /// catalog's folder and the link as written.
  private func relativeLinks() throws -> [(module: String, file: String, folder: URL, link: String)]
  {
    var links: [(module: String, file: String, folder: URL, link: String)] = []
    for module in try modulesWithCatalogs() {
      let folder = packageRoot.appendingPathComponent("\(catalog(of: module))")
      for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where file.hasSuffix(".md") {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        for match in text.matches(of: /\]\(([^)\s]+)\)/) {
          let link = String(match.output.1)
          if !link.contains("://"), !link.hasPrefix("#"), !link.hasPrefix("doc:") {
            links.append((module, file, folder, link))
          }
        }
      }
    }
    return links
  }

  @Test("every relative link in a catalog points to a file of the package")
  func catalogLinks() throws {
    for (module, file, folder, link) in try relativeLinks() {
      let target = folder.appendingPathComponent(link).standardizedFileURL
      #expect(
        FileManager.default.fileExists(atPath: target.path),
        "\(catalog(of: module))/\(file): broken link \(link)")
    }
  }

  // A landing page is served at MODULE.doccarchive/documentation/module/, so a link that climbs
  // three folders from its catalog lands beside the archives, in .build/docs: it works served
  // only if .ci/docs copies what it names there, as it copies Tutorial/. An article is served a
  // folder deeper, where the same link would land elsewhere: articles link no file.
  @Test(
    "every relative link in a catalog is a landing page's link to Tutorial/, which .ci/docs serves")
  func catalogLinksResolveAsServed() throws {
    let script = try String(
      contentsOf: packageRoot.appendingPathComponent(".ci/docs"), encoding: .utf8)
    #expect(script.contains("cp -R Tutorial .build/docs/Tutorial"))
    let links = try relativeLinks()
    for (module, file, _, link) in links {
      #expect(file == "\(module).md", "\(catalog(of: module))/\(file) links \(link)")
      // The served path is the link less its three climbs; in the repository, from a stage's
      // catalog, the same path from the package's root.
      #expect(
        link.hasPrefix("../../../Tutorial/")
          && catalog(of: module).hasPrefix("Sources/\(module)/"),
        "\(catalog(of: module))/\(file): \(link) does not resolve, served, to a file .ci/docs copies"
      )
    }
    #expect(!links.isEmpty)
  }

  // A stage's entry names its chapter, which compare-stages shows: an entry that borrows
  // another stage's is caught here. Stage 5's chapter builds the stage in steps, and the
  // chapters after it, 5b and 5c, link the module: the chapters that share its number.
  @Test("each stage has a chapter of its own, which (or one sharing its number) links its module")
  func stagesHaveTheirOwnChapter() throws {
    var owners: [String: CatalogEntry] = [:]
    for stage in CatalogEntry.stages {
      let module = stage.design.module
      let chapter = try #require(stage.design.chapter, "\(module) names no chapter")
      if let owner = owners[chapter] {
        let fix = "write its own in Tutorial/ and name it in its CatalogEntry.stage(…) call"
        Issue.record(
          "\(module)'s entry names \(chapter), \(owner.design.module)'s chapter: \(fix)")
      }
      owners[chapter] = stage
      let file = String(chapter.dropFirst("Tutorial/".count))
      let number = file.prefix { $0.isNumber }
      let siblings = try FileManager.default.contentsOfDirectory(
        atPath: packageRoot.appendingPathComponent("Tutorial").path
      ).filter { $0.hasPrefix(number) && $0.hasSuffix(".md") }
      let linking = try siblings.filter { sibling in
        try String(
          contentsOf: packageRoot.appendingPathComponent("Tutorial/\(sibling)"), encoding: .utf8
        ).contains("](../Sources/\(module)")
      }
      #expect(
        !linking.isEmpty,
        "\(chapter), \(module)'s chapter, should link its module: [Source](../Sources/\(module)/…)")
    }
  }

  @Test("the reference page and the changelog name every library product that has no catalog")
  func productsWithoutACatalogAreNamed() throws {
    let missing = try Set(libraryProducts()).subtracting(modulesWithCatalogs())
    for (path, claim) in [
      ("REFERENCE.md", /Every library product( but [^,.]+)?[^.]* has a DocC catalog/),
      ("CHANGELOG.md", /A DocC catalog for every library product( but [^;.]+)?[;.]/),
    ] {
      let text = collapsed(
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8))
      let match = try #require(text.firstMatch(of: claim), "\(path) does not say which have one")
      let named = Set(
        (match.output.1 ?? "").matches(of: /`([A-Za-z0-9]+)`/).map { String($0.output.1) })
      // A stage always has a catalog: a new one without it is missing one, not to be named.
      #expect(
        named == missing,
        Comment(
          rawValue: "\(path) names \(named.sorted()) as having no catalog, and these have none: "
            + "\(missing.sorted()); a stage needs one, Sources/NAME/NAME.docc"))
    }
  }

  // ReadingTheVerdicts.md's table: what the scenarios that need a capability read for a design
  // that neither has it nor says what it does instead. Stage 1 can neither unsubscribe nor
  // deliver an initial or an old value; each capability is taken out of its claims in turn.
  @Test("ReadingTheVerdicts says what a scenario reads for a capability left out, as it runs")
  func capabilityLeftOut() throws {
    let article = try MarkdownDocument(
      "Sources/Lab/ObserverScenarios/ObserverScenarios.docc/ReadingTheVerdicts.md")
    var rows = 0
    for line in article.text.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      try #require(cells.count == 3, "\(line)")
      let capability = try #require(
        ObservableDesign.Capability.allCases.first(where: { "`\($0)`" == cells[0] }), "\(cells[0])")
      var design = CatalogEntry.closures.design
      design.capabilities.remove(capability)
      design.inapplicable[capability] = nil
      for name in cells[1].matches(of: /`([a-z-]+)`/).map({ String($0.output.1) }) {
        let scenario = try #require(
          Scenario.all.first(where: { $0.name == name }), "\(name)")
        #expect(
          scenario.run(on: design).verdict.symbol == cells[2],
          "\(name) without \(capability)")
        rows += 1
      }
    }
    #expect(rows == 7)
  }

  @Test(
    "a stage's landing page links its chapter with a link that works on GitHub, not as code text",
    arguments: CatalogEntry.stages)
  func landingPageLinksItsChapter(stage: CatalogEntry) throws {
    let module = stage.design.module
    let chapter = try #require(stage.design.chapter)
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent(
        "\(catalog(of: module))/\(module).md"),
      encoding: .utf8)
    #expect(page.contains("](../../../\(chapter))"), "\(module) does not link \(chapter)")
    #expect(!page.contains("`\(chapter)`"), "\(module) names \(chapter) as code text")
  }

  @Test("the ObserverScenarios articles show the outside example's code, line for line")
  func articlesShowTheExample() throws {
    let sources = packageRoot.appendingPathComponent("Examples/GradeYourOwn/Sources")
    let files =
      try ["GradeYourOwn/main.swift"]
      + FileManager.default.contentsOfDirectory(
        atPath: sources.appendingPathComponent("LibraryShapes").path
      ).sorted().map { "LibraryShapes/\($0)" }
    let examples = try files.map {
      try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8)
    }
    let folder = packageRoot.appendingPathComponent(
      "Sources/Lab/ObserverScenarios/ObserverScenarios.docc")
    var blocks = 0
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
    where file.hasSuffix(".md") {
      let article = try MarkdownDocument(
        "Sources/Lab/ObserverScenarios/ObserverScenarios.docc/\(file)")
      for block in article.fencedBlocks where block.language == "swift" {
        blocks += 1
        #expect(
          examples.contains { containsLines(of: block.content, in: $0) },
          "\(article.path):\(block.line): not, line for line, in Examples/GradeYourOwn")
      }
    }
    #expect(blocks > 0)
  }

  @Test("every stage library has a catalog with a landing page and a flaws article")
  func everyStageHasACatalog() throws {
    let catalogs = try modulesWithCatalogs()
    for module in CatalogEntry.stages.map(\.design.module) {
      #expect(catalogs.contains(module), "\(module) has no catalog")
      let flaws = packageRoot.appendingPathComponent("\(catalog(of: module))/Flaws.md")
      #expect(FileManager.default.fileExists(atPath: flaws.path), "\(module) has no Flaws.md")
    }
  }

  @Test(
    "each stage's flaws article names exactly the scenarios that fail for it, live",
    arguments: CatalogEntry.stages.filter { $0.design.documentedFlaws?.isEmpty == false })
  func flawsArticleMatchesTheScenarios(stage: CatalogEntry) throws {
    let module = stage.design.module
    let article = try String(
      contentsOf: packageRoot.appendingPathComponent("\(catalog(of: module))/Flaws.md"),
      encoding: .utf8)
    let named = Set(
      article.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix("- `"), let end = line.dropFirst(3).firstIndex(of: "`") else {
          return nil
        }
        return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
      })
    let failing = Set(
      Scenario.all.filter { $0.run(on: stage.design).verdict == .flaw }.map(\.name))
    #expect(named == failing)
  }
}
