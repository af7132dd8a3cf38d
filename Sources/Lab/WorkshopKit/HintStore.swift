import CommandSupport
import Foundation
import Support

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How many hints of each exercise the learner has seen, kept between runs so that each
/// `workshop hint N` goes one step further. The file is JSON: `{"hintsShown": {"3": 2}}`.
///
/// Several `workshop hint` may run at once: each change takes a lock, reads the file as it is
/// then, changes one exercise's count, and replaces the file in one step, so no count is lost.
/// A file that cannot be read as counts is never overwritten: it is first moved aside, under a
/// name that says so. A symbolic link at ``url`` is followed, and stays. The same guarantees as
/// keeping-score's `ScoreStore`, whose locking and moving aside are private to it.
package struct HintStore: Sendable {
  private struct File: Codable {
    var hintsShown: [String: Int]
  }

  /// Why the store left what has the file's name as it is.
  package struct Refusal: LocalizedError, Equatable, Sendable {
    /// What is there, and what was not done to it: one line.
    package var message: String

    /// The message, which `localizedDescription` gives.
    package var errorDescription: String? { message }
  }

  /// What one change made, and what it did beside.
  package struct Change<Value: Sendable>: Sendable {
    /// What the change returns: the count recorded, for ``advance(_:upTo:)``.
    package var value: Value
    /// Where a damaged file was moved, when it was, in one line; `nil` when the file was fine
    /// or missing.
    package var notice: String?
  }

  /// The file, as the user names it: it may be a symbolic link.
  package let url: URL
  private let now: @Sendable () -> Date

  /// A store that keeps its file at `url`, whose folder is made when a hint is first recorded.
  /// `now` names a file set aside: `workshop-hints.json.unreadable-` and the time in UTC.
  package init(url: URL, now: @escaping @Sendable () -> Date = { Date() }) {
    self.url = url
    self.now = now
  }

  /// The store in the config folder: `workshop-hints.json` there.
  package static func inConfigFolder(environment: [String: String]) -> HintStore {
    HintStore(
      url: configFolder(environment: environment).appendingPathComponent("workshop-hints.json"))
  }

  /// The lock file, beside ``url``: every change holds it while it reads and replaces the file.
  /// It is never deleted, so that two processes never lock two files.
  package var lockURL: URL { url.appendingPathExtension("lock") }

  // MARK: - Reading

  /// How many hints of exercise `number` were shown; 0 when the file is missing or cannot be
  /// read as counts. It changes nothing.
  package func shown(for number: Int) -> Int {
    guard case .counts(let counts) = read() else { return 0 }
    return counts[String(number)] ?? 0
  }

  // MARK: - Changing

  /// Shows one more hint of exercise `number`: under the lock, reads its count, clamps it to
  /// `0...limit` (a hand-edited file may hold anything), adds one unless it is `limit`
  /// already, and saves that. Returns the new count, 1 when the file could not be read.
  ///
  /// - Throws: ``Refusal`` if something other than a file, such as a folder, has the file's
  ///   name; the file system's error if the folder or the file cannot be written.
  package func advance(_ number: Int, upTo limit: Int) throws -> Change<Int> {
    try change { counts in
      let shown = min(max(counts[String(number)] ?? 0, 0), limit)
      let count = min(shown + 1, limit)
      counts[String(number)] = count
      return count
    }
  }

  /// Records that `count` hints of exercise `number` have now been shown; the notice, if any,
  /// says where a damaged file was moved.
  @discardableResult
  package func record(_ count: Int, for number: Int) throws -> String? {
    try change { $0[String(number)] = count }.notice
  }

  /// Forgets the hints shown of exercise `number`, or of every exercise when it is `nil`. A
  /// damaged file is moved aside, which forgets them too; the notice says where.
  ///
  /// - Throws: ``Refusal`` if something other than a file has the file's name; the file
  ///   system's error if it cannot be replaced.
  @discardableResult
  package func reset(_ number: Int?) throws -> String? {
    guard read() != .missing else { return nil }
    return try change { counts in
      if let number {
        counts[String(number)] = nil
      } else {
        counts = [:]
      }
    }.notice
  }

  /// Runs `body` on the counts as they are under the lock, then saves what it made of them.
  private func change<Value: Sendable>(
    _ body: (inout [String: Int]) -> Value
  ) throws -> Change<Value> {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    return try withLock {
      var counts: [String: Int] = [:]
      var notice: String?
      switch read() {
      case .missing:
        break
      case .notAFile:
        throw Refusal(
          message: "\(url.path) is not a file (a folder?): it is left as it is, and no hint "
            + "count is saved there")
      case .unreadable(let problem):
        notice = "\(problem); it is kept as \(try setAside().path), and the counts start again"
      case .counts(let saved):
        counts = saved
      }
      let value = body(&counts)
      try Data(prettyJSON(File(hintsShown: counts)).utf8).write(
        to: try target(), options: .atomic)
      return Change(value: value, notice: notice)
    }
  }

  // MARK: - The file

  /// What is at the file's place.
  private enum Contents: Equatable {
    /// Nothing: no file, or a link to no file.
    case missing
    /// Something other than a regular file, such as a folder.
    case notAFile
    /// A file that cannot be read or decoded; the message says which, and names it.
    case unreadable(String)
    /// The counts, by exercise number.
    case counts([String: Int])
  }

  private func read() -> Contents {
    guard let target = try? target(),
      let attributes = try? FileManager.default.attributesOfItem(atPath: target.path)
    else { return .missing }
    // Never opened unless it is a regular file: a named pipe would block the read.
    guard attributes[.type] as? FileAttributeType == .typeRegular else { return .notAFile }
    guard let data = try? Data(contentsOf: target) else {
      return .unreadable("cannot read the hints shown at \(url.path)")
    }
    guard let file = try? JSONDecoder().decode(File.self, from: data) else {
      return .unreadable("the hints shown at \(url.path) are damaged")
    }
    return .counts(file.hintsShown)
  }

  /// The file that ``url`` names once symbolic links are followed: the one to read and
  /// replace. It may not exist.
  private func target() throws -> URL {
    var current = url
    for _ in 0..<32 {
      guard
        let destination = try? FileManager.default.destinationOfSymbolicLink(
          atPath: current.path)
      else { return current }
      current =
        destination.hasPrefix("/")
        ? URL(fileURLWithPath: destination)
        : current.deletingLastPathComponent().appendingPathComponent(destination)
    }
    throw Refusal(message: "\(url.path) is a loop of symbolic links")
  }

  /// Moves the file aside, to a name no file has: `workshop-hints.json.unreadable-`, the time,
  /// and a number if that name is taken. Called under the lock only.
  private func setAside() throws -> URL {
    let target = try target()
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
    let base = "\(target.lastPathComponent).unreadable-\(formatter.string(from: now()))"
    var attempt = 1
    var aside = target.deletingLastPathComponent().appendingPathComponent(base)
    // FileManager never moves onto an existing name; the lock keeps other stores out.
    while (try? FileManager.default.attributesOfItem(atPath: aside.path)) != nil {
      attempt += 1
      aside = target.deletingLastPathComponent().appendingPathComponent("\(base)-\(attempt)")
    }
    try FileManager.default.moveItem(at: target, to: aside)
    return aside
  }

  /// Runs `body` holding the lock file's exclusive lock, which other processes, and other
  /// threads of this one, wait for: `flock` locks an open file, and each call opens its own.
  private func withLock<Result>(_ body: () throws -> Result) throws -> Result {
    let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw lockError("open") }
    // Closing the descriptor lets the lock go.
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { throw lockError("lock") }
    }
    return try body()
  }

  /// Why the lock file could not be opened or locked, in one line.
  private func lockError(_ action: String) -> Refusal {
    Refusal(message: "cannot \(action) \(lockURL.path): \(String(cString: strerror(errno)))")
  }
}
