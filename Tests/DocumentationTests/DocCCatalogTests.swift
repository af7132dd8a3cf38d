import DesignCatalog
import Foundation
import ObserverScenarios
import Testing

@Suite("Documentation: DocC catalogs")
struct DocCCatalogTests {
  /// The modules with a catalog in `Sources/NAME/NAME.docc`.
  private func modulesWithCatalogs() throws -> Set<String> {
    let sources = packageRoot.appendingPathComponent("Sources")
    let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path)
    return Set(
      modules.filter { module in
        FileManager.default.fileExists(
          atPath: sources.appendingPathComponent("\(module)/\(module).docc/\(module).md").path)
      })
  }

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

  @Test("every stage library has a catalog with a landing page and a flaws article")
  func everyStageHasACatalog() throws {
    let catalogs = try modulesWithCatalogs()
    for module in Design.stages.map(\.observable.module) {
      #expect(catalogs.contains(module), "\(module) has no catalog")
      let flaws = packageRoot.appendingPathComponent("Sources/\(module)/\(module).docc/Flaws.md")
      #expect(FileManager.default.fileExists(atPath: flaws.path), "\(module) has no Flaws.md")
    }
  }

  @Test(
    "each stage's flaws article names exactly the scenarios that fail for it, live",
    arguments: Design.stages.filter { $0.observable.documentedFlaws?.isEmpty == false })
  func flawsArticleMatchesTheScenarios(stage: Design) throws {
    let module = stage.observable.module
    let article = try String(
      contentsOf: packageRoot.appendingPathComponent("Sources/\(module)/\(module).docc/Flaws.md"),
      encoding: .utf8)
    let named = Set(
      article.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix("- `"), let end = line.dropFirst(3).firstIndex(of: "`") else {
          return nil
        }
        return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
      })
    let failing = Set(
      Scenario.all.filter { $0.run(on: stage.observable).verdict == .flaw }.map(\.name))
    #expect(named == failing)
  }
}
