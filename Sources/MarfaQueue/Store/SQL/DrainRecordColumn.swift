/// The `drains` table's columns: one bounded row per drain (``DrainRecord``).
enum DrainRecordColumn: Int, SQLColumn {
  case n, startedMs, endedMs, program, mode, pid, host
  case answered, held, undelivered, unsent, unmade, verdicts, ending, why, retryAfter
  static let table = "drains"
}
