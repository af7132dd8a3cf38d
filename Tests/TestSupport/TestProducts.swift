import Foundation

/// Where this module's class lives: the anchor `Bundle(for:)` needs.
private final class BundleAnchor {}

/// The folder of the products `swift test` built, the test bundle among them,
/// where the tests find the commands and helper programs they run.
///
/// Found from the bundle the code is linked into, never from `CommandLine.arguments[0]`: on
/// macOS SwiftPM runs Swift Testing through `swiftpm-testing-helper`, which lives in the
/// toolchain, so the running program is not beside the products there.
///
/// - On Linux, measured (Swift 6.3.1): the tests run in the executable
///   `.build/<triple>/<configuration>/<Package>PackageTests.xctest`, and `Bundle(for:)` (like
///   `Bundle.main`) gives the folder that holds it, the products' folder itself;
///   `Bundle.allBundles` is empty.
/// - On Apple platforms, read from Apple's documentation, not measured: `Bundle(for:)` returns
///   "The NSBundle object that dynamically loaded aClass (a loadable bundle)". There the tests,
///   this module linked in, are the loadable bundle `<Package>PackageTests.xctest`, loaded by
///   the helper, and its parent is the products' folder.
///
/// `OBSERVER_EVOLUTION_PRODUCTS`, when set, names the folder instead, for a runner that puts
/// the products elsewhere.
package let testProductsFolder: URL = {
  if let folder = ProcessInfo.processInfo.environment["OBSERVER_EVOLUTION_PRODUCTS"] {
    return URL(fileURLWithPath: folder, isDirectory: true)
  }
  let bundle = Bundle(for: BundleAnchor.self).bundleURL
  return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
}()

#if os(macOS) || os(Linux)
  /// Copies the executable `source` to `destination`, to be run from there.
  ///
  /// Copied by `cp`, in a process of its own, not by `FileManager`: while the copy is open for
  /// writing in this process, any other test that starts a process meanwhile hands the child a
  /// copy of that descriptor, and running the copy then fails with "Text file busy" (exit 126),
  /// as seen here once in a few full runs.
  ///
  /// - Throws: An error naming both paths, and what `cp` said, when `cp` fails.
  package func copyExecutable(_ source: URL, to destination: URL) throws {
    let copy = try ProcessRun(["/bin/cp", source.path, destination.path])
    guard copy.status == 0 else {
      throw CocoaError(
        .fileWriteUnknown,
        userInfo: [
          NSLocalizedDescriptionKey:
            "cp \(source.path) \(destination.path) failed (\(copy.ending)): \(copy.error)"
        ])
    }
  }
#endif
