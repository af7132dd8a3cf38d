#if os(macOS) || os(Linux)
  import Foundation
  import TestSupport
  import Testing

  /// The compiler's diagnostics for `source`, compiled alone as a library in Swift 6 mode, or
  /// `nil` if it compiled.
  private func diagnostics(compiling source: String) throws -> String? {
    try compilerDiagnostics(compiling: source, flags: ["-typecheck"])
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
