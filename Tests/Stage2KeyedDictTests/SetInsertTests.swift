import Testing

// Chapter 2 shows this test: `Listenable` binds with `Set.insert`, which since Swift 3 keeps the
// equal member it already has. Swift 2's, which Yep was written for, replaced it.

@Suite("Set.insert, which Listenable binds with")
struct SetInsertTests {
  /// Equal when the names are equal, as Yep's `Listener` is; the note tells two apart.
  struct Named: Hashable {
    let name: String
    let note: String

    static func == (lhs: Named, rhs: Named) -> Bool { lhs.name == rhs.name }

    func hash(into hasher: inout Hasher) { hasher.combine(name) }
  }

  @Test("Set.insert keeps the equal member it has and says so; update(with:) replaces it")
  func insertKeepsTheMemberItHas() {
    var listeners: Set<Named> = [Named(name: "label", note: "first")]
    let result = listeners.insert(Named(name: "label", note: "second"))
    #expect(result.inserted == false)
    #expect(result.memberAfterInsert.note == "first")
    #expect(listeners.map(\.note) == ["first"])

    let replaced = listeners.update(with: Named(name: "label", note: "second"))
    #expect(replaced?.note == "first")
    #expect(listeners.map(\.note) == ["second"])
  }
}
