import CSQLite

/// SQL run on a store file as another program would (a person with `sqlite3`, a damaged disk):
/// no check of this project's runs; for tests that damage a store on purpose.
public enum SQLiteScript {
  /// Runs `sql` (one or more statements) on the file at `path`, check constraints off.
  public static func run(_ sql: String, on path: String) throws {
    var db: OpaquePointer?
    _ = SQLiteFile.configured
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
      sqlite3_close(db)
      throw FixtureError("cannot open \(path)")
    }
    defer { sqlite3_close(db) }
    sqlite3_busy_timeout(db, 5000)
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(db, "PRAGMA ignore_check_constraints = ON; " + sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "failed"
      sqlite3_free(message)
      throw FixtureError("\(text): \(sql)")
    }
  }

  /// The first column of each row `sql` selects, as text.
  public static func texts(_ sql: String, on path: String) throws -> [String] {
    var db: OpaquePointer?
    _ = SQLiteFile.configured
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
      sqlite3_close(db)
      throw FixtureError("cannot open \(path)")
    }
    defer { sqlite3_close(db) }
    var stmt: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { throw FixtureError("cannot prepare \(sql)") }
    defer { sqlite3_finalize(stmt) }
    var out: [String] = []
    while sqlite3_step(stmt) == SQLITE_ROW {
      out.append(sqlite3_column_text(stmt, 0).map { String(cString: $0) } ?? "")
    }
    return out
  }
}
