import CSQLite

/// SQL run on a store file from outside any working copy, as another program (or an attacker
/// with `sqlite3`) would: for tests that plant what verdicts itself never writes.
public enum SQLiteFile {
  /// Sets this process's SQLite configuration as the product does (`csqlite_configure`), once,
  /// before a test's own connection can be the first open: SQLite takes it only before then.
  public static let configured: Bool = csqlite_configure() != 0

  /// Runs `sql` (several statements allowed) on the file at `path` in a connection of its own.
  public static func exec(_ path: String, _ sql: String) throws {
    var db: OpaquePointer?
    defer { sqlite3_close_v2(db) }
    _ = configured
    guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
      throw FixtureError("cannot open \(path)")
    }
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "?"
      sqlite3_free(message)
      throw FixtureError("\(text) in \(sql.prefix(80))")
    }
  }
}
