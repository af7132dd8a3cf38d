#if os(macOS) || os(Linux)
  import Foundation
  import Testing

  /// The compiler's diagnostics for `source`, compiled alone as a library in Swift 6 mode, or
  /// `nil` if it compiled.
  private func diagnostics(compiling source: String) throws -> String? {
    let folder = FileManager.default.temporaryDirectory.appending(path: "chapter4-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appending(path: "Snippet.swift")
    try source.write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(filePath: "/usr/bin/env")
    process.arguments = [
      "swiftc", "-swift-version", "6", "-parse-as-library", "-module-name", "Snippet",
      "-typecheck", file.path,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return process.terminationStatus == 0 ? nil : text
  }

  @Suite("Chapter 4's claims, compiled here")
  struct Chapter4Tests {
    @Test("a property with didSet cannot be @inlinable; a getter and setter over storage can")
    func inlinableNeedsASetter() throws {
      let message = "'@inlinable' attribute cannot be applied to stored properties"
      let withDidSet = try diagnostics(
        compiling: """
          public final class Box {
            @inlinable public var value: Int = 0 { didSet {} }
            public init() {}
          }
          """)
      #expect(withDidSet?.contains(message) == true, "\(withDidSet ?? "it compiled")")
      let withSetter = try diagnostics(
        compiling: """
          public final class Box {
            @inlinable public var value: Int {
              get { storedValue }
              set { storedValue = newValue }
            }
            @usableFromInline var storedValue = 0
            public init() {}
          }
          """)
      #expect(withSetter == nil, "\(withSetter ?? "")")
      let chapter = try MarkdownDocument("Tutorial/04-option-sets-auto-removal.md")
      #expect(collapsed(chapter.text).contains(message))
    }
  }
#endif
