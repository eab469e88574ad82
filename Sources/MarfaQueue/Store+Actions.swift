/// The queue calls that act on stored verdicts, run inside the store's transactions.
extension SQLite {
  /// Kinds whose refused writes carry no content, as an SQL list.
  static let contentlessKinds = WriteKind.allCases.filter { !$0.carriesContent }
    .map { "'\($0.rawValue)'" }.joined(separator: ",")

  /// The condition for a write `q` that a clearing may take.
  static let clearable = """
    (q.verdict IN ('accepted','merged','conflicted')
      OR (q.verdict = 'refused' AND q.kind IN (\(contentlessKinds)) AND (q.sent = 1 OR q.withdrawn_dependency = 1)))
    AND NOT EXISTS (
      SELECT 1 FROM queue_deps d JOIN queue w ON w.id = d.id
      WHERE d.on_id = q.id AND (w.verdict IS NULL OR w.verdict IN ('blocked','dead')
        OR (w.verdict = 'refused' AND w.sent = 0 AND w.withdrawn_dependency = 0)))
    """

  /// Deletes the write and its dependency rows.
  func deleteWrite(_ id: String) throws {
    try query("DELETE FROM queue WHERE id = ?", [.text(id)])
    try query("DELETE FROM queue_deps WHERE id = ?", [.text(id)])
  }

  /// Deletes and returns the clearable answered writes, all or only `ids`.
  func takeClearable(ids: [String]?) throws -> [QueuedWrite] {
    var taken: [QueuedWrite] = []
    if let ids {
      for id in Set(ids) {
        taken += try rows(
          "SELECT \(SQLite.writeColumns) FROM queue q WHERE q.id = ? AND \(SQLite.clearable)", [.text(id)],
          SQLite.write(from:))
      }
      taken.sort { $0.queuedAt < $1.queuedAt }
    } else {
      taken = try rows(
        "SELECT \(SQLite.writeColumns) FROM queue q WHERE \(SQLite.clearable) ORDER BY q.seq", [],
        SQLite.write(from:))
    }
    for w in taken { try deleteWrite(w.id) }
    return taken
  }

  /// Takes a refused write out; false when it isn't refused or a waiting write depends on it.
  func discard(_ id: String) throws -> Bool {
    guard let w = try write(id: id) else { throw QueueError.notFound(id: id) }
    guard case .refused = w.verdict else { return false }
    if try hasPendingDependant(id) { return false }
    try deleteWrite(id)
    return true
  }

  /// Whether a write may be released: blocked, dead, or refused unsent by the drain for a
  /// reason other than a withdrawn dependency.
  func releasable(_ id: String) throws -> Bool {
    let n = try scalar(
      """
      SELECT count(*) FROM queue WHERE id = ? AND (verdict IN ('blocked','dead')
        OR (verdict = 'refused' AND sent = 0 AND withdrawn_dependency = 0))
      """, [.text(id)]) ?? 0
    return n > 0
  }

  /// Puts a blocked or dead write back to no verdict under a fresh key, with the writes the
  /// drain refused unsent because of it; returns how many writes were released.
  func release(_ id: String, instanceId: String?) throws -> Int {
    guard try write(id: id) != nil else { throw QueueError.notFound(id: id) }
    guard try releasable(id) else { return 0 }
    var released = 0
    var pending = [id]
    var seen = Set<String>()
    while let next = pending.popLast() {
      guard seen.insert(next).inserted else { continue }
      guard let w = try write(id: next) else { continue }
      try query(
        """
        UPDATE queue SET verdict = NULL, reason = NULL, refusal = NULL, answer = NULL, refusals = 0,
          spent_keys = json_insert(spent_keys, '$[#]', idempotency_key), idempotency_key = ?,
          last_failure_status = NULL, last_failure_text = NULL, environmental_streak = 0, waiting = 0,
          sent = 0, answered_at = NULL, replayed = 0,
          instance_id = CASE WHEN reason = 'instance_changed' AND ? IS NOT NULL THEN ? ELSE instance_id END
        WHERE id = ?
        """, [.text(Identifiers.key()), .of(instanceId), .of(instanceId), .text(w.id)])
      released += 1
      // The writes the drain refused unsent because this one was refused or dead go with it.
      let refusedBehind = try rows(
        """
        SELECT q.id FROM queue_deps d JOIN queue q ON q.id = d.id
        WHERE d.on_id = ? AND q.verdict = 'refused' AND q.sent = 0 AND q.withdrawn_dependency = 0
        """, [.text(w.id)]) { $0.text(0) ?? "" }
      pending += refusedBehind
    }
    return released
  }

  /// Ids of the writes blocked for `reason`, in send order.
  func blocked(for reason: BlockedReason) throws -> [String] {
    try rows("SELECT id FROM queue WHERE pane = 2 AND reason = ? ORDER BY seq", [.text(reason.rawValue)]) {
      $0.text(0) ?? ""
    }
  }

  /// Refuses unsent, transitively, every write still waiting on `id`, which was withdrawn.
  func refuseBehindWithdrawn(_ id: String, kind: WriteKind, now: String) throws {
    var pending = [(id, kind)]
    var seen = Set<String>()
    while let (next, _) = pending.popLast() {
      let behind = try rows(
        """
        SELECT q.id, q.kind FROM queue_deps d JOIN queue q ON q.id = d.id
        WHERE d.on_id = ? AND (q.verdict IS NULL OR q.verdict IN ('blocked','dead'))
        """, [.text(next)]) { ($0.text(0) ?? "", WriteKind(rawValue: $0.text(1) ?? "") ?? .createItem) }
      for (behindId, behindKind) in behind where seen.insert(behindId).inserted {
        let refusal = Refusal(reason: "the \(kind.words) it waits for was withdrawn")
        try query(
          """
          UPDATE queue SET verdict = 'refused', reason = ?, refusal = ?, waiting = 0, withdrawn_dependency = 1,
            answered_at = ? WHERE id = ?
          """, [.text(refusal.reason), .text(refusal.wireJSON.text), .text(now), .text(behindId)])
        pending.append((behindId, behindKind))
      }
    }
  }
}
