import FoundationEssentials

/// The queue calls that act on stored verdicts, run inside the store's transactions.
extension SQLite {
  /// The SQL condition that no outstanding write (``outstanding(_:orRefused:)``) depends on the
  /// write `q`. A write the drain refused unsent is not outstanding (it goes only by a release).
  static let noWaitingDependant = """
    NOT EXISTS (SELECT 1 FROM queue_deps d JOIN queue w ON w.id = d.id WHERE d.on_id = q.id AND \(outstanding("w")))
    """

  /// Whether a waiting write depends on the write: the part of the rules for discard and
  /// forget that the write alone cannot know (``QueuedWrite/allows(_:)``).
  func hasWaitingDependant(_ id: String) throws -> Bool {
    let n =
      try scalar("SELECT count(*) FROM queue q WHERE q.id = ? AND NOT \(SQLite.noWaitingDependant)", [.text(id)]) ?? 0
    return n > 0
  }

  /// Whether `action` may take the write, in full: its own rule, then the store's.
  func permission(_ action: WriteAction, for w: QueuedWrite) throws -> ActionPermission {
    let own = w.allows(action)
    guard own.isAllowed else { return own }
    if action.asksDependants, try hasWaitingDependant(w.id) { return .notAllowed(.waitingDependant) }
    return .allowed
  }

  /// Takes a write out of the queue. When it was refused, the writes the drain refused unsent
  /// behind it can never be sent now (they would name a row or edge that never was): they are
  /// marked so (``QueuedWrite/dependencyGone``) and never released.
  func takeOut(_ w: QueuedWrite, as departure: Departure, by: String, nowMs: Int) throws {
    var marked: [String] = []
    if w.verdict?.name == .refused {
      let behind = """
        id IN (SELECT id FROM queue_deps WHERE on_id = ?) AND verdict = \(VerdictName.refused.sql) AND sent = 0
        """
      // The ones marked now, so that an undo unmarks exactly them.
      marked = try ids("SELECT id FROM queue WHERE \(behind) AND withdrawn_dependency = 0", [.text(w.id)])
      try query("UPDATE queue SET withdrawn_dependency = 1 WHERE \(behind)", [.text(w.id)])
    }
    try deleteWrite(w.id, as: departure, marked: marked, by: by, nowMs: nowMs)
  }

  /// Deletes the write and its dependency rows, recording why it left and keeping it whole in
  /// the archive (``archive(_:as:marked:by:nowMs:)``) first.
  func deleteWrite(
    _ id: String, as departure: Departure, marked: [String] = [], by: String? = nil, nowMs: Int? = nil
  ) throws {
    try archive(id, as: departure, marked: marked, by: by ?? departingProcess(), nowMs: nowMs ?? SQLite.nowMs())
    try query("DELETE FROM queue WHERE id = ?", [.text(id)])
    try query("DELETE FROM queue_deps WHERE id = ?", [.text(id)])
    try query(
      "INSERT INTO departures (\(DepartureColumn.list([.id, .event]))) VALUES (?, ?)",
      [.text(id), .text(departure.rawValue)])
  }

