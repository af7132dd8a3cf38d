import CommandSupport
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command's standard output goes when it cannot be written.
enum BrokenOutput: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// Closed, as `command >&-` leaves it: writes fail with `EBADF`.
  case closed
  /// `/dev/full`, a disk that is always full: writes fail with `ENOSPC`. Linux has it; macOS
  /// does not, so there the case is not listed.
  case full
  /// A pipe whose reader has gone, as in `command | head -1`: writes fail with `EPIPE`, unless
  /// `SIGPIPE` kills the writer first.
  case pipeWithoutReader

  /// The cases this system can set up.
  static let available = allCases.filter {
    $0 != .full || FileManager.default.fileExists(atPath: "/dev/full")
  }

  /// The `errno` a write to it fails with.
  var code: Int32 {
    switch self {
    case .closed: EBADF
    case .full: ENOSPC
    case .pipeWithoutReader: EPIPE
    }
  }

  var testDescription: String { rawValue }
}

@Suite("CommandIO: a write that fails is reported, never a crash")
struct CommandIOWriteFailureTests {
  /// What `writing(output:error:onFailure:)` reported.
  private final class Failures: Sendable {
    private let list = Mutex<[WriteFailure]>([])
    var report: @Sendable (WriteFailure) -> Void {
      { failure in self.list.withLock { $0.append(failure) } }
    }
    var all: [WriteFailure] { list.withLock { $0 } }
  }

  @Test("a write to a descriptor open only for reading reports EBADF, for each stream")
  func readOnlyDescriptor() throws {
    let descriptor = open("/dev/null", O_RDONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let failures = Failures()
    let io = CommandIO.writing(output: descriptor, error: descriptor, onFailure: failures.report)
    io.print("lost")
    io.printError("lost too")
    #expect(
      failures.all == [WriteFailure(.output, code: EBADF), WriteFailure(.error, code: EBADF)])
    #expect(
      failures.all.first?.message
        == "cannot write to standard output: \(String(cString: strerror(EBADF)))")
  }

  @Test(
    "a write to a full disk reports ENOSPC",
    .enabled(if: BrokenOutput.available.contains(.full), "this system has no /dev/full"))
  func fullDisk() throws {
    let descriptor = open("/dev/full", O_WRONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    let failures = Failures()
    CommandIO.writing(output: descriptor, error: STDERR_FILENO, onFailure: failures.report)
      .write("lost")
    #expect(failures.all == [WriteFailure(.output, code: ENOSPC)])
  }

  @Test("every byte of a long text is written, and nothing is reported")
  func writesEverything() throws {
    try withTemporaryFolder("command-io") { folder in
      let url = folder.appendingPathComponent("output")
      let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      try #require(descriptor >= 0)
      let failures = Failures()
      let text = String(repeating: "é observer ✓\n", count: 100_000)
      CommandIO.writing(output: descriptor, error: STDERR_FILENO, onFailure: failures.report)
        .write(text)
      close(descriptor)
      #expect(failures.all.isEmpty)
      #expect(try String(contentsOf: url, encoding: .utf8) == text)
    }
  }
}

#if os(macOS) || os(Linux)
  /// Runs the product `name` with its standard output broken as `output` says.
  private func runProduct(
    _ name: String, _ arguments: [String], output: BrokenOutput,
    environment: [String: String] = [:]
  ) throws -> ProcessRun {
    switch output {
    case .closed:
      // A process cannot be started with a stream closed; the shell can, and exec keeps the
      // process, so its status and signal are the product's.
      return try ProcessRun(
        ["/bin/sh", "-c", #"exec "$0" "$@" >&-"#, try productURL(name).path] + arguments,
        environment: environment)
    case .full:
      let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
      defer { try? full.close() }
      return try runProduct(name, arguments, environment: environment, standardOutput: full)
    case .pipeWithoutReader:
      let readerless = Pipe()
      // The only reader is closed before the product starts: its first write finds none.
      try readerless.fileHandleForReading.close()
      defer { try? readerless.fileHandleForWriting.close() }
      return try runProduct(
        name, arguments, environment: environment,
        standardOutput: readerless.fileHandleForWriting)
    }
  }

  @Suite("Every executable: a closed or full standard output ends it with a message, not a crash")
  struct OutputFailureTests {
    /// Each command, run the way that writes its usual output.
    static let commands: [(product: String, arguments: [String])] = [
      ("compare-stages", []), ("tutorial", ["1"]), ("keeping-score", ["1"]),
      ("workshop", ["--help"]),
    ]

    @Test(
      "one line on stderr naming the problem, exit status 74 (EX_IOERR), no signal",
      arguments: commands.map(\.product), BrokenOutput.available)
    func writeFailure(product: String, output: BrokenOutput) throws {
      let arguments = try #require(Self.commands.first { $0.product == product }).arguments
      try withTemporaryFolder("output-failure") { folder in
        let config = folder.appendingPathComponent("config")
        let result = try runProduct(
          product, arguments, output: output, environment: ["XDG_CONFIG_HOME": config.path])
        #expect(result.ending == .exited(ExitCode.ioError.rawValue), "no signal")
        #expect(
          result.error == "\(product): \(WriteFailure(.output, code: output.code).message)\n")
      }
    }
  }
#endif
