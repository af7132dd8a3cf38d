#if os(macOS) || os(Linux)
  import Foundation

  /// What the compiler says of `snippet`, compiled in the language mode `swiftVersion` (6
  /// unless said) as the module `Snippet`,
  /// with `files` beside it and `flags` added (`-typecheck`, or `-wmo -emit-sil -o /dev/null`
  /// for the checks made after type checking, such as isolation); `nil` if it compiled.
  ///
  /// Runs `swiftc` from the `PATH`, as a reader's shell would, on a file in a temporary folder
  /// of its own.
  ///
  /// - Parameters:
  ///   - snippet: The code to compile, as a file of its own.
  ///   - files: Paths of Swift files compiled beside it, in the same module.
  ///   - swiftVersion: The language mode, `-swift-version`.
  ///   - flags: More of the compiler's options.
  /// - Returns: Everything the compiler printed, when it failed.
  /// - Throws: When the folder cannot be made, or `swiftc` cannot be started or hangs.
  package func compilerDiagnostics(
    compiling snippet: String, with files: [String] = [], swiftVersion: Int = 6, flags: [String]
  ) throws -> String? {
    try withTemporaryFolder("snippet") { folder in
      let snippetFile = folder.appending(path: "Snippet.swift")
      try snippet.write(to: snippetFile, atomically: true, encoding: .utf8)
      let run = try ProcessRun(
        [
          "swiftc", "-swift-version", String(swiftVersion), "-parse-as-library", "-module-name",
          "Snippet",
        ]
          + flags
          + files + [snippetFile.path])
      return run.status == 0 ? nil : run.outputAndError
    }
  }
#endif
