#if os(macOS) || os(Linux)
  import Foundation
  import TestSupport
  import Testing

  /// Chapter 9's road into an app: the manifest lines it shows, and the files it says to copy.
  @Suite("Chapter 9: depending on stage 5, or copying it")
  struct Chapter9Tests {
    private let chapter = "Tutorial/09-in-your-app.md"

    /// This package's manifest.
    private func manifest() throws -> String {
      try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    }

    @Test("the manifest lines name a library product of this package, and the package by its name")
    func manifestLines() throws {
      let document = try MarkdownDocument(chapter)
      let blocks = document.fencedBlocks.filter { $0.marker?.hasPrefix("manifest: ") == true }
      try #require(blocks.count == 2, "\(chapter): a manifest block and an import block")
      let manifest = try manifest()
      let packageName = try #require(
        manifest.firstMatch(of: /let package = Package\(\s*name: "([A-Za-z0-9]+)"/)?.output.1)
      for block in blocks {
        let product = String(block.marker!.dropFirst("manifest: ".count))
        // A library product: a stage module, named in the manifest's tables.
        #expect(
          FileManager.default.fileExists(
            atPath: packageRoot.appendingPathComponent("Sources/\(product)").path)
            && manifest.contains("\"\(product)\""),
          "\(chapter):\(block.line): \(product) is not a stage of this package")
        if block.content.hasPrefix("import ") {
          #expect(block.content == "import \(product)\n", "\(chapter):\(block.line)")
        } else {
          #expect(
            block.content.contains(
              ".product(name: \"\(product)\", package: \"\(packageName)\")"),
            "\(chapter):\(block.line): the product and the package, as the manifest names them")
          #expect(
            block.content.contains("/\(packageName).git\", from: \""),
            "\(chapter):\(block.line): a URL whose last part is the package's name")
        }
      }
    }

    @Test("the files chapter 9 says to copy are the copy list the tests compile as an app")
    func copyList() throws {
      let document = try MarkdownDocument(chapter)
      let lines = document.lines
      let start = try #require(
        lines.firstIndex(of: "<!-- copy list: Sources/Stage5Concurrency -->"),
        "\(chapter) has no copy list")
      let list = lines[(start + 1)...].prefix { $0.hasPrefix("- ") }
      let files = list.compactMap { $0.firstMatch(of: /\[`([A-Za-z+]+\.swift)`\]/)?.output.1 }
      #expect(files.count == list.count, "every line of the list names one file")
      #expect(Set(files.map(String.init)) == lessonCopyList)
      #expect(files == files.sorted(), "in the order a folder lists them")
      // The file left out is the rest of the folder, named right after the list.
      let folder = try FileManager.default.contentsOfDirectory(
        atPath: packageRoot.appendingPathComponent("Sources/Stage5Concurrency").path
      ).filter { $0.hasSuffix(".swift") }
      let rest = Set(folder).subtracting(lessonCopyList)
      let after = lines[(start + 1 + list.count)...].drop { $0.isEmpty }.prefix { !$0.isEmpty }
        .joined(separator: " ")
      for file in rest {
        #expect(after.contains("`\(file)`"), "\(chapter) should say to leave out \(file)")
      }
    }
  }
#endif
