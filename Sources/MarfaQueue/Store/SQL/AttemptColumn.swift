/// The `attempts` table's columns: each request a drain sent for a write (``WriteAttempt``).
enum AttemptColumn: Int, SQLColumn {
  case writeId, k, atMs, drain, result, status, code, replayed, ms, text
  static let table = "attempts"
}
