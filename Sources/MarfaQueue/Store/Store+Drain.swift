/// The store's side of a drain: readiness, marks, failures, parking, read-backs. The drain
/// (``DrainPass``, ``Queue/drain()``, ``Queue/withdraw(_:)``) asks these; it writes no SQL of its own.
extension SQLite {
  /// How many writes have no verdict yet (what a pass may come to).
  func unansweredCount() throws -> Int {
    try scalar("SELECT count(*) FROM queue WHERE \(QueuePane.waiting.sqlTest)") ?? 0
  }

  /// The row reads an earlier drain owes (a refused write's row that could not be read back):
  /// the write's id, the row's kind and id.
  func owedReadBacks() throws -> [(id: String, kind: RowKind, rowId: String)] {
    try rows(
      "SELECT \(ReadBackColumn.all) FROM read_backs WHERE kind <> '\(SQLite.landingKind)'", [],
      reading: ReadBackColumn.self
    ) {
      (
        id: $0.text(.id) ?? "", kind: $0.text(.kind).flatMap(RowKind.init(rawValue:)) ?? .item,
        rowId: $0.text(.rowId) ?? ""
      )
    }
  }

  /// Owes the read of a refused write's row to the next drain.
  func oweReadBack(_ id: String, kind: RowKind, rowId: String) throws {
    try query(
      "INSERT OR REPLACE INTO read_backs (id, kind, row_id) VALUES (?, ?, ?)",
      [.text(id), .text(kind.rawValue), .text(rowId)])
  }

  /// What `read_backs` names a landing owed by: the read of the row a refused create's natural key
  /// names, which the copy moves onto once it reads it.
  static let landingKind = "landing"

  /// The landings earlier drains owe: the refused create's id and the row its natural key names.
  func owedLandings() throws -> [(id: String, rowId: String)] {
    try rows(
      "SELECT \(ReadBackColumn.all) FROM read_backs WHERE kind = '\(SQLite.landingKind)'", [],
      reading: ReadBackColumn.self
    ) { (id: $0.text(.id) ?? "", rowId: $0.text(.rowId) ?? "") }
  }

  /// Owes the read of the row a refused create's natural key names (``owedLandings()``).
  func oweLanding(_ id: String, on rowId: String) throws {
    try query(
      "INSERT OR REPLACE INTO read_backs (id, kind, row_id) VALUES (?, '\(SQLite.landingKind)', ?)",
      [.text(id), .text(rowId)])
  }

  /// The owed read of the write's row was made.
  func settleReadBack(_ id: String) throws {
    try query("DELETE FROM read_backs WHERE id = ?", [.text(id)])
  }

  /// Takes a row the instance no longer holds out of the copy.
  func dropRow(kind: RowKind, id: String) throws {
    try query("DELETE FROM rows WHERE kind = ? AND id = ?", [.text(kind.rawValue), .text(id)])
  }

  /// Keeps the instance's answer on the write (its verdict unchanged).
  func keepAnswer(_ answer: String?, on id: String) throws {
    try query("UPDATE queue SET answer = ? WHERE id = ?", [.of(answer), .text(id)])
  }

  /// The unanswered writes after `seq`, in send order, a batch at a time.
  func unanswered(after seq: Int, limit: Int) throws -> [(Int, QueuedWrite)] {
    try rows(
      "SELECT \(QueueCodec.selectList) FROM queue WHERE \(QueuePane.waiting.sqlTest) AND seq > ? ORDER BY seq LIMIT ?",
      [.int(seq), .int(limit)], reading: QueueColumn.self, QueueCodec.sequenced(from:))
  }

  /// Whether the write still has no verdict, with what a pass may change of an unanswered write
  /// (its version and body, when a create before it was answered); nil when it is gone.
  func standing(of id: String) throws -> (answered: Bool, baseVersion: Int?, itemId: String?)? {
    var out: (Bool, Int?, String?)?
    try query(
      "SELECT verdict, base_version, item_id FROM queue WHERE id = ?", [.text(id)], reading: QueueColumn.self
    ) { r in
      out = (r.text(.verdict) != nil, r.int(.baseVersion), r.text(.itemId))
    }
    return out
  }

  /// Puts self-clearing blocks (`credential_refused`) back to no verdict, under the same key.
  func unblockSelfClearing() throws {
    try query(
      "UPDATE queue SET verdict = NULL, reason = NULL, refusal = NULL WHERE \(QueuePane.blocked.sqlTest) AND reason = ?",
      [.text(BlockedReason.credentialRefused.rawValue)])
    try query("UPDATE queue SET waiting = 0 WHERE waiting = 1")
  }

