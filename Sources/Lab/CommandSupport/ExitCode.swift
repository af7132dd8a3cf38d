/// How a command ended: the status its process exits with.
package struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The status, as `exit` takes it.
  package var rawValue: Int32

  package init(rawValue: Int32) { self.rawValue = rawValue }

  /// It did what was asked: 0.
  package static let success = ExitCode(rawValue: 0)
  /// It ran, and what it found is not what was asked for (a verdict that differs from the
  /// documented table, an exercise not yet solved under `--strict`): 1.
  package static let failure = ExitCode(rawValue: 1)
  /// Bad usage, `EX_USAGE` in `sysexits.h`: 64. One line on standard error names the problem.
  package static let usage = ExitCode(rawValue: 64)

  /// Writing its output failed, `EX_IOERR` in `sysexits.h`: 74. One line on standard error
  /// says why, if it can be written (see ``CommandIO/standard``).
  package static let ioError = ExitCode(rawValue: 74)

  /// "exit status 64".
  package var description: String { "exit status \(rawValue)" }
}
