import CSQLite
import Foundation
import TestSupport
import Testing

@testable import MarfaQueue

/// A write whose request went out while the drain's group was open is marked sent when the group
/// commits, not by a statement of its own at once: every commit another process reads holds the
/// mark, and a write answered in the same group is changed once (its verdict marks it sent).
@Suite struct SentMarkTests {
  /// One number read by another connection: what the file holds as committed.
  static func committed(_ t: TestStore, _ sql: String) -> Int? { committed(t.url.path, sql) }

  static func committed(_ path: String, _ sql: String) -> Int? {
    var db: OpaquePointer?
    defer { sqlite3_close(db) }
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return nil }
    var stmt: OpaquePointer?
    defer { sqlite3_finalize(stmt) }
    guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, sqlite3_step(stmt) == SQLITE_ROW else { return nil }
    return Int(sqlite3_column_int64(stmt, 0))
  }

  @Test func aWriteSentInAGroupIsMarkedSentWhenTheGroupCommits() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let w = try await copy.createItem(type: "note", properties: .object([]))
    let sent = "SELECT sent FROM queue WHERE id = '\(w.id)'"
    // In one trip to the store, so the group's timer cannot commit it in between.
    let path = t.url.path
    let beforeCommit = try await copy.store.run { db -> Int? in
      try db.beginGroup()
      try db.markSentByCommit(w.id)
      let read = Self.committed(path, sent)
      try db.endGroup()
      return read
    }
    #expect(beforeCommit == 0)
    #expect(Self.committed(t, sent) == 1)
  }

  @Test func aWriteSentAndAnsweredInOneGroupIsChangedOnceByIt() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let w = try await copy.createItem(type: "note", properties: .object([]))
    let before = try #require(Self.committed(t, "SELECT max(n) FROM change_log"))
    try await copy.store.run { db in
      try db.beginGroup()
      try db.markSentByCommit(w.id)
      try db.recordVerdict(id: w.id, verdict: .accepted, sent: true, answer: nil, now: "2026-12-07T00:00:00.000Z")
      try db.endGroup()
    }
    #expect(Self.committed(t, "SELECT sent FROM queue WHERE id = '\(w.id)'") == 1)
    #expect(Self.committed(t, "SELECT count(*) FROM change_log WHERE n > \(before)") == 1)
  }

  @Test func aWriteHeldSinceItWasLastSentIsNoLongerWaitingOnceSentAgain() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let w = try await copy.createItem(type: "note", properties: .object([]))
    try await copy.store.run { db in
      try db.markSent(w.id)
      try db.markWaiting(w.id)
      try db.beginGroup()
      try db.markSentByCommit(w.id)
      try db.endGroup()
    }
    #expect(Self.committed(t, "SELECT waiting FROM queue WHERE id = '\(w.id)'") == 0)
  }

  @Test func outsideAGroupTheMarkIsMadeAtOnce() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let w = try await copy.createItem(type: "note", properties: .object([]))
    try await copy.store.run { db in try db.markSentByCommit(w.id) }
    #expect(Self.committed(t, "SELECT sent FROM queue WHERE id = '\(w.id)'") == 1)
  }

  @Test func aDrainLeavesEveryAnsweredWriteSentAndFewerThanThreeChangesInTwoWrites() async throws {
    let h = try await DrainHarness()
    var ids: [String] = []
    for i in 0..<20 { ids.append(try await h.note("n\(i)").id) }
    let (before, commitsBefore) = try await h.copy.store.run { db in
      (try db.scalar("SELECT max(n) FROM change_log") ?? 0, db.commits)
    }
    let report = try await h.copy.queue.drain()
    #expect(report.answered == 20)
    for id in ids { #expect(try await h.write(id).sent) }
    // Each write's verdict in the change log, and a mark of its own only for the first write
    // (marked before it goes) and a write whose group committed while its request was out: at
    // most one such a commit, as one request is out at a time. Marked by a statement each, the
    // twenty writes made 40 entries.
    let (changes, commits) = try await h.copy.store.run { db in
      (try db.scalar("SELECT count(*) FROM change_log WHERE n > \(before)") ?? 0, db.commits - commitsBefore)
    }
    #expect(
      changes >= 20 && changes <= 21 + commits,
      "\(changes) change-log entries for 20 drained writes in \(commits) commits")
    // How many commits the drain makes is the clock's: a group commits 50 ms after it opened. At
    // full speed the twenty writes take a few groups; under a sanitizer (2–20× slower, every test
    // of the target at once) a group holds a write or two, so there the bound is the one above
    // alone, which still holds each write to its verdict and at most one mark a commit.
    if !SanitizerRun.active {
      #expect(changes < 30, "\(changes) change-log entries for 20 drained writes in \(commits) commits")
    }
  }

  /// A write whose verdict is stored in the group needs no mark at the commit: only the write
  /// still out is left to it. A write refused unsent keeps the mark owed to it.
  @Test func aStoredVerdictLeavesTheCommitOnlyTheWritesStillOut() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let a = try await copy.createItem(type: "note", properties: .object([]))
    let b = try await copy.createItem(type: "note", properties: .object([]))
    let c = try await copy.createItem(type: "note", properties: .object([]))
    let owed = try await copy.store.run { db -> [[String]] in
      try db.beginGroup()
      for w in [a, b, c] { try db.markSentByCommit(w.id) }
      var seen = [db.sentMarksOwed]
      let now = "2026-12-07T00:00:00.000Z"
      try DrainPass.store(a, DrainPass.Settlement(verdict: .accepted, now: now), in: db)
      seen.append(db.sentMarksOwed)
      try DrainPass.store(c, .refusedUnsent("why", now: now), in: db)
      seen.append(db.sentMarksOwed)
      try db.endGroup()
      return seen
    }
    #expect(owed == [[a.id, b.id, c.id], [b.id, c.id], [b.id, c.id]])
    for w in [a, b, c] { #expect(Self.committed(t, "SELECT sent FROM queue WHERE id = '\(w.id)'") == 1) }
  }
}