  /// Now, in epoch milliseconds (the archive's clock).
  static func nowMs() -> Int { Int((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

  /// Deletes and returns the answered writes that may be forgotten, all or only `ids`
  /// (``QueuedWrite/allows(_:)`` with ``WriteAction/forget``, and no waiting write depending on them).
  func takeClearable(ids: [String]?, by: String? = nil) throws -> [QueuedWrite] {
    var taken: [QueuedWrite] = []
    let candidates =
      "SELECT \(SQLite.writeColumns) FROM queue q WHERE q.\(QueuePane.answered.sqlTest) AND \(SQLite.noWaitingDependant)"
    if let ids {
      for id in Set(ids) {
        taken += try writes(candidates + " AND q.id = ?", [.text(id)])
      }
      taken.sort { $0.queuedAt < $1.queuedAt }
    } else {
      taken = try writes(candidates + " ORDER BY q.seq")
    }
    taken = taken.filter { $0.allows(.forget).isAllowed }
    if !taken.isEmpty {
      let by = try by ?? departingProcess()
      let nowMs = SQLite.nowMs()
      for w in taken { try takeOut(w, as: .forgotten, by: by, nowMs: nowMs) }
      try pruneArchive(nowMs: nowMs)
    }
    return taken
  }

  /// Takes a refused write out; false when it isn't refused or a waiting write depends on it.
  func discard(_ id: String, by: String? = nil) throws -> Bool {
    guard let w = try write(id: id) else { throw QueueError.notFound(id: id) }
    guard try permission(.discard, for: w).isAllowed else { return false }
    let nowMs = SQLite.nowMs()
    try takeOut(w, as: .discarded, by: try by ?? departingProcess(), nowMs: nowMs)
    try pruneArchive(nowMs: nowMs)
    return true
  }

  /// Puts a write ``QueuedWrite/allows(_:)`` to release back to no verdict under a fresh key,
  /// with the writes the drain refused unsent because of it that may be released; returns how
  /// many writes were released. Each is first kept as it was under `batch` (``StoreSchema/releases``)
  /// when given, for an undo right after.
  func release(_ id: String, instanceId: String?, batch: Int? = nil) throws -> Int {
    guard let first = try write(id: id) else { throw QueueError.notFound(id: id) }
    guard first.allows(.release).isAllowed else { return 0 }
    var released = 0
    var pending = [first]
    var seen = Set<String>()
    while let w = pending.popLast() {
      guard seen.insert(w.id).inserted else { continue }
      let key = Identifiers.key()
      if let batch { try keepBeforeRelease(w.id, batch: batch, key: key, nowMs: SQLite.nowMs()) }
      try query(
        """
        UPDATE queue SET verdict = NULL, reason = NULL, refusal = NULL, answer = NULL, refusals = 0,
          spent_keys = json_insert(spent_keys, '$[#]', idempotency_key), idempotency_key = ?,
          \(SQLite.failureCleared), waiting = 0,
          sent = 0, answered_at = NULL, replayed = 0,
          instance_id = CASE WHEN reason = ? AND ? IS NOT NULL THEN ? ELSE instance_id END
        WHERE id = ?
        """,
        [
          .text(key), .text(BlockedReason.instanceChanged.rawValue), .of(instanceId), .of(instanceId),
          .text(w.id),
        ])
      released += 1
      // The row of this device's own create shows the released write again.
      if let rowId = w.kind.rowId(item: w.itemId, edge: w.edgeId) {
        try relayOwnCreate(kind: w.kind.rowKind, id: rowId)
      }
      // The writes the drain refused unsent because this one was refused or dead go with it.
      let refusedBehind = try writes(
        """
        SELECT \(SQLite.writeColumns) FROM queue WHERE id IN (SELECT id FROM queue_deps WHERE on_id = ?)
          AND verdict = \(VerdictName.refused.sql) AND sent = 0
        """, [.text(w.id)])
      pending += refusedBehind.filter { $0.allows(.release).isAllowed }
    }
    return released
  }

  /// Releases each of `ids` (``release(_:instanceId:)``), saying for each what became of it; the
  /// caller runs this inside one durable transaction, so the batch lands whole or not at all.
  func release(ids: [String], instanceId: String?, batch: Int? = nil) throws -> [ReleaseOutcome] {
    try ids.map { id in
      guard let w = try write(id: id) else { return ReleaseOutcome(id: id, result: .notFound) }
      if let obstacle = w.allows(.release).obstacle { return ReleaseOutcome(id: id, result: .notAllowed(obstacle)) }
      return ReleaseOutcome(id: id, result: .released(count: try release(id, instanceId: instanceId, batch: batch)))
    }
  }

  /// Ids of the writes blocked for `reason`, in send order.
  func blocked(for reason: BlockedReason) throws -> [String] {
    try ids(
      "SELECT id FROM queue WHERE \(QueuePane.blocked.sqlTest) AND reason = ? ORDER BY seq", [.text(reason.rawValue)])
  }

  /// Refuses unsent, transitively, every outstanding write behind `id`, which was withdrawn:
  /// those that name it in `depends_on` and those that only follow it (docs/rules.md), with the
  /// reason `the <kind> it waits for was withdrawn`, `<kind>` the withdrawn write's wire name.
  func refuseBehindWithdrawn(_ id: String, kind: WriteKind, now: String) throws {
    let refusal = Refusal(reason: "the \(kind.wireName) it waits for was withdrawn")
    var pending = [id]
    var seen = Set<String>()
    while let next = pending.popLast() {
      let behind = try ids(
        """
        SELECT q.id FROM queue q WHERE (q.id IN (SELECT id FROM queue_deps WHERE on_id = ?) OR q.follows = ?)
          AND \(SQLite.outstanding("q"))
        """, [.text(next), .text(next)])
      for behindId in behind where seen.insert(behindId).inserted {
        try query(
          """
          UPDATE queue SET verdict = \(VerdictName.refused.sql), reason = ?, refusal = ?, waiting = 0,
            withdrawn_dependency = 1, answered_at = ? WHERE id = ?
          """, [.text(refusal.reason), .text(refusal.wireJSON.text), .text(now), .text(behindId)])
        pending.append(behindId)
      }
    }
  }
}
