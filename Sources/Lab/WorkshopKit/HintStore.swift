import CommandSupport
import Foundation
import Support

/// How many hints of each exercise the learner has seen, kept between runs so that each
/// `workshop hint N` goes one step further. The file is JSON: `{"hintsShown": {"3": 2}}`.
///
/// The file is a ``SharedFile``: each change reads it as it is then and replaces it in one step,
/// one exercise's count at a time; a file that cannot be read as counts is moved aside, never
/// overwritten; a symbolic link is followed, and stays.
package struct HintStore: Sendable {
  private struct File: Codable {
    var hintsShown: [String: Int]
  }

  /// Why the store left what has the file's name as it is.
  package typealias Refusal = SharedFile.Refusal

  /// The hints file, read and replaced as ``SharedFile`` does it.
  private let file: SharedFile

  /// The file, as the user names it: it may be a symbolic link.
  package var url: URL { file.url }

  /// A store that keeps its file at `url`, whose folder is made when a hint is first recorded.
  /// `now` names a file set aside: `workshop-hints.json.unreadable-` and the time in UTC.
  package init(url: URL, now: @escaping @Sendable () -> Date = { Date() }) {
    file = SharedFile(url: url, holding: "the hints shown", now: now)
  }

  /// The store in the config folder: `workshop-hints.json` there.
  package static func inConfigFolder(environment: [String: String]) -> HintStore {
    HintStore(
      url: configFolder(environment: environment).appendingPathComponent("workshop-hints.json"))
  }

  // MARK: - Reading

  /// How many hints of exercise `number` were shown; 0 when the file is missing or cannot be
  /// read as counts. It changes nothing.
  package func shown(for number: Int) -> Int {
    guard case .value(let counts) = read() else { return 0 }
    return counts[String(number)] ?? 0
  }

  private func read() -> SharedFile.Contents<[String: Int]> {
    file.read { try? JSONDecoder().decode(File.self, from: $0).hintsShown }
  }

  // MARK: - Changing

  /// Shows one more hint of exercise `number`: reads its count, clamps it to
  /// `0...limit` (a hand-edited file may hold anything), adds one unless it is `limit`
  /// already, and saves that. Returns the new count, 1 when the file could not be read, and
  /// where a damaged file was moved, in one line, when it was.
  ///
  /// - Throws: ``Refusal`` if something other than a file, such as a folder, has the file's
  ///   name, or its folder cannot be made; the file system's error if the file cannot be
  ///   written.
  package func advance(_ number: Int, upTo limit: Int) throws -> (count: Int, notice: String?) {
    var count = 0
    let notice = try change { counts in
      let shown = min(max(counts[String(number)] ?? 0, 0), limit)
      count = min(shown + 1, limit)
      counts[String(number)] = count
    }
    return (count, notice)
  }

  /// Forgets the hints shown of exercise `number`, or of every exercise when it is `nil`. A
  /// damaged file is moved aside, which forgets them too; the notice says where.
  ///
  /// - Throws: ``Refusal`` if something other than a file has the file's name; the file
  ///   system's error if it cannot be replaced.
  @discardableResult
  package func reset(_ number: Int?) throws -> String? {
    if case .missing = read() { return nil }
    return try change { counts in
      if let number {
        counts[String(number)] = nil
      } else {
        counts = [:]
      }
    }
  }

  /// Runs `body` on the counts as they are now, then saves what it made of them; returns
  /// where a damaged file was moved, in one line, when it was.
  private func change(_ body: (inout [String: Int]) -> Void) throws -> String? {
    try file.makeFolder()
    var counts: [String: Int] = [:]
    var notice: String?
    switch read() {
    case .missing:
      break
    case .notAFile:
      throw Refusal(
        "\(url.path) is not a file (a folder?): it is left as it is, and no hint count is "
          + "saved there")
    case .unreadable(let problem):
      notice = "\(problem); it is kept as \(try file.setAside().path), and the counts start again"
    case .value(let saved):
      counts = saved
    }
    body(&counts)
    try file.write(Data(prettyJSON(File(hintsShown: counts)).utf8))
    return notice
  }
}
