/// One write in each state a view names, set by SQL on a store of this project's as a drain (or a
/// writer killed mid-request) leaves it, with the one word every view must give each: the
/// screen's panes and detail, `show`, `queue`, `watch --plain` and `state` in `--json`.
public enum EveryState {
  /// Each state's write (a role, which the test names its write by) and its word, in queue order.
  public static let roles = [
    "queued", "sent", "undelivered", "waiting", "accepted", "merged", "conflicted", "refused", "blocked", "dead",
  ]

  /// The SQL that puts the write of each role (`ids[role]`, all queued unanswered) in its state.
  public static func sql(_ ids: [String: String]) -> String {
    func id(_ role: String) -> String { ids[role]! }
    let refusal = #"{"error":{"code":"validation_error","message":"m"}}"#
    return """
      UPDATE queue SET sent = 1 WHERE id = '\(id("sent"))';
      UPDATE queue SET sent = 1, last_failure_status = 503, last_failure_text = 'Service Unavailable',
        environmental_streak = 1 WHERE id = '\(id("undelivered"))';
      UPDATE queue SET waiting = 1, follows = '\(id("undelivered"))' WHERE id = '\(id("waiting"))';
      UPDATE queue SET verdict = 'accepted', sent = 1, answered_at = '2026-12-01T10:00:00.000Z'
        WHERE id = '\(id("accepted"))';
      UPDATE queue SET verdict = 'merged', sent = 1, merged_fields = '["title"]',
        answered_at = '2026-12-01T10:00:00.000Z' WHERE id = '\(id("merged"))';
      UPDATE queue SET verdict = 'conflicted', sent = 1, conflicted_copy_id = 'item-copy',
        answered_at = '2026-12-01T10:00:00.000Z' WHERE id = '\(id("conflicted"))';
      UPDATE queue SET verdict = 'refused', reason = 'validation_error', refusals = 1, sent = 1,
        answer = '\(refusal)', answered_at = '2026-12-01T10:00:00.000Z' WHERE id = '\(id("refused"))';
      UPDATE queue SET verdict = 'blocked', reason = 'key_spent', sent = 1,
        answered_at = '2026-12-01T10:00:00.000Z' WHERE id = '\(id("blocked"))';
      UPDATE queue SET verdict = 'dead', refusals = 5, sent = 1, answer = '\(refusal)',
        answered_at = '2026-12-01T10:00:00.000Z' WHERE id = '\(id("dead"))';
      """
  }
}
