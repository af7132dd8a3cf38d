import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small file a command keeps between runs, such as the saved scores or the hints shown: what
/// `keeping-score` and `workshop hint` remember.
///
/// Each change reads the file as it is then and replaces it in one step (written to a new name
/// beside it, then renamed over it), so a reader never sees half a file, and a crash never
/// leaves one. Two runs that change it at the same moment may lose one of the two changes, and
/// a damaged file one run sets aside may, in that moment, be the other's good one (kept, under
/// the set-aside name): for a quiz's scores and a hint counter, that is not worth a lock. A file that cannot be read is
/// never overwritten: it is first moved aside, under a name that says so. A symbolic link at
/// ``url`` is followed: the file it points to is read and replaced, and the link stays.
package struct SharedFile: Sendable {
  /// Why a change left what has the file's name as it is, or could not reach it.
  package struct Refusal: LocalizedError, Equatable, Sendable, CustomStringConvertible {
    /// What is there, and what was not done to it: one line.
    package var description: String

    /// The description, which `localizedDescription` gives.
    package var errorDescription: String? { description }

    /// A refusal that says `description`.
    package init(_ description: String) { self.description = description }
  }

  /// What is at the file's place.
  package enum Contents<Value> {
    /// Nothing: no file, or a link to no file.
    case missing
    /// Something other than a regular file, such as a folder.
    case notAFile
    /// A file that cannot be read or decoded; the message says which, and names it.
    case unreadable(String)
    /// What the file holds.
    case value(Value)
  }

  /// The file, as the user names it: it may be a symbolic link.
  package let url: URL
  /// What the file holds, for messages: "the saved scores".
  package let contents: String
  private let now: @Sendable () -> Date

  /// The file at `url`, which holds `contents` ("the hints shown"). `now` names a file set
  /// aside: the file's name, `.unreadable-` and the time in UTC, as `20261123T195833Z`.
  package init(url: URL, holding contents: String, now: @escaping @Sendable () -> Date) {
    self.url = url
    self.contents = contents
    self.now = now
  }

  /// What is at the file's place, decoded by `decode`, which returns `nil` for a file it cannot
  /// use. It changes nothing.
  package func read<Value>(_ decode: (Data) -> Value?) -> Contents<Value> {
    guard let target = try? target(),
      let attributes = try? FileManager.default.attributesOfItem(atPath: target.path)
    else { return .missing }
    // Never opened unless it is a regular file: a named pipe would block the read.
    guard attributes[.type] as? FileAttributeType == .typeRegular else { return .notAFile }
    guard let data = try? Data(contentsOf: target) else {
      return .unreadable("cannot read \(contents) at \(url.path)")
    }
    guard let value = decode(data) else {
      return .unreadable("\(contents) at \(url.path) are damaged")
    }
    return .value(value)
  }

  /// Makes the file's folder, if it is missing.
  ///
  /// - Throws: ``Refusal``, naming the folder, when it cannot be made.
  package func makeFolder() throws {
    let folder = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      // Said with the folder's name: "File exists" alone would not say which file.
      throw Refusal("cannot create the folder \(folder.path): \(reason(of: error))")
    }
  }

  /// Replaces the file with `data` in one step: written to a new name beside it, then renamed
  /// over it.
  package func write(_ data: Data) throws {
    try data.write(to: try target(), options: .atomic)
  }

  /// The file that ``url`` names once symbolic links are followed, a chain of them included:
  /// the one to read and replace. It may not exist.
  ///
  /// - Throws: ``Refusal`` for links that lead back to themselves.
  package func target() throws -> URL {
    var current = url
    // A chain longer than the system's own limit (40 on Linux, 32 on macOS) is a loop.
    for _ in 0..<40 {
      guard
        let destination = try? FileManager.default.destinationOfSymbolicLink(
          atPath: current.path)
      else { return current }
      current =
        destination.hasPrefix("/")
        ? URL(fileURLWithPath: destination)
        : current.deletingLastPathComponent().appendingPathComponent(destination)
    }
    throw Refusal("\(url.path) is a loop of symbolic links")
  }

  /// Moves the file aside, to a name no file has: its name, `.unreadable-`, the time, and a
  /// number if that name is taken.
  package func setAside() throws -> URL {
    let target = try target()
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
    let base = "\(target.lastPathComponent).unreadable-\(formatter.string(from: now()))"
    var attempt = 1
    var aside = target.deletingLastPathComponent().appendingPathComponent(base)
    // FileManager never moves onto an existing name.
    while (try? FileManager.default.attributesOfItem(atPath: aside.path)) != nil {
      attempt += 1
      aside = target.deletingLastPathComponent().appendingPathComponent("\(base)-\(attempt)")
    }
    try FileManager.default.moveItem(at: target, to: aside)
    return aside
  }
}
