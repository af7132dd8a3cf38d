import CommandSupport
import Foundation
import Support

/// How many hints of each exercise the learner has seen, kept between runs so that each
/// `workshop hint N` goes one step further. The file is JSON: `{"hintsShown": {"3": 2}}`.
package struct HintStore: Sendable {
  private struct File: Codable {
    var hintsShown: [String: Int]
  }

  package let url: URL

  /// A store that keeps its file at `url`, whose folder is made when a hint is first recorded.
  package init(url: URL) { self.url = url }

  /// The store in the config folder: `workshop-hints.json` there.
  package static func inConfigFolder(environment: [String: String]) -> HintStore {
    HintStore(
      url: configFolder(environment: environment).appendingPathComponent("workshop-hints.json"))
  }

  /// How many hints of exercise `number` were shown; 0 when the file is missing or unreadable.
  package func shown(for number: Int) -> Int {
    load().hintsShown[String(number)] ?? 0
  }

  /// Records that `count` hints of exercise `number` have now been shown.
  package func record(_ count: Int, for number: Int) throws {
    var file = load()
    file.hintsShown[String(number)] = count
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(prettyJSON(file).utf8).write(to: url, options: .atomic)
  }

  /// Forgets the hints shown of exercise `number`, or of every exercise when it is `nil`.
  package func reset(_ number: Int?) throws {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    var file = load()
    if let number {
      file.hintsShown[String(number)] = nil
    } else {
      file.hintsShown = [:]
    }
    try Data(prettyJSON(file).utf8).write(to: url, options: .atomic)
  }

  private func load() -> File {
    guard let data = try? Data(contentsOf: url),
      let file = try? JSONDecoder().decode(File.self, from: data)
    else { return File(hintsShown: [:]) }
    return file
  }
}
