#if os(macOS) || os(Linux)
  import Foundation

  /// What the compiler says of `snippet`, compiled in the language mode `swiftVersion` (6
  /// unless said) as the module `Snippet`,
  /// with `files` beside it and `flags` added (`-typecheck`, or `-wmo -emit-sil -o /dev/null`
  /// for the checks made after type checking, such as isolation); `nil` if it compiled.
  ///
  /// Runs `swiftc` from the `PATH`, as a reader's shell would, on a file in a folder of its own,
  /// removed afterwards.
  ///
  /// - Parameters:
  ///   - snippet: The code to compile, as a file of its own.
  ///   - files: Paths of Swift files compiled beside it, in the same module.
  ///   - swiftVersion: The language mode, `-swift-version`.
  ///   - flags: More of the compiler's options.
  /// - Returns: Everything the compiler printed, when it failed.
  /// - Throws: When the folder cannot be made, or `swiftc` cannot be started.
  package func compilerDiagnostics(
    compiling snippet: String, with files: [String] = [], swiftVersion: Int = 6, flags: [String]
  ) throws -> String? {
    let folder = FileManager.default.temporaryDirectory.appending(path: "snippet-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let snippetFile = folder.appending(path: "Snippet.swift")
    try snippet.write(to: snippetFile, atomically: true, encoding: .utf8)
    let (status, text) = try run(
      "/usr/bin/env",
      [
        "swiftc", "-swift-version", String(swiftVersion), "-parse-as-library", "-module-name",
        "Snippet",
      ]
        + flags
        + files + [snippetFile.path])
    return status == 0 ? nil : text
  }

  /// What `program` prints when it runs: compiled in the Swift 6 language mode as the
  /// `main.swift` of an executable, so that its top-level code is the program, with `files`
  /// beside it in the same module (`Program`, its package `Program`).
  ///
  /// - Parameters:
  ///   - program: The top-level code, a file of its own.
  ///   - files: Paths of Swift files compiled beside it.
  /// - Returns: What it wrote to its standard output and error, and its exit status; or, when it
  ///   did not compile, everything the compiler printed, and the status `nil`.
  /// - Throws: When the folder cannot be made, or `swiftc` or the program cannot be started.
  package func programOutput(
    running program: String, with files: [String] = []
  ) throws -> (output: String, status: Int32?) {
    let folder = FileManager.default.temporaryDirectory.appending(path: "program-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let main = folder.appending(path: "main.swift")
    let executable = folder.appending(path: "program")
    try program.write(to: main, atomically: true, encoding: .utf8)
    let (compiled, diagnostics) = try run(
      "/usr/bin/env",
      [
        "swiftc", "-swift-version", "6", "-module-name", "Program", "-package-name", "Program",
        "-o", executable.path,
      ] + files + [main.path])
    guard compiled == 0 else { return (diagnostics, nil) }
    let (status, output) = try run(executable.path, [])
    return (output, status)
  }

  /// Runs `executable` with `arguments`, and returns its exit status and what it printed, its
  /// standard output and error together.
  private func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(filePath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }
#endif
