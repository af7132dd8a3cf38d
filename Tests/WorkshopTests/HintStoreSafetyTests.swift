import CommandSupport
import Foundation
import TestSupport
import Testing
import WorkshopKit

/// A hints store in a folder of its own, which the test removes.
private struct TemporaryStore {
  let folder: URL
  let store: HintStore

  init() {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("hint-store-\(UUID().uuidString)")
    store = HintStore(url: folder.appendingPathComponent("workshop-hints.json"))
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }

  /// The names in the folder.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }
}

/// Runs `workshop` with `arguments` on `store`, in-process; grading is never asked for.
private func workshop(_ arguments: [String], store: HintStore) -> CommandRun {
  CommandRun { io in
    WorkshopCommand.run(
      arguments, io: io, code: [:], hints: store,
      watch: { _, _ in
        Issue.record("--watch must not start in a test")
        return .failure
      })
  }
}

@Suite("Workshop: the hints file is never lost nor overwritten unseen")
struct HintStoreSafetyTests {
  @Test("a damaged file is moved aside, said so in one line, and the hint is still shown")
  func damagedFileIsKept() throws {
    let temporary = TemporaryStore()
    defer { temporary.remove() }
    let store = temporary.store
    try FileManager.default.createDirectory(
      at: temporary.folder, withIntermediateDirectories: true)
    let damaged = Data(#"{"hintsShown": {"3": 2, "4": 1"#.utf8)
    try damaged.write(to: store.url)
    let result = workshop(["hint", "3"], store: store)
    #expect(result.status == .success)
    #expect(result.output.contains("Hint 1 of"))
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    #expect(result.error.hasPrefix("workshop: the hints shown at \(store.url.path) are damaged"))
    let names = try temporary.names()
    #expect(names.count == 2, "\(names)")
    let aside = try #require(names.first { $0.hasPrefix("workshop-hints.json.unreadable-") })
    #expect(result.error.contains(aside))
    #expect(try Data(contentsOf: temporary.folder.appendingPathComponent(aside)) == damaged)
    #expect(store.shown(for: 3) == 1)
  }

  @Test("hint --reset of a damaged file moves it aside and says where")
  func resetDamagedFile() throws {
    let temporary = TemporaryStore()
    defer { temporary.remove() }
    let store = temporary.store
    try FileManager.default.createDirectory(
      at: temporary.folder, withIntermediateDirectories: true)
    try Data("not json".utf8).write(to: store.url)
    let result = workshop(["hint", "--reset"], store: store)
    #expect(result.status == .success)
    #expect(result.output.contains("Hints of every exercise reset"))
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    #expect(result.error.contains("it is kept as "))
    #expect(try temporary.names().contains { $0.hasPrefix("workshop-hints.json.unreadable-") })
  }

  @Test("a folder in the file's place: the hint is shown, one plain line says it is not kept")
  func folderInPlace() throws {
    let temporary = TemporaryStore()
    defer { temporary.remove() }
    let store = temporary.store
    try FileManager.default.createDirectory(at: store.url, withIntermediateDirectories: true)
    let result = workshop(["hint", "3"], store: store)
    #expect(result.status == .success)
    #expect(result.output.contains("Hint 1 of"))
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    #expect(result.error.hasPrefix("workshop: could not remember the hints shown: "))
    #expect(result.error.contains(store.url.path))
    #expect(!result.error.contains("Error Domain"), "\(result.error)")
    #expect(!result.error.contains("NSCocoaErrorDomain"), "\(result.error)")
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: store.url.path, isDirectory: &isFolder))
    #expect(isFolder.boolValue, "the folder is left as it is")
  }

  @Test(
    "a folder in the file's place: hint --reset exits 1 with one plain line, and leaves it",
    arguments: [["hint", "--reset"], ["hint", "3", "--reset"]])
  func resetFolderInPlace(arguments: [String]) throws {
    let temporary = TemporaryStore()
    defer { temporary.remove() }
    let store = temporary.store
    try FileManager.default.createDirectory(at: store.url, withIntermediateDirectories: true)
    let result = workshop(arguments, store: store)
    #expect(result.status == .failure)
    #expect(result.output.isEmpty)
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    #expect(result.error.hasPrefix("workshop: could not reset the hints: "))
    #expect(result.error.contains(store.url.path))
    #expect(!result.error.contains("Error Domain"), "\(result.error)")
    #expect(FileManager.default.fileExists(atPath: store.url.path))
  }

  @Test("a folder that cannot be made: one plain line, never an NSError's dump")
  func parentIsAFile() throws {
    let temporary = TemporaryStore()
    defer { temporary.remove() }
    try FileManager.default.createDirectory(
      at: temporary.folder, withIntermediateDirectories: true)
    let blocker = temporary.folder.appendingPathComponent("blocker")
    try Data("a file".utf8).write(to: blocker)
    let store = HintStore(url: blocker.appendingPathComponent("workshop-hints.json"))
    let result = workshop(["hint", "3"], store: store)
    #expect(result.status == .success)
    #expect(result.output.contains("Hint 1 of"))
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    #expect(result.error.hasPrefix("workshop: could not remember the hints shown: "))
    #expect(!result.error.contains("Error Domain"), "\(result.error)")
    #expect(try Data(contentsOf: blocker) == Data("a file".utf8))
  }

  @Test("a symbolic link at the file's place is followed, and stays")
  func symbolicLinkStays() throws {
    let temporary = TemporaryStore()
    defer { temporary.remove() }
    let store = temporary.store
    try FileManager.default.createDirectory(
      at: temporary.folder, withIntermediateDirectories: true)
    let real = temporary.folder.appendingPathComponent("real.json")
    try FileManager.default.createSymbolicLink(
      atPath: store.url.path, withDestinationPath: "real.json")
    _ = workshop(["hint", "3"], store: store)
    _ = workshop(["hint", "5"], store: store)
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: store.url.path) == "real.json")
    #expect(store.shown(for: 3) == 1)
    #expect(store.shown(for: 5) == 1)
    #expect(try String(contentsOf: real, encoding: .utf8).contains("\"5\""))
  }

  @Test("a chain of two symbolic links is followed to the file, and both links stay")
  func chainOfLinks() throws {
    let temporary = TemporaryStore()
    defer { temporary.remove() }
    let store = temporary.store
    try FileManager.default.createDirectory(
      at: temporary.folder, withIntermediateDirectories: true)
    let real = temporary.folder.appendingPathComponent("real.json")
    try FileManager.default.createSymbolicLink(
      atPath: temporary.folder.appendingPathComponent("middle.json").path,
      withDestinationPath: "real.json")
    try FileManager.default.createSymbolicLink(
      atPath: store.url.path, withDestinationPath: "middle.json")
    _ = workshop(["hint", "3"], store: store)
    let second = workshop(["hint", "3"], store: store)
    #expect(second.output.contains("Hint 2 of"), "\(second.output)")
    #expect(second.error.isEmpty, "\(second.error)")
    #expect(store.shown(for: 3) == 2)
    #expect(try String(contentsOf: real, encoding: .utf8).contains("\"3\""))
    #expect(try temporary.names() == ["middle.json", "real.json", "workshop-hints.json"])
  }

  @Test("links that lead back to themselves: the hint is shown, one line says why it is not kept")
  func loopOfLinks() throws {
    let temporary = TemporaryStore()
    defer { temporary.remove() }
    let store = temporary.store
    try FileManager.default.createDirectory(
      at: temporary.folder, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: temporary.folder.appendingPathComponent("other.json").path,
      withDestinationPath: "workshop-hints.json")
    try FileManager.default.createSymbolicLink(
      atPath: store.url.path, withDestinationPath: "other.json")
    let result = workshop(["hint", "3"], store: store)
    #expect(result.output.contains("Hint 1 of"))
    #expect(result.error.contains("loop of symbolic links"), "\(result.error)")
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
  }
}

@Suite("Workshop: --help tells the exit statuses as they are")
struct WorkshopHelpTests {
  @Test("--help says hint --reset exits 1 when the hints cannot be reset")
  func resetFailureIsInTheHelp() {
    let help = WorkshopCommand.help
    let status = help.components(separatedBy: "EXIT STATUS:").last ?? ""
    let one =
      status.components(separatedBy: "\n  64").first?
      .components(separatedBy: "\n  1 ").last ?? ""
    #expect(one.contains("hint --reset"), "\(status)")
    #expect(one.contains("could not be reset"), "\(status)")
  }
}
