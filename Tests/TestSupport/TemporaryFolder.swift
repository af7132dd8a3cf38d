import Foundation

/// Runs `body` with a new, empty folder of its own, and removes the folder, with everything in
/// it, once `body` returns or throws: the one way the tests make a temporary folder.
///
/// The folder is made under the system's temporary folder (`TMPDIR`, as
/// `FileManager.temporaryDirectory` reads it), named `name` and a UUID, and never reused: it is
/// created without intermediate folders, which fails if a folder of that name exists. A test
/// that needs a path where nothing is yet uses one inside it.
///
/// Folders inside it that the test left read-only are made writable again so that it can be
/// removed. A folder that still cannot be removed is an error, never left behind unsaid.
///
/// ```swift
/// try withTemporaryFolder("charts") { folder in
///   let missing = folder.appending(path: "charts")  // not made yet
///   …
/// }
/// ```
///
/// - Parameters:
///   - name: The start of the folder's name: which test made it, for whoever finds one left
///     by a crash.
///   - body: The test's work, given the folder's URL.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws; otherwise an error when the folder cannot be made or removed.
package func withTemporaryFolder<Result>(
  _ name: String, _ body: (_ folder: URL) throws -> Result
) throws -> Result {
  let folder = FileManager.default.temporaryDirectory
    .appending(path: "\(name)-\(UUID().uuidString)", directoryHint: .isDirectory)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
  let result: Result
  do {
    result = try body(folder)
  } catch {
    try? removeFolder(folder)
    throw error
  }
  try removeFolder(folder)
  return result
}

/// Removes `folder` and everything in it, first as it is, then with every folder in it made
/// writable (and readable) by its owner again.
private func removeFolder(_ folder: URL) throws {
  do {
    try FileManager.default.removeItem(at: folder)
  } catch {
    makeFoldersWritable(folder)
    try FileManager.default.removeItem(at: folder)
  }
}

/// Gives the owner every permission on `folder` and on each folder inside it; links are not
/// followed.
private func makeFoldersWritable(_ folder: URL) {
  let manager = FileManager.default
  try? manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
  for name in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] {
    let item = folder.appending(path: name)
    let type = (try? manager.attributesOfItem(atPath: item.path))?[.type] as? FileAttributeType
    if type == .typeDirectory { makeFoldersWritable(item) }
  }
}
