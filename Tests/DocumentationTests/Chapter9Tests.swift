#if os(macOS) || os(Linux)
  import Foundation
  import TestSupport
  import Testing

  /// Chapter 9's road into an app: the manifest it shows, and the files it says to copy.
  @Suite("Chapter 9: depending on stage 5, or copying it")
  struct Chapter9Tests {
    private let chapter = "Tutorial/09-in-your-app.md"

    /// This package's manifest.
    private func manifest() throws -> String {
      try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    }

    @Test(
      "the app's manifest has this package's tools version and platforms, and names a library product of this package by the URL's last part"
    )
    func appManifest() throws {
      let document = try MarkdownDocument(chapter)
      let block = try #require(
        document.fencedBlocks.first { $0.marker == "file: Package.swift" },
        "\(chapter) shows no <!-- file: Package.swift -->")
      let manifest = try manifest()
      let lines = block.content.split(separator: "\n")
      #expect(
        lines.first == manifest.split(separator: "\n").first,
        "\(chapter):\(block.line): this package's tools version, the oldest Swift that builds it")
      let platforms = try #require(block.content.firstMatch(of: /platforms: \[([^\]]*)\]/))
      for platform in platforms.output.1.split(separator: ", ") {
        #expect(
          manifest.contains(platform),
          "\(chapter):\(block.line): \(platform) is not one of this package's platforms")
      }
      // SwiftPM names a dependency by its identity, the URL's last part without `.git`.
      let url = try #require(block.content.firstMatch(of: /\.package\(url: "([^"]+)"/)).output.1
      let identity = try #require(url.split(separator: "/").last).replacing(".git", with: "")
      let products = block.content.matches(of: /\.product\(name: "(\w+)", package: "(\w+)"\)/)
      #expect(!products.isEmpty)
      for product in products {
        #expect(product.output.2 == identity, "\(chapter):\(block.line): package: \(identity)")
        let name = String(product.output.1)
        #expect(
          FileManager.default.fileExists(
            atPath: packageRoot.appendingPathComponent("Sources/\(name)").path)
            && manifest.contains("\"\(name)\""),
          "\(chapter):\(block.line): \(name) is not a stage of this package")
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
