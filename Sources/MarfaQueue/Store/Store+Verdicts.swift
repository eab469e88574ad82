/// Recording what a drain learned about a write.
extension SQLite {
  /// Stores a verdict (or, with nil, no verdict) on the write, clearing its failure streak
  /// when the verdict is an answer.
  ///
  /// With `clearFailure`, the last failure and the streak go back to nil and 0 in the same
  /// statement (an answer, a refusal: docs/rules.md).
  func recordVerdict(
    id: String, verdict: Verdict?, sent: Bool, answer: String?, now: String, replayed: Bool = false,
    clearFailure: Bool = false
  ) throws {
    var reason: String?
    var refusal: String?
    var merged: String?
    var conflicted: String?
    switch verdict {
    case .merged(let fields):
      merged = JSONValue.array(fields.map(JSONValue.string)).text
    case .conflicted(let sibling, let fields):
      conflicted = sibling
      merged = JSONValue.array(fields.map(JSONValue.string)).text
    case .refused(let r):
      reason = r.reason
      refusal = r.wireJSON.text
    case .blocked(let r, let parts):
      reason = r.rawValue
      refusal = parts?.wireJSON.text
    case .accepted, .dead, nil:
      break
    }
    try query(
      clearFailure ? SQLite.verdictClearingFailureSQL : SQLite.verdictSQL,
      [
        .of(verdict?.wireName), .of(reason), .of(refusal), .of(merged), .of(conflicted), .int(sent ? 1 : 0),
        .of(answer), verdict == nil ? .null : .text(now), .int(replayed ? 1 : 0), .of(verdict?.wireName),
        .text(id),
      ])
  }

  /// The verdict's `UPDATE`, its text made once (a statement is found by where its text is
  /// stored, and this one runs for every answer).
  static let verdictSQL = makeVerdictSQL(clearingFailure: false)
  /// The verdict's `UPDATE` that also clears the last failure and the streak.
  static let verdictClearingFailureSQL = makeVerdictSQL(clearingFailure: true)

  private static func makeVerdictSQL(clearingFailure: Bool) -> String {
    """
    UPDATE queue SET verdict = ?, reason = ?, refusal = ?, merged_fields = ?, conflicted_copy_id = ?,
      sent = CASE WHEN ? THEN 1 ELSE sent END, answer = COALESCE(?, answer), answered_at = ?, waiting = 0,
      replayed = ?, refusals = CASE WHEN ? = \(VerdictName.dead.sql) THEN \(QueueLimits.ceiling) ELSE refusals END
      \(clearingFailure ? ", " + SQLite.failureCleared : "")
    WHERE id = ?
    """
  }
}
