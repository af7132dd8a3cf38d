import Foundation
import Testing

// Chapter 2 shows this test: a `Dictionary`'s order is not only different from one run to the
// next, but from one instance to another in the same run, for the same keys inserted alike.

@Suite("Dictionary order, which stage 2 calls its closures in")
struct DictionaryOrderTests {
  @Test(
    "dictionaries alive at once, with the same keys inserted in the same order, differ in order",
    .disabled(
      if: ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] != nil,
      "deterministic hashing gives every instance the same seed"))
  func orderDiffersBetweenInstances() {
    let keys = (0..<16).map { "observer \($0)" }
    // Kept alive together: each storage is its own, and each is hashed with its own seed.
    let dictionaries = (0..<20).map { _ in
      Dictionary(uniqueKeysWithValues: keys.map { ($0, 0) })
    }
    let orders = Set(dictionaries.map { Array($0.keys) })
    #expect(orders.count > 1, "20 dictionaries built alike should not all share one order")
  }
}
