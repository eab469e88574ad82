/// The store's fast path for filling a queue, for the bench's generator (package access only).
///
/// Writes go straight into the `queue` table, by column name (``BulkWrite``), through one
/// prepared statement in one transaction with SQLite's sync off until ``finish()``, and nothing
/// is checked: no dependencies, keys, rules or checksums (a generated store, never a person's).
/// Open it on a store `WorkingCopy.open` made (so the schema and its triggers are the store's
/// own) and no process holds; a failure before ``finish()`` leaves the queue as it was.
package final class StoreBulkInsert {
  private let db: SQLite
  private let statement: SQLStatement
  private var binder: ColumnBinder<QueueColumn>
  private var open = true

  /// Opens the store at `path` and begins the one transaction.
  package init(path: String) throws {
    db = try SQLite(path: path, readOnly: false)
    let columns = BulkWrite.columns
    statement = try db.prepared(
      "INSERT INTO \(QueueColumn.table) (\(QueueColumn.list(columns))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    )
    binder = ColumnBinder(statement, columns: columns)
    try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; PRAGMA cache_size=-200000; BEGIN")
  }

  deinit {
    if open { try? db.execute("ROLLBACK") }
    db.close()
  }

  /// Sets a meta value (the fill state, the instance the copy was filled from).
  package func setMeta(_ key: MetaKey, _ value: String) throws { try db.setMeta(key, value) }

  /// Adds one write at the end of the queue.
  package func insert(_ write: BulkWrite) throws {
    write.bind(&binder)
    try db.step(statement)
  }

  /// Commits everything and folds the log into the file.
  package func finish() throws {
    try db.execute("COMMIT")
    open = false
    try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
  }
}
