import CSQLite
import Foundation

/// A second connection to the store that commits verdicts as a drain does, and puts them back.
final class RawConnection {
  let db: OpaquePointer
  let update: OpaquePointer

  /// A waiting write as it was before the bench answered it.
  struct Waiting {
    var id: String
    var sent: Int
    var waiting: Int
  }

  init(path: String) throws {
    var db: OpaquePointer?
    _ = BenchSQLite.configured
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
      throw BenchFailure(message: "cannot open \(path)")
    }
    sqlite3_busy_timeout(db, 5_000)
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL", nil, nil, nil)
    var stmt: OpaquePointer?
    guard
      sqlite3_prepare_v2(
        db, "UPDATE queue SET verdict = 'accepted', sent = 1, waiting = 0, answered_at = ?2 WHERE id = ?1", -1, &stmt,
        nil)
        == SQLITE_OK, let stmt
    else { throw BenchFailure(message: "preparing the verdict: \(String(cString: sqlite3_errmsg(db)))") }
    self.db = db
    self.update = stmt
  }

  deinit {
    sqlite3_finalize(update)
    sqlite3_close_v2(db)
  }

  /// Commits an `accepted` verdict on one write (its own transaction, as the drain settles each).
  func commitAccepted(id: String) throws {
    let now = StoreGenerator.timestamp(Date().timeIntervalSince1970)
    sqlite3_bind_text(update, 1, id, -1, csqlite_transient())
    sqlite3_bind_text(update, 2, now, -1, csqlite_transient())
    defer { sqlite3_reset(update) }
    guard sqlite3_step(update) == SQLITE_DONE, sqlite3_changes(db) == 1 else {
      throw BenchFailure(message: "committing a verdict on \(id): \(String(cString: sqlite3_errmsg(db)))")
    }
  }

  /// The first write of the Waiting pane by send order, or the write `id` as it stands.
  func waiting(id: String? = nil) throws -> Waiting {
    var stmt: OpaquePointer?
    let sql =
      id == nil
      ? "SELECT id, sent, waiting FROM queue WHERE pane = 0 ORDER BY seq LIMIT 1"
      : "SELECT id, sent, waiting FROM queue WHERE id = ?1"
    guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
      throw BenchFailure(message: "reading the Waiting pane: \(String(cString: sqlite3_errmsg(db)))")
    }
    defer { sqlite3_finalize(stmt) }
    if let id { sqlite3_bind_text(stmt, 1, id, -1, csqlite_transient()) }
    guard sqlite3_step(stmt) == SQLITE_ROW, let text = sqlite3_column_text(stmt, 0) else {
      throw BenchFailure(message: "no waiting write left to answer")
    }
    return Waiting(
      id: String(cString: text), sent: Int(sqlite3_column_int64(stmt, 1)), waiting: Int(sqlite3_column_int64(stmt, 2)))
  }

  /// Puts answered writes back as they were (no verdict), in one transaction.
  func restore(_ writes: [Waiting]) throws {
    var stmt: OpaquePointer?
    guard
      sqlite3_prepare_v2(
        db, "UPDATE queue SET verdict = NULL, answered_at = NULL, sent = ?2, waiting = ?3 WHERE id = ?1", -1, &stmt,
        nil) == SQLITE_OK, let stmt
    else { throw BenchFailure(message: "preparing the restore: \(String(cString: sqlite3_errmsg(db)))") }
    defer { sqlite3_finalize(stmt) }
    sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
    for w in writes {
      sqlite3_bind_text(stmt, 1, w.id, -1, csqlite_transient())
      sqlite3_bind_int64(stmt, 2, sqlite3_int64(w.sent))
      sqlite3_bind_int64(stmt, 3, sqlite3_int64(w.waiting))
      _ = sqlite3_step(stmt)
      sqlite3_reset(stmt)
    }
    guard sqlite3_exec(db, "COMMIT", nil, nil, nil) == SQLITE_OK else {
      throw BenchFailure(message: "restoring the answered writes: \(String(cString: sqlite3_errmsg(db)))")
    }
  }
}
