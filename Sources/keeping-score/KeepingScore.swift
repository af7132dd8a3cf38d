import Foundation
import KeepingScore

/// `swift run keeping-score`: plays the quiz on standard input and output.
@main
struct KeepingScoreMain {
  static func main() {
    let status = KeepingScoreCommand.run(
      Array(CommandLine.arguments.dropFirst()),
      environment: ProcessInfo.processInfo.environment,
      readLine: { Swift.readLine() },
      print: { Swift.print($0) },
      warn: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    exit(status)
  }
}
