import Foundation
import KeepingScoreKit
import Stage4Options
import Testing

/// A score of `correct` out of 4.
private func score(_ correct: Int) -> Score { Score(correct: correct, total: 4) }

@Suite("Keeping score: the save file loses nothing")
struct ScoreStoreTests {
  @Test("two games that loaded the same file both keep their scores")
  func gamesMerge() throws {
    try withSaveFolder { folder in
      try folder.store.save(Scores([1: score(1)]))
      // Two runs of the app, each with the scores it loaded, each saving when its game ends.
      let first = Observable(Scores([1: score(1)]))
      let second = Observable(Scores([1: score(1)]))
      var warnings: [String] = []
      let savers = [
        ScoreSaver(store: folder.store, observing: first) { warnings.append($0) },
        ScoreSaver(store: folder.store, observing: second) { warnings.append($0) },
      ]
      first.value[group: 3] = score(3)
      second.value[group: 5] = score(4)
      withExtendedLifetime(savers) {}
      #expect(warnings.isEmpty)
      #expect(
        folder.store.load() == .scores(Scores([1: score(1), 3: score(3), 5: score(4)])))
    }
  }

  @Test("a game's save changes only the groups it played")
  func saveChangesOnlyItsGroups() throws {
    try withSaveFolder { folder in
      let stale = Observable(Scores([2: score(0)]))
      let saver = ScoreSaver(store: folder.store, observing: stale) { _ in }
      // Saved by another game after this one loaded its scores.
      try folder.store.save(Scores([2: score(4)]))
      stale.value[group: 6] = score(2)
      withExtendedLifetime(saver) {}
      #expect(folder.store.load() == .scores(Scores([2: score(4), 6: score(2)])))
    }
  }

  @Test("a file with a damaged entry is set aside, as it was, before a save replaces it")
  func damagedEntrySetAside() throws {
    try withSaveFolder { folder in
      try folder.create()
      let contents = Data(#"{"scores": {"1": {"correct": 2, "total": 4}, "2": "nonsense"}}"#.utf8)
      try contents.write(to: folder.store.url)
      let notice = try folder.store.save(Scores([3: score(3)]))
      let aside = URL(fileURLWithPath: folder.store.url.path + setAsideSuffix)
      #expect(
        notice
          == "the saved scores at \(folder.store.url.path) are damaged; it is kept as \(aside.path)"
      )
      #expect(try Data(contentsOf: aside) == contents)
      #expect(folder.store.load() == .scores(Scores([3: score(3)])))
    }
  }

  @Test("a file damaged during a game is set aside before the save, and the saver says so")
  func damagedDuringAGame() throws {
    try withSaveFolder { folder in
      let scores = Observable(Scores())
      var warnings: [String] = []
      let saver = ScoreSaver(store: folder.store, observing: scores) { warnings.append($0) }
      try folder.create()
      try Data("half a fi".utf8).write(to: folder.store.url)
      scores.value[group: 4] = score(4)
      withExtendedLifetime(saver) {}
      let aside = URL(fileURLWithPath: folder.store.url.path + setAsideSuffix)
      #expect(
        warnings == [
          "the saved scores at \(folder.store.url.path) are damaged; it is kept as \(aside.path)"
        ])
      #expect(try Data(contentsOf: aside) == Data("half a fi".utf8))
      #expect(folder.store.load() == .scores(Scores([4: score(4)])))
    }
  }

  @Test("a name already taken is never overwritten: the next file set aside gets a number")
  func setAsideNamesAreNew() throws {
    try withSaveFolder { folder in
      try folder.create()
      let taken = URL(fileURLWithPath: folder.store.url.path + setAsideSuffix)
      try Data("first".utf8).write(to: taken)
      try Data("second".utf8).write(to: folder.store.url)
      guard case .setAside(_, let aside) = folder.store.load() else {
        Issue.record("not set aside")
        return
      }
      #expect(aside.lastPathComponent == taken.lastPathComponent + "-2")
      #expect(try Data(contentsOf: taken) == Data("first".utf8))
      #expect(try Data(contentsOf: aside) == Data("second".utf8))
    }
  }

  @Test(
    "a symlinked save file is written through: the link stays, its target gets the scores",
    arguments: [true, false])
  func symlinkWrittenThrough(relative: Bool) throws {
    try withSaveFolder { folder in
      try folder.create()
      let target = folder.url.appendingPathComponent("dotfiles/scores.json")
      try FileManager.default.createDirectory(
        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
      try folder.store.save(Scores([1: score(1)]))
      try FileManager.default.removeItem(at: folder.store.url)
      try FileManager.default.createSymbolicLink(
        atPath: folder.store.url.path,
        withDestinationPath: relative ? "dotfiles/scores.json" : target.path)
      try folder.store.save(Scores([2: score(2)]))
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: folder.store.url.path)
          == (relative ? "dotfiles/scores.json" : target.path))
      #expect(
        ScoreStore(url: target).load() == .scores(Scores([2: score(2)])),
        "a link to no file: the save creates its target")
      try folder.store.save(Scores([3: score(3)]))
      #expect(
        ScoreStore(url: target).load() == .scores(Scores([2: score(2), 3: score(3)])))
    }
  }

  @Test("--reset's deletion: a score file is deleted, through a link its target, not the link")
  func resetDeletesScores() throws {
    try withSaveFolder { folder in
      #expect(try folder.store.reset() == nil, "nothing to delete")
      try folder.store.save(Scores([1: score(1)]))
      #expect(try folder.store.reset()?.path == folder.store.url.path)
      #expect(!FileManager.default.fileExists(atPath: folder.store.url.path))

      let target = folder.url.appendingPathComponent("elsewhere.json")
      try ScoreStore(url: target).save(Scores([1: score(1)]))
      try FileManager.default.createSymbolicLink(at: folder.store.url, withDestinationURL: target)
      #expect(try folder.store.reset()?.path == target.path)
      #expect(!FileManager.default.fileExists(atPath: target.path))
      #expect(
        try FileManager.default.destinationOfSymbolicLink(atPath: folder.store.url.path)
          == target.path)
    }
  }

  @Test("--reset refuses a folder, a link to a folder, other contents, a damaged entry")
  func resetRefuses() throws {
    try withSaveFolder { folder in
      try folder.create()
      let store = folder.store
      let kept = folder.url.appendingPathComponent("kept")
      try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
      let inside = kept.appendingPathComponent("notes.txt")
      try Data("notes".utf8).write(to: inside)

      try FileManager.default.moveItem(at: kept, to: store.url)
      #expect(throws: ScoreStore.Refusal.self) { try store.reset() }
      #expect(
        try Data(contentsOf: store.url.appendingPathComponent("notes.txt")) == Data("notes".utf8))
      try FileManager.default.moveItem(at: store.url, to: kept)

      try FileManager.default.createSymbolicLink(at: store.url, withDestinationURL: kept)
      #expect(throws: ScoreStore.Refusal.self) { try store.reset() }
      #expect(try Data(contentsOf: inside) == Data("notes".utf8))
      try FileManager.default.removeItem(at: store.url)

      try Data("my essay".utf8).write(to: store.url)
      #expect(throws: ScoreStore.Refusal.self) { try store.reset() }
      #expect(try Data(contentsOf: store.url) == Data("my essay".utf8))

      let damagedEntry = Data(#"{"scores": {"01": {"correct": 1, "total": 4}}}"#.utf8)
      try damagedEntry.write(to: store.url)
      #expect(throws: ScoreStore.Refusal.self) { try store.reset() }
      #expect(try Data(contentsOf: store.url) == damagedEntry)
    }
  }
}
