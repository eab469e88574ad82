import Foundation
import Testing

@testable import MarfaQueue

/// The archive of departed writes is bounded by size and by an age the clock cannot fake, the
/// oldest out first, pruned in the writer's own transaction; a store of an earlier build gets it
/// when a writer opens it.
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

  /// Sets when each of `ids` left, in milliseconds from now.
  func left(_ copy: WorkingCopy, _ ids: [String], ago: Int) async throws {
    let at = SQLite.nowMs() - ago
    try await copy.store.run { db in
      for id in ids { try db.query("UPDATE archive SET departed_at_ms = ? WHERE id = ?", [.int(at), .text(id)]) }
    }
  }

  /// Prunes with the standard limits as if the clock said `nowMs`.
  func prune(_ copy: WorkingCopy, nowMs: Int, _ limits: ArchiveLimits = .standard) async throws {
    try await copy.store.run { db in try db.transaction(durable: false) { try db.pruneArchive(limits, nowMs: nowMs) } }
  }

  static let day = 86_400_000

  @Test func departuresWhoseWitnessedAgeIsPastTheLimitArePrunedByTheNextDeparture() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let old = try await forgotten(copy, count: 3)
    // They left 35 days ago, and a departure every week since witnessed the time pass.
    try await left(copy, old, ago: 35 * Self.day)
    var weekly: [String] = []
    for week in 1...4 {
      let one = try await forgotten(copy, count: 1)
      try await left(copy, one, ago: (35 - 7 * week) * Self.day)
      weekly += one
    }
    #expect(try await copy.queue.departed().count == 7)
    let fresh = try await forgotten(copy, count: 1)
    #expect(try await copy.queue.departed().map(\.id) == fresh + weekly.reversed())
    #expect(Set(old).isDisjoint(with: try await copy.queue.departed().map(\.id)))
  }

  @Test func aClockThatLeaptAYearAheadPrunesNothingThenOrAfter() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let kept = try await forgotten(copy, count: 4)
    let now = SQLite.nowMs()
    // The clock leapt a year; the person goes on for a week of days under it.
    for day in 0..<7 { try await prune(copy, nowMs: now + 365 * Self.day + day * Self.day) }
    #expect(Set(try await copy.queue.departed().map(\.id)) == Set(kept))
    // What was witnessed is one leap (a week at most) and six days: 13 days, under 30.
    try await prune(copy, nowMs: now + 365 * Self.day + 6 * Self.day)
    #expect(try await copy.queue.departed().count == 4)
  }

  @Test func aDepartureStampedInTheFutureIsKeptWhenTheClockComesBack() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let future = try await forgotten(copy, count: 2)
    try await left(copy, future, ago: -365 * Self.day)
    let later = try await forgotten(copy, count: 1)
    try await prune(copy, nowMs: SQLite.nowMs() + Self.day)
    #expect(Set(try await copy.queue.departed().map(\.id)) == Set(future + later))
  }

  @Test func aClockAt1970PrunesNothingByAgeAndDeparturesMadeThenAreKept() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let kept = try await forgotten(copy, count: 3)
    // A device that booted at 1970 before its time was set.
    try await prune(copy, nowMs: 5_000)
    #expect(try await copy.queue.departed().count == 3)
    // Departures stamped at 1970, then the clock set right: the gap counts a week, not 56 years.
    try await left(copy, kept, ago: SQLite.nowMs() - 5_000)
    try await prune(copy, nowMs: SQLite.nowMs())
    #expect(Set(try await copy.queue.departed().map(\.id)) == Set(kept))
  }

  @Test func theBytesAreBoundWhateverTheClockSays() async throws {
    let t = TestStore()
    let copy = try await t.open()
    let ids = try await forgotten(copy, count: 6, bytes: 1_000)
    let sizes = try await copy.queue.departed().map(\.bytes)
    var limits = ArchiveLimits.standard
    limits.maxBytes = sizes[0] * 2 + 10
    try await prune(copy, nowMs: 5_000, limits)
    #expect(try await copy.queue.departed().map(\.id) == Array(ids.suffix(2).reversed()))
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
