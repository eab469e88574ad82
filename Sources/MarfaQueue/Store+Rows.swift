/// Reading queue rows into ``QueuedWrite`` values.
extension SQLite {
  /// The columns every queue read selects, in the order ``write(from:)`` reads them.
  static let writeColumns = """
    id, kind, item_id, target_id, edge_id, namespace, tag, blob, base_version, idempotency_key, payload,
    sent, depends_on, follows, verdict, reason, answer, conflicted_copy_id, refusals, queued_at, answered_at,
    instance_id, refusal, merged_fields, replayed, last_failure_status, last_failure_text,
    environmental_streak, waiting, seq, withdrawn_dependency
    """

  /// ``writeColumns`` without the body and the answer (each read as empty): for lines and
  /// lists that never show them, at a fraction of the cost (no JSON body parsed per write).
  static let summaryColumns =
    writeColumns
    .replacingOccurrences(of: "idempotency_key, payload,", with: "idempotency_key, '{}',")
    .replacingOccurrences(
      of: "verdict, reason, answer, conflicted_copy_id", with: "verdict, reason, NULL, conflicted_copy_id")

  /// Up to `limit` writes of a pane after send order `seq`, without bodies and answers; with
  /// the send order of each (keyset paging: no OFFSET to step over).
  func summaries(_ pane: QueuePane, after seq: Int, limit: Int) throws -> [(Int, QueuedWrite)] {
    try rows(
      "SELECT \(SQLite.summaryColumns) FROM queue WHERE pane = ? AND seq > ? ORDER BY seq LIMIT ?",
      [.int(pane.rawValue), .int(seq), .int(max(0, limit))]
    ) { r in (r.int(29) ?? 0, SQLite.write(from: r)) }
  }

  /// Maps one row selected with ``writeColumns``.
  static func write(from r: Row) -> QueuedWrite {
    let kind = WriteKind(rawValue: r.text(1) ?? "") ?? .createItem
    let verdictName = r.text(14)
    let reason = r.text(15)
    let refusal = r.text(22).flatMap(JSONValue.parse).flatMap(Refusal.init(wireJSON:))
    let mergedFields = r.text(23).flatMap(JSONValue.parse)?.arrayValue?.compactMap(\.stringValue) ?? []
    let conflicted = r.text(17)
    let verdict: Verdict?
    switch verdictName.flatMap(VerdictName.init(rawValue:)) {
    case .accepted: verdict = .accepted
    case .merged: verdict = .merged(fields: mergedFields)
    case .conflicted: verdict = .conflicted(siblingId: conflicted ?? "", fields: mergedFields)
    case .refused: verdict = .refused(refusal ?? Refusal(reason: reason ?? "unknown"))
    case .blocked:
      verdict = .blocked(reason: BlockedReason(rawValue: reason ?? "") ?? .credentialRefused, refusal: refusal)
    case .dead: verdict = .dead
    case nil: verdict = nil
    }
    let status = r.int(25)
    let text = r.text(26)
    let failure = status == nil && text == nil && r.int(27) == 0 ? nil : LastFailure(status: status, text: text)
    return QueuedWrite(
      id: r.text(0) ?? "", kind: kind, itemId: r.text(2), targetId: r.text(3), edgeId: r.text(4),
      namespace: r.text(5), tag: r.text(6), blob: r.text(7), baseVersion: r.int(8),
      idempotencyKey: r.text(9) ?? "",
      dependsOn: r.text(12).flatMap(JSONValue.parse)?.arrayValue?.compactMap(\.stringValue) ?? [],
      follows: r.text(13), body: r.text(10).flatMap(JSONValue.parse) ?? .object([]),
      answer: r.text(16), verdict: verdict, waiting: r.int(28) == 1, refusals: r.int(18) ?? 0,
      lastFailure: failure.flatMap { $0.status == nil && $0.text == nil ? nil : $0 },
      environmentalStreak: r.int(27) ?? 0, instanceId: r.text(21), sent: r.int(11) == 1,
      conflictedCopyId: conflicted, dependencyGone: r.int(30) == 1, replayed: r.int(24) == 1,
      queuedAt: r.text(19) ?? "",
      answeredAt: r.text(20))
  }

  /// The write with this id, or nil.
  func write(id: String) throws -> QueuedWrite? {
    try rows("SELECT \(SQLite.writeColumns) FROM queue WHERE id = ?", [.text(id)], SQLite.write(from:)).first
  }

