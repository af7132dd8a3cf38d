#if os(macOS) || os(Linux)
  import Foundation

  /// What a program run by ``runProgram(_:in:)`` printed, and how it ended.
  package struct ProgramRun: Sendable {
    /// Standard output and standard error, interleaved as the program wrote them.
    package var output: String
    /// The exit status.
    package var status: Int32
  }

  /// Runs `arguments` (a program found on the `PATH`, as a reader's shell finds it, and its
  /// arguments) in `folder`, or in this process's folder, and returns what it printed.
  ///
  /// The one way the tests start the toolchain's programs: `swiftc`, `swift build`, `git`.
  ///
  /// - Throws: When the program cannot be started.
  package func runProgram(_ arguments: [String], in folder: URL? = nil) throws -> ProgramRun {
    let process = Process()
    process.executableURL = URL(filePath: "/usr/bin/env")
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return ProgramRun(output: text, status: process.terminationStatus)
  }

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
    let run = try runProgram(
      [
        "swiftc", "-swift-version", String(swiftVersion), "-parse-as-library", "-module-name",
        "Snippet",
      ]
        + flags
        + files + [snippetFile.path])
    return run.status == 0 ? nil : run.output
  }
#endif