  /// A write's verdict name, blocked reason and kind, for readiness; nil when it is gone.
  func gate(_ id: String) throws -> Readiness.Gate? {
    var out: Readiness.Gate?
    try query("SELECT verdict, reason, kind FROM queue WHERE id = ?", [.text(id)], reading: QueueColumn.self) { r in
      let verdict = r.text(.verdict).flatMap(VerdictName.init(rawValue:))
      out = Readiness.Gate(
        verdict: verdict,
        blockedReason: verdict == .blocked ? r.text(.reason).flatMap(BlockedReason.init(rawValue:)) : nil,
        kind: WriteKind(rawValue: r.text(.kind) ?? "") ?? .createItem,
        unknownKind: WriteKind(rawValue: r.text(.kind) ?? "") == nil ? r.text(.kind) ?? "" : nil)
    }
    if out?.verdict == .refused, out?.kind == .createItem { out?.landing = try landing(of: id) }
    return out
  }

  /// Where a refused create stands with the row its natural key names: its read still owed, or
  /// the copy moved onto that row (the create now names the row its refusal named); nil for any
  /// other refused create.
  func landing(of id: String) throws -> Readiness.Landing? {
    if try scalar("SELECT count(*) FROM read_backs WHERE id = ? AND kind = '\(SQLite.landingKind)'", [.text(id)])
      ?? 0 > 0
    {
      return .owed
    }
    let landed =
      try scalar(
        """
        SELECT count(*) FROM queue WHERE id = ? AND json_valid(answer)
          AND json_extract(answer, '$.current.id') = item_id
        """, [.text(id)]) ?? 0
    return landed > 0 ? .landed : nil
  }

  /// Marks the write held behind another.
  func markWaiting(_ id: String) throws {
    try query("UPDATE queue SET waiting = 1 WHERE id = ?", [.text(id)])
  }

  /// Marks the write sent, before its request goes.
  ///
  /// The body and version are already as they go: queueing stored them, and an answered create
  /// moves the writes behind it onto its version (``moveOntoAnsweredCreate(item:version:)``).
  func markSent(_ id: String) throws {
    try query("UPDATE queue SET sent = 1, waiting = 0 WHERE id = ?", [.text(id)])
  }

  /// Takes back the mark ``markSent(_:)`` gave a write whose answer showed it was not taken (a
  /// redirect, never followed): the queue is as it was before the drain sent it.
  func unmarkSent(_ id: String) throws {
    sentMarkPaid(id)
    try query("UPDATE queue SET sent = 0 WHERE id = ?", [.text(id)])
  }

  /// Marks the write sent by the time the open group commits (at once when none is open): a
  /// write whose request has already gone out, whose verdict, stored in the same group as a rule,
  /// marks it sent itself.
  ///
  /// What another process reads is the same as with ``markSent(_:)``: every write whose request
  /// went out before a commit is sent in it. The write is not changed twice (its row written
  /// again, the change log given a second entry) when its verdict came first.
  func markSentByCommit(_ id: String) throws {
    guard groupStarted != nil else { return try markSent(id) }
    sentMarksOwed.append(id)
  }

  /// Forgets the mark owed to a write whose verdict, now stored, marked it sent itself: the
  /// commit then runs a statement only for the write still out (a drain's group answers nearly
  /// every write it sent).
  func sentMarkPaid(_ id: String) {
    sentMarksOwed.removeAll { $0 == id }
  }

  /// Marks sent the writes ``markSentByCommit(_:)`` left to the commit, those not already.
  func paySentMarks() throws {
    guard !sentMarksOwed.isEmpty else { return }
    let owed = sentMarksOwed
    sentMarksOwed = []
    for id in owed {
      try query("UPDATE queue SET sent = 1, waiting = 0 WHERE id = ? AND (sent = 0 OR waiting = 1)", [.text(id)])
    }
  }

  /// Records an environmental failure: the last failure, and the streak unless it was a 429
  /// or the write already met one in this drain.
  func recordEnvironmental(_ id: String, status: Int?, text: String?, addToStreak: Bool) throws {
    try query(
      """
      UPDATE queue SET last_failure_status = ?, last_failure_text = ?,
        environmental_streak = environmental_streak + ? WHERE id = ?
      """, [.of(status), .of(text.map(LastFailure.cut)), .int(addToStreak ? 1 : 0), .text(id)])
  }

  /// Clears the last failure and streak: the write was answered, refused or released.
  func clearFailure(_ id: String) throws {
    try query("UPDATE queue SET \(SQLite.failureCleared) WHERE id = ?", [.text(id)])
  }

  /// Counts one refusal; the fifth makes the write dead. Returns the new count.
  func countRefusal(_ id: String, answer: String?, now: String) throws -> Int {
    try query(
      "UPDATE queue SET refusals = MIN(refusals + 1, ?), answer = COALESCE(?, answer) WHERE id = ?",
      [.int(QueueLimits.ceiling), .of(answer), .text(id)])
    let n = try scalar("SELECT refusals FROM queue WHERE id = ?", [.text(id)]) ?? 0
    if n >= QueueLimits.ceiling {
      try query(
        "UPDATE queue SET verdict = ?, reason = NULL, answered_at = ? WHERE id = ?",
        [.text(VerdictName.dead.rawValue), .text(now), .text(id)])
    }
    return n
  }

