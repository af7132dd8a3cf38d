import Foundation
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

  @Test(
    "the folders that compile another's files again hold links to them, not copies",
    arguments: [
      ("Tests/Stage5TunedTests", "../Stage5ConcurrencyTests"),
      ("Sources/Lab/Stage5TunedVariants/Mutex", "../../../Stage5Tuned"),
      ("Sources/Lab/Stage5TunedVariants/TwoTrips", "../../../Stage5Tuned"),
      ("Sources/Lab/Stage5TunedVariants/Allocating", "../../../Stage5Tuned"),
      ("Sources/Lab/Stage5TunedVariants/Retaining", "../../../Stage5Tuned"),
      ("Sources/Lab/Stage5TunedVariants/Wrapped", "../../../Stage5Tuned"),
      ("Sources/Lab/Stage5TunedVariants/WeakToken", "../../../Stage5Tuned"),
    ])
  func linkedFolders(folder: String, target: String) throws {
    let manager = FileManager.default
    let linked = try manager.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent(folder).path)
    #expect(!linked.isEmpty)
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
    #expect(offenders.isEmpty, "use _testProductsFolder (CommandSupport)")
  }
}
