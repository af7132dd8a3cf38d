import Support

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
  /// says why, if it can be written (see ``CommandIO/standard``). A standard error that cannot
  /// be written changes no status: the command ends as it would have.
  package static let ioError = ExitCode(rawValue: 74)

  /// "exit status 64".
  package var description: String { "exit status \(rawValue)" }

  /// The EXIT STATUS part of a command's `--help`, the same shape for every command: what 0
  /// and 1 mean for that command, and 64 and 74, which mean the same for all.
  ///
  /// - Parameters:
  ///   - success: What 0 means.
  ///   - failure: What 1 means; `nil` for a command that never exits 1.
  ///   - ioError: What 74 adds to an output that cannot be written, such as a file the command
  ///     writes besides its output.
  /// - Returns: The heading and one row a status, each row wrapped at 90 columns, ending with
  ///   a blank line.
  package static func help(success: String, failure: String?, ioError: String? = nil) -> String {
    let usageMeaning = "bad usage; the problem is named on standard error"
    var ioMeaning = "standard output cannot be written (closed, a full disk, a reader gone)"
    if let ioError { ioMeaning += "; or \(ioError)" }
    ioMeaning += "; standard error says why"
    var rows: [(status: ExitCode, meaning: String)] = [(.success, success)]
    if let failure { rows.append((.failure, failure)) }
    rows.append((.usage, usageMeaning))
    rows.append((.ioError, ioMeaning))
    var text = "EXIT STATUS:\n"
    for row in rows {
      let number = String(row.status.rawValue).padded(to: 4)
      for line in wrap(row.meaning, firstPrefix: "  " + number, prefix: "      ", width: 90) {
        text += line + "\n"
      }
    }
    return text + "\n"
  }
}
