import CSQLite

/// The bench's own connections (a raw writer, the checks' reads) open with the product's SQLite
/// configuration, set once before the first of them: SQLite takes it only before its first open.
enum BenchSQLite {
  static let configured: Bool = csqlite_configure() != 0
}
