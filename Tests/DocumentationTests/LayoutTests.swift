import DesignCatalog
import Foundation
import TestSupport
import Testing

@Suite("Documentation: the package's layout")
struct LayoutTests {
  /// The folders a `<!-- tree: Sources -->` picture draws, as paths: `Sources/Lab/Commands`.
  private func drawnFolders(in block: MarkdownDocument.FencedBlock) -> Set<String> {
    var parents: [String] = []
    var folders: Set<String> = []
    for line in block.content.split(separator: "\n").map(String.init) {
      // A root line is the folder alone; each level below it is drawn four characters wider.
      guard let name = line.firstMatch(of: /([A-Za-z0-9-]+)\//)?.output.1 else { continue }
      let depth =
        line.distance(
          from: line.startIndex, to: line.firstRange(of: "\(name)/")!.lowerBound) / 4
      parents = Array(parents.prefix(depth)) + [String(name)]
      folders.insert(parents.joined(separator: "/"))
    }
    return folders
  }

  /// The folders under `root`, as paths relative to the package, `root` itself included.
  private func folders(under root: String) throws -> Set<String> {
    let manager = FileManager.default
    var found: Set<String> = [root]
    for name in try manager.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent(root).path)
    where !name.hasPrefix(".") {
      var isFolder: ObjCBool = false
      let path = "\(root)/\(name)"
      if manager.fileExists(
        atPath: packageRoot.appendingPathComponent(path).path, isDirectory: &isFolder),
        isFolder.boolValue
      {
        found.insert(path)
      }
    }
    return found
  }

  @Test("CONTRIBUTING's picture of Sources draws every stage, lab module and command folder")
  func treeMatchesTheFolders() throws {
    let document = try MarkdownDocument("CONTRIBUTING.md")
    let block = try #require(document.fencedBlocks.first { $0.marker == "tree: Sources" })
    let actual = try folders(under: "Sources").union(folders(under: "Sources/Lab"))
      .union(folders(under: "Sources/Lab/Commands"))
    let drawn = drawnFolders(in: block)
    #expect(actual.subtracting(drawn).sorted() == [], "folders the picture does not draw")
    #expect(drawn.subtracting(actual).sorted() == [], "folders drawn that are not there")
  }

