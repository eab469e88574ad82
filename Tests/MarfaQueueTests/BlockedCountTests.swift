import Foundation
import Testing

@testable import MarfaQueue

/// The `R` menu's counts, read from a real store; and IDs resolved against it.
@Suite struct BlockedCountTests {
  func note(_ copy: WorkingCopy) async throws -> QueuedWrite {
    try await copy.createItem(type: "note", properties: .object([("title", .string("a"))]))
  }

  @Test func blockedCountsNameOnlyTheReasonsHoldingWritesAndNeverADeadOne() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let writes = [try await note(copy), try await note(copy), try await note(copy), try await note(copy)]
    try await copy.forceVerdict(writes[0].id, .blocked(reason: .keySpent))
    try await copy.forceVerdict(writes[1].id, .blocked(reason: .keySpent))
    try await copy.forceVerdict(writes[2].id, .blocked(reason: .conflictUnresolved))
    try await copy.forceVerdict(writes[3].id, .dead)
    #expect(try await copy.queue.blockedCounts() == [.keySpent: 2, .conflictUnresolved: 1])
  }

  @Test func theStoreResolvesTheShownFormAndRefusesAnAmbiguousPart() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let a = try await note(copy)
    let b = try await note(copy)
    #expect(try await copy.queue.resolveID("…" + a.id.suffix(8)) == a.id)
    #expect(try await copy.queue.resolveID(b.id) == b.id)
    let shared = String(a.id.prefix(8))
    guard b.id.hasPrefix(shared) else { return }  // minted across a time-prefix boundary
    await #expect(throws: QueueError.ambiguousID(typed: shared, matches: [a.id, b.id])) {
      try await copy.queue.resolveID(shared)
    }
  }
}
