import Foundation
import TutorialDemos

/// `swift run tutorial N`: runs the demo of chapter N.
@main
struct TutorialMain {
  static let usage = """
    USAGE: tutorial <chapter>

    Runs the demo of a chapter of the tutorial in Tutorial/:
    \(Demo.chapters.map { "  \($0.number)  \($0.title)" }.joined(separator: "\n"))

    Chapter 6 is `swift run compare-stages`; the others have no demo.
    """

  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments == ["--help"] || arguments == ["-h"] || arguments.isEmpty {
      print(usage)
      exit(0)
    }
    let valid = Demo.chapters.map { String($0.number) }.joined(separator: ", ")
    guard arguments.count == 1, let number = Int(arguments[0]),
      Demo.chapters.contains(where: { $0.number == number })
    else {
      let problem =
        arguments.count == 1 ? "no demo for chapter '\(arguments[0])'" : "give one chapter number"
      FileHandle.standardError.write(
        Data("tutorial: \(problem) (valid: \(valid)); see 'tutorial --help'\n".utf8))
      exit(64)
    }
    let transcript = Transcript { FileHandle.standardOutput.write(Data($0.utf8)) }
    Demo(transcript: transcript).run(chapter: number)
  }
}
