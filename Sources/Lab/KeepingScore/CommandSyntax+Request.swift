import CommandSupport

extension CommandSyntax {
  /// What `arguments` ask for, `help` for `--help` and `--version`; `nil` once the usage error
  /// is named in one line on `io`'s standard error, for the command to return
  /// ``ExitCode/usage``.
  package func request(_ arguments: [String], help: Result, io: CommandIO) -> Result? {
    do {
      switch try parse(arguments) {
      case .help, .version: return help
      case .run(let asked): return asked
      }
    } catch {
      io.printError("\(error)")
      return nil
    }
  }
}
