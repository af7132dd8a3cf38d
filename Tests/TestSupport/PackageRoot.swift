import Foundation

/// The package's root folder, found from this file's path: where the tests read the docs, the
/// exercises and the manifest.
package let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