  @Test("every stage module has its entry in CatalogEntry.stages, and every catalog file names one")
  func everyStageIsInTheCatalog() throws {
    // Every folder of Sources but the lab's is a stage module; the tuned one is stage 5's
    // second version, a contender of stage 5's entry (Package.swift's `tuned`).
    let manifest = try String(
      contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let tuned = try #require(manifest.firstMatch(of: /let tuned = "([^"]+)"/)).output.1
    let modules = try folders(under: "Sources").map { $0.dropFirst("Sources/".count) }
      .filter { !$0.isEmpty && $0 != "Lab" && $0 != tuned }.map(String.init)
    let listed = CatalogEntry.stages.map(\.design.module)
    #expect(
      Set(modules).subtracting(listed).sorted() == [],
      "a stage module with no entry in CatalogEntry.stages (DesignCatalog/CatalogEntry.swift)")
    let catalogFiles = try FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent("Sources/Lab/DesignCatalog").path
    ).filter { $0.hasPrefix("Stage") }.map { String($0.dropLast(".swift".count)) }
    #expect(
      Set(catalogFiles).subtracting(listed).sorted() == [],
      "a catalog file whose stage is not in CatalogEntry.stages")
    #expect(Set(listed).subtracting(modules).sorted() == [], "an entry with no module")
  }

  @Test(
    "the folders that compile another's files again hold links to them, not copies",
    arguments: [
      ("Tests/Stage5TunedTests", "../Stage5ConcurrencyTests"),
      ("Benchmarks/Sources/Stage5Tuned", "../../../Sources/Stage5Tuned"),
      ("Benchmarks/Sources/StageBench", "../../../Sources/Lab/StageBench"),
      ("Benchmarks/Sources/Support", "../../../Sources/Lab/Support"),
      ("Benchmarks/Sources/Stage5Concurrency", "../../../Sources/Stage5Concurrency"),
    ])
  func linkedFolders(folder: String, target: String) throws {
    let manager = FileManager.default
    let linked = try manager.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent(folder).path)
    #expect(!linked.isEmpty)
    // Every file of a module compiled again is linked: one added there and not here would be
    // missing from the copy. (The tuned module's tests leave out a test of the lesson's own.)
    guard folder.hasPrefix("Benchmarks/") else { return }
    let targetFolder = packageRoot.appendingPathComponent(folder).appendingPathComponent(target)
      .standardizedFileURL.path
    let sources = try manager.contentsOfDirectory(atPath: targetFolder).filter {
      $0.hasSuffix(".swift")
    }
    #expect(Set(linked) == Set(sources))
    for file in linked {
      let path = packageRoot.appendingPathComponent("\(folder)/\(file)").path
      #expect(
        (try? manager.destinationOfSymbolicLink(atPath: path)) == "\(target)/\(file)",
        "\(folder)/\(file) is not a link to \(target)/\(file)")
    }
  }

  @Test(
    "no test finds the products from the program's first argument, which on macOS names SwiftPM's helper"
  )
  func noTestLooksBesideArgumentZero() throws {
    let manager = FileManager.default
    let tests = packageRoot.appendingPathComponent("Tests")
    // Spelled in two pieces, so that this file does not find itself.
    let needle = "CommandLine.arguments" + "[0]"
    var offenders: [String] = []
    for target in try manager.contentsOfDirectory(atPath: tests.path)
    where target.hasSuffix("Tests") {
      let folder = tests.appendingPathComponent(target)
      for file in manager.enumerator(atPath: folder.path)?.compactMap({ $0 as? String }) ?? []
      where file.hasSuffix(".swift") {
        let text = try String(
          contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        for line in text.split(separator: "\n")
        where line.contains(needle)
          && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
        {
          offenders.append("Tests/\(target)/\(file): \(line)")
        }
      }
    }
    #expect(offenders.isEmpty, "use testProductsFolder (TestSupport)")
  }

  /// The commands, as CONTRIBUTING's picture of Sources draws them: `compare-stages`.
  private func commands() throws -> [String] {
    try FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent("Sources/Lab/Commands").path
    ).sorted()
  }

  /// `CompareStages` for `compare-stages`.
  private func typeName(of command: String) -> String {
    command.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  @Test(
    "each command follows the name table: a NameMain executable over a NameKit library entered by NameCommand.run"
  )
  func commandsFollowTheNameTable() throws {
    let manager = FileManager.default
    for command in try commands() {
      let name = typeName(of: command)
      let folder = "Sources/Lab/Commands/\(command)"
      let files = try manager.contentsOfDirectory(
        atPath: packageRoot.appendingPathComponent(folder).path)
      #expect(files == ["\(name)Main.swift"], "\(folder) holds \(files)")
      let main = try String(
        contentsOf: packageRoot.appendingPathComponent("\(folder)/\(name)Main.swift"),
        encoding: .utf8)
      #expect(main.contains("struct \(name)Main {"), "\(folder): its @main is not \(name)Main")
      #expect(main.contains("import \(name)Kit\n"), "\(folder) does not import \(name)Kit")
      #expect(main.contains("\(name)Command.run("), "\(folder) does not call \(name)Command.run")
      let library = packageRoot.appendingPathComponent("Sources/Lab/\(name)Kit").path
      #expect(manager.fileExists(atPath: library), "no library Sources/Lab/\(name)Kit")
    }
  }

  @Test(
    "the bench's code calls a design a bench observable, never a subject, as the name table says")
  func benchSaysBenchObservable() throws {
    let manager = FileManager.default
    var offenders: [String] = []
    for folder in ["Sources/Lab/StageBench", "Sources/Lab/DesignCatalog", "Tests/StageBenchTests"] {
      let url = packageRoot.appendingPathComponent(folder)
      for file in try manager.contentsOfDirectory(atPath: url.path) where file.hasSuffix(".swift") {
        let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
        if text.range(of: #"\b[A-Za-z]*[Ss]ubject\b"#, options: .regularExpression) != nil {
          offenders.append("\(folder)/\(file)")
        }
      }
    }
    #expect(offenders.isEmpty, "\(offenders)")
  }
}
