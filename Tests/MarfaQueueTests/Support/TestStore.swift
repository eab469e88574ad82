import CSQLite
import Foundation
import TestSupport

@testable import MarfaQueue

/// A ``TempFolder`` holding one store, removed when the test ends, and the ways into that store.
final class TestStore {
  let temp = TempFolder()
  var folder: URL { temp.url }
  var url: URL { temp.storeURL }

  func open(server: Server? = nil) async throws -> WorkingCopy {
    try await WorkingCopy.open(store: url, server: server)
  }

  /// Runs SQL on the file itself, outside any working copy (a store as an earlier build or
  /// another program left it); false when SQLite refused it.
  @discardableResult
  func execute(_ sql: String) -> Bool {
    var db: OpaquePointer?
    defer { sqlite3_close(db) }
    _ = SQLite.configured
    return sqlite3_open(url.path, &db) == SQLITE_OK && sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK
  }
}

extension WorkingCopy {
  /// Test-only seam: records a verdict as a drain would, so rules that depend on verdicts
  /// can be tested before (and apart from) the drain.
  func forceVerdict(_ id: String, _ verdict: Verdict?, sent: Bool = true, waiting: Bool = false) async throws {
    try await store.run { db in
      try db.transaction(durable: false) {
        try db.recordVerdict(id: id, verdict: verdict, sent: sent, answer: nil, now: "2026-01-01T00:00:00.000Z")
        try db.query("UPDATE queue SET waiting = ? WHERE id = ?", [.int(waiting ? 1 : 0), .text(id)])
      }
    }
  }
}