  /// Parks every unanswered write `credential_refused`; returns how many.
  ///
  /// Writes held behind another in this pass stay held: the contract records them `blocked
  /// awaiting_dependency`, which is not unanswered.
  func parkAll(refusal: Refusal) throws -> Int {
    try query(
      "UPDATE queue SET verdict = ?, reason = ?, refusal = ? WHERE \(QueuePane.waiting.sqlTest) AND waiting = 0",
      [
        .text(VerdictName.blocked.rawValue), .text(BlockedReason.credentialRefused.rawValue),
        .text(refusal.wireJSON.text),
      ])
    return changes
  }

  /// Blocks every unanswered create naming `source`; returns their ids.
  func blockSource(_ source: String, refusal: Refusal) throws -> [String] {
    let ids = try self.ids(
      "SELECT id FROM queue WHERE \(QueuePane.waiting.sqlTest) AND kind = ? AND json_extract(payload, '$.source') = ?",
      [.text(WriteKind.createItem.rawValue), .text(source)])
    for id in ids {
      try query(
        "UPDATE queue SET verdict = ?, reason = ?, refusal = ? WHERE id = ?",
        [
          .text(VerdictName.blocked.rawValue), .text(BlockedReason.credentialRefused.rawValue),
          .text(refusal.wireJSON.text), .text(id),
        ])
    }
    return ids
  }

  /// Moves a create carrying a natural key onto the row the instance answered it with: the write
  /// and every write queued on its placeholder id (`source/source_id`) name that row from now on
  /// (an edge's ends in its body too), and the placeholder row leaves the copy.
  func land(_ w: QueuedWrite, on id: String) throws {
    guard let placeholder = w.itemId, placeholder != id else { return }
    try query("UPDATE queue SET item_id = ? WHERE item_id = ?", [.text(id), .text(placeholder)])
    try query("UPDATE queue SET target_id = ? WHERE target_id = ?", [.text(id), .text(placeholder)])
    let edges = try ids(
      """
      SELECT id FROM queue WHERE kind = \(WriteKind.createEdge.sql)
        AND (json_extract(payload, '$.source_id') = ? OR json_extract(payload, '$.target_id') = ?)
      """, [.text(placeholder), .text(placeholder)])
    for edge in edges {
      // The checksum follows the change only for a payload that was intact.
      let intact = try payloadDamage(of: edge) == nil
      for end in ["source_id", "target_id"] {
        try query(
          "UPDATE queue SET payload = json_set(payload, '$.\(end)', ?) WHERE id = ? AND json_extract(payload, '$.\(end)') = ?",
          [.text(id), .text(edge), .text(placeholder)])
      }
      if intact { try takePayloadChecksum(of: edge) }
    }
    try dropRow(kind: .item, id: placeholder)
  }

  /// Moves writes queued against a create's version 0 onto the version its answer gave.
  func moveOntoAnsweredCreate(item: String, version: Int) throws {
    // The checksum follows the change only for a payload that was intact: a damaged one stays
    // damaged, never made to look intact.
    // Most creates have nothing queued behind them on version 0: one read, and no update then.
    var behindIt = false
    var moving: [String] = []
    try query(SQLite.behindCreateSQL, [.text(item)]) { r in
      behindIt = true
      if r.text(1) == WriteKind.updateItem.rawValue, let id = r.text(0) { moving.append(id) }
    }
    guard behindIt else { return }
    var intact: [String] = []
    for id in moving where try payloadDamage(of: id) == nil { intact.append(id) }
    try query(SQLite.moveBehindCreateSQL, [.int(version), .int(version), .text(item)])
    for id in intact { try takePayloadChecksum(of: id) }
  }

  /// The writes queued on a create's version 0 (an update or a delete of its item, not sent,
  /// no verdict). Its text is made once: the read runs for every answered create.
  private static let behindCreate =
    "item_id = ? AND sent = 0 AND verdict IS NULL AND base_version = 0 AND kind IN (\(WriteKind.sqlList([.updateItem, .deleteItem])))"
  static let behindCreateSQL = "SELECT id, kind FROM queue WHERE \(behindCreate)"
  static let moveBehindCreateSQL = """
    UPDATE queue SET base_version = ?, payload = CASE WHEN kind = \(WriteKind.updateItem.sql)
      THEN json_set(payload, '$.version', ?) ELSE payload END
    WHERE \(behindCreate)
    """

  /// Takes a row the instance answered with into the copy; `text`, when given, is the row's
  /// JSON text as the instance sent it, stored instead of writing the value again.
  func takeRow(kind: RowKind, _ row: JSONValue, text: String? = nil) throws {
    guard let id = row["id"]?.stringValue else { return }
    try putRow(
      kind: kind, id: id, version: row["version"]?.intValue, state: row["state"]?.stringValue, body: row, bodyText: text
    )
  }
}
