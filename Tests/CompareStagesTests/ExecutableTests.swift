import Foundation
import Testing

/// Runs a product that `swift test` built beside the test bundle.
func runProduct(
  _ name: String, _ arguments: [String], environment: [String: String] = [:], input: String = ""
) throws -> (output: String, error: String, status: Int32) {
  let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  let executable = directory.appendingPathComponent(name)
  try #require(
    FileManager.default.isExecutableFile(atPath: executable.path),
    "\(name) should be built beside the tests, in \(directory.path)")
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  stdin.fileHandleForWriting.write(Data(input.utf8))
  try stdin.fileHandleForWriting.close()
  let output = stdout.fileHandleForReading.readDataToEndOfFile()
  let error = stderr.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (
    String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self),
    process.terminationStatus
  )
}

@Suite("compare-stages: the real executable")
struct ExecutableTests {
  @Test("it prints the table and exits 0 when every verdict matches")
  func runsClean() throws {
    let result = try runProduct("compare-stages", [])
    #expect(result.status == 0)
    #expect(result.error.isEmpty)
    #expect(result.output.contains("All 60 verdicts match the documented table."))
    #expect(!result.output.contains("\u{1B}["), "no colour when stdout is a pipe")
  }

  @Test("bad input: one line on stderr, nothing on stdout, exit status 64")
  func badInput() throws {
    let result = try runProduct("compare-stages", ["--stage", "7"])
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(
      result.error
        == "compare-stages: unknown stage '7' (valid: 1, 2, 3, 4); see 'compare-stages --help'\n")
  }
}
