#if os(macOS) || os(Linux)
  import Foundation
  import TestSupport
  import Testing

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  @Suite("ProcessRun and withTemporaryFolder: the tests' own runner and folders keep their word")
  struct ProcessRunTests {
    @Test(
      "a run gets its arguments, environment, folder and input, and returns each stream and the exit status"
    )
    func everythingGoesInAndComesOut() throws {
      try withTemporaryFolder("process-run-test") { folder in
        let run = try ProcessRun(
          [
            "sh", "-c",
            #"printf '%s %s ' "$1" "$GREETING"; cat; printf 'to stderr'>&2; : > here; exit 3"#,
            "sh", "argument",
          ],
          environment: ["GREETING": "hello"], in: folder, input: "typed")
        #expect(run.output == "argument hello typed")
        #expect(run.error == "to stderr")
        #expect(run.ending == .exited(3))
        #expect(run.status == 3)
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: "here").path))
      }
    }

    @Test("a signal is an ending of its own, with no exit status")
    func signal() throws {
      let run = try ProcessRun(["sh", "-c", "kill -9 $$"])
      #expect(run.ending == .signaled(SIGKILL))
      #expect(run.status == nil)
    }

    @Test("standard output sent elsewhere is not captured")
    func outputElsewhere() throws {
      let run = try ProcessRun(["echo", "lost"], standardOutput: .nullDevice)
      #expect(run.ending == .exited(0))
      #expect(run.output.isEmpty)
    }

    @Test("a run past its time limit is stopped, and thrown as a hang: never a result")
    func hangIsAFailure() throws {
      try withTemporaryFolder("process-run-hang") { folder in
        let pidFile = folder.appending(path: "pid")
        let error = try #require(throws: ProcessRun.Hang.self) {
          try ProcessRun(
            ["sh", "-c", #"echo started; echo $$ > "$0"; exec sleep 600"#, pidFile.path],
            timeLimit: .milliseconds(500))
        }
        #expect(error.output == "started\n")
        #expect("\(error)".contains("had not ended after"))
        let pid = try #require(
          Int32(
            try String(contentsOf: pidFile, encoding: .utf8)
              .trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) != 0, "the hung program \(pid) still runs")
      }
    }

    @Test("a temporary folder is new and empty, and gone afterwards, read-only folders in it too")
    func temporaryFolder() throws {
      let (first, second) = try withTemporaryFolder("folder-test") { first in
        try withTemporaryFolder("folder-test") { second in
          #expect(first != second)
          #expect(try FileManager.default.contentsOfDirectory(atPath: first.path).isEmpty)
          let locked = first.appending(path: "locked")
          try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
          try Data("kept".utf8).write(to: locked.appending(path: "file"))
          chmod(locked.path, 0o555)
          return (first, second)
        }
      }
      #expect(!FileManager.default.fileExists(atPath: first.path))
      #expect(!FileManager.default.fileExists(atPath: second.path))
    }
  }
#endif
