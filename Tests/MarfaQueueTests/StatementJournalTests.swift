import Foundation
import Testing

@testable import MarfaQueue

/// A savepoint's undo (SQLite's statement journal) stays in memory up to 124 KiB: a drain keeps
/// each write's bookkeeping in a savepoint of its group, about 90 KB, which past SQLite's 64 KiB
/// default spilled to a temporary file at every write. A larger undo spills, and still works.
@Suite struct StatementJournalTests {
  /// The write calls this thread has made (`syscw` of `/proc/thread-self/io`).
  static func writeCalls() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8) else { return -1 }
    let line = text.split(separator: "\n").first { $0.hasPrefix("syscw:") }
    return line.flatMap { Int($0.dropFirst("syscw:".count).trimmingCharacters(in: .whitespaces)) } ?? -1
  }

  @Test func aSavepointOfAGroupUndoingMoreThanSQLitesDefaultSpillWritesNothingUntilTheGroupCommits() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    #expect(SQLite.configured)
    let calls = try await copy.store.run { db -> Int in
      try db.execute("CREATE TABLE filler(x BLOB)")
      try db.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 24) INSERT INTO filler SELECT zeroblob(3000) FROM n"
      )
      try db.beginGroup()
      defer { try? db.endGroup() }
      // About 24 pages (96 KiB) changed in one savepoint, then a second one over the same pages.
      let before = Self.writeCalls()
      for size in [3001, 3002] {
        try db.transaction(durable: false) { try db.execute("UPDATE filler SET x = zeroblob(\(size))") }
      }
      return Self.writeCalls() - before
    }
    #expect(calls == 0, "\(calls) write calls made inside the group")
  }

  @Test func aStatementWhoseUndoPassesTheSpillManyTimesOverCommitsAndIsNotReadAsAFullDisk() async throws {
    let t = TestStore()
    let copy = try await t.open()
    defer { copy.close() }
    let rows = try await copy.store.run { db -> Int in
      try db.execute("CREATE TABLE filler(x BLOB)")
      try db.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO filler SELECT zeroblob(3000) FROM n"
      )
      try db.beginGroup()
      // About 3,000 pages (12 MiB) of undo in one statement of one savepoint: at a spill of 8 MiB
      // SQLite wrote its first in-memory chunk as 0 bytes and failed SQLITE_FULL.
      try db.transaction(durable: false) { try db.execute("UPDATE filler SET x = zeroblob(3001)") }
      try db.endGroup()
      return try db.scalar("SELECT count(*) FROM filler WHERE length(x) = 3001") ?? 0
    }
    #expect(rows == 3000)
  }
}