  /// The write's send order, or nil.
  func seq(of id: String) throws -> Int? {
    try scalar("SELECT seq FROM queue WHERE id = ?", [.text(id)])
  }

  /// A meta value.
  func meta(_ key: String) throws -> String? {
    try text("SELECT value FROM meta WHERE key = ?", [.text(key)])
  }

  /// Sets (or, with nil, removes) a meta value.
  func setMeta(_ key: String, _ value: String?) throws {
    if let value {
      try query(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [.text(key), .text(value)])
    } else {
      try query("DELETE FROM meta WHERE key = ?", [.text(key)])
    }
  }

  /// Whether the store keeps its pane counts (``StoreSchema/paneCounts``).
  func hasPaneCounts() throws -> Bool {
    try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'pane_counts'") == 1
  }

  /// How many writes each pane holds: the kept counts, or a count of the index in a store made
  /// before they were kept.
  func counts() throws -> QueueCounts {
    var c = QueueCounts()
    let sql = try hasPaneCounts() ? "SELECT pane, n FROM pane_counts" : "SELECT pane, count(*) FROM queue GROUP BY pane"
    try query(sql) { r in
      let n = r.int(1) ?? 0
      switch r.int(0) {
      case 0: c.waiting = n
      case 1: c.answered = n
      case 2: c.blocked = n
      case 3: c.dead = n
      default: break
      }
    }
    return c
  }

  /// One page of a pane, optionally filtered by a substring.
  /// The WHERE clause (and its values) that picks one pane under a substring filter.
  static func paneFilter(_ pane: QueuePane, _ filter: String?) -> (String, [SQLValue]) {
    var whereClause = "pane = ?"
    var values: [SQLValue] = [.int(pane.rawValue)]
    // Plain words and field terms (`reason:key_spent`, `-kind:add_tag`, …): ``WriteFilter``.
    if let parsed = WriteFilter(filter) {
      let (clause, terms) = parsed.sql()
      whereClause += " AND " + clause
      values += terms
    }
    return (whereClause, values)
  }

  func page(_ pane: QueuePane, offset: Int, limit: Int, filter: String?) throws -> QueuePage {
    let (whereClause, values) = SQLite.paneFilter(pane, filter)
    // Unfiltered, the pane's size is kept; a filter counts what it matches.
    let total: Int
    if filter?.isEmpty ?? true, try hasPaneCounts() {
      total = try scalar("SELECT n FROM pane_counts WHERE pane = ?", [.int(pane.rawValue)]) ?? 0
    } else {
      total = try scalar("SELECT count(*) FROM queue WHERE \(whereClause)", values) ?? 0
    }
    let start = max(0, min(offset, max(0, total - 1)))
    let limit = max(0, limit)
    // OFFSET steps over every index entry before the page: past the middle of the pane, read
    // from the end backwards (the end of Answered, where the newest answers are, costs as
    // little as its start; a page at the end of 700,000 answered writes took ~100 ms forwards).
    if start > total / 2 {
      let count = min(limit, total - start)
      let writes = try rows(
        "SELECT \(SQLite.writeColumns) FROM queue WHERE \(whereClause) ORDER BY seq DESC LIMIT ? OFFSET ?",
        values + [.int(count), .int(max(0, total - start - count))], SQLite.write(from:))
      return QueuePage(pane: pane, offset: start, writes: writes.reversed(), total: total)
    }
    let writes = try rows(
      "SELECT \(SQLite.writeColumns) FROM queue WHERE \(whereClause) ORDER BY seq LIMIT ? OFFSET ?",
      values + [.int(limit), .int(start)], SQLite.write(from:))
    return QueuePage(pane: pane, offset: start, writes: writes, total: total)
  }

  /// Where a write sits: its pane and its index there under the filter, or nil.
  func position(of id: String, filter: String?) throws -> (QueuePane, Int)? {
    guard let seq = try seq(of: id), let w = try write(id: id) else { return nil }
    let (clause, values) = SQLite.paneFilter(w.pane, filter)
    guard try scalar("SELECT count(*) FROM queue WHERE \(clause) AND id = ?", values + [.text(id)]) == 1 else {
      return nil
    }
    let index = try scalar("SELECT count(*) FROM queue WHERE \(clause) AND seq < ?", values + [.int(seq)]) ?? 0
    return (w.pane, index)
  }

}
