import Foundation
import Testing

@testable import MarfaQueue

/// The archive of departed writes is bounded by age and by size, the oldest out first, pruned in
/// the writer's own transaction; a store of an earlier build gets it when a writer opens it.
@Suite struct ArchiveTests {
  func forgotten(_ copy: WorkingCopy, count: Int, bytes: Int = 10) async throws -> [String] {
    var ids: [String] = []
    for i in 0..<count {
      let w = try await copy.createItem(
        type: "note", properties: .object([("n", .int(i)), ("pad", .string(String(repeating: "x", count: bytes)))]))
      try await copy.forceVerdict(w.id, .accepted)
      ids.append(w.id)
    }
    _ = try await copy.queue.forgetAnswered()
    return ids
  }

  @Test func departuresOlderThanTheAgeArePrunedByTheNextDeparture() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let old = try await forgotten(copy, count: 3)
    // They left 31 days ago.
    let ago = SQLite.nowMs() - 31 * 86_400_000
    try await copy.store.run { db in try db.query("UPDATE archive SET departed_at_ms = ?", [.int(ago)]) }
    #expect(try await copy.queue.departed().count == 3)
    let fresh = try await forgotten(copy, count: 1)
    #expect(try await copy.queue.departed().map(\.id) == fresh)
    #expect(Set(old).isDisjoint(with: try await copy.queue.departed().map(\.id)))
  }

  @Test func theArchiveIsPrunedToItsBytesOldestFirstKeepingTheNewest() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let ids = try await forgotten(copy, count: 10, bytes: 1_000)
    let sizes = try await copy.queue.departed().map(\.bytes)
    #expect(sizes.allSatisfy { $0 > 1_000 && $0 < 4_000 })
    // Room for about three of them: the three newest stay.
    let limits = ArchiveLimits(
      maxAgeMilliseconds: ArchiveLimits.standard.maxAgeMilliseconds, maxBytes: sizes[0] * 3 + 10)
    try await copy.store.run { db in
      try db.transaction(durable: false) { try db.pruneArchive(limits, nowMs: SQLite.nowMs()) }
    }
    #expect(try await copy.queue.departed().map(\.id) == Array(ids.suffix(3).reversed()))
    // A limit smaller than one departure keeps the newest alone.
    let tiny = ArchiveLimits(maxAgeMilliseconds: ArchiveLimits.standard.maxAgeMilliseconds, maxBytes: 1)
    try await copy.store.run { db in
      try db.transaction(durable: false) { try db.pruneArchive(tiny, nowMs: SQLite.nowMs()) }
    }
    #expect(try await copy.queue.departed().map(\.id) == [ids.last!])
  }

  @Test func theStandardLimitsAreThirtyDaysAndFiftyMegabytes() {
    #expect(ArchiveLimits.standard.maxAgeMilliseconds == 30 * 24 * 3_600 * 1_000)
    #expect(ArchiveLimits.standard.maxBytes == 50 * 1_024 * 1_024)
  }

  @Test func aStoreWithoutTheArchiveGetsItWhenAWriterOpensIt() async throws {
    let t = TestStore()
    var copy = try await t.open()
    copy.close()
    #expect(t.execute("DROP TABLE archive"))
    copy = try await t.open()
    defer { copy.close() }
    let ids = try await forgotten(copy, count: 2)
    #expect(Set(try await copy.queue.departed().map(\.id)) == Set(ids))
  }

  @Test func theDeparturesTableStillNamesWhyAWriteLeft() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let ids = try await forgotten(copy, count: 1)
    let event = try await copy.store.run { db in try db.departure(of: ids[0]) }
    #expect(event == .forgotten)
  }
}
