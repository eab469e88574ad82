/// The two ends of a whole drain report an earlier build kept (``SQLite/lastDrain()``):
/// `SELECT substr(…, 1, n) AS head, substr(…, -n) AS tail FROM meta`.
enum ReportEndsColumn: Int, SQLColumn {
  case head, tail
  static let table = "meta"
}
