import FoundationEssentials

/// The archive of departed writes (``StoreSchema/archive``): kept whole when they leave, listed,
/// put back by an undo, pruned by ``ArchiveLimits``.
extension SQLite {
  /// The queue columns a departed write's row keeps: every column but the generated pane.
  static let archivedColumns = QueueColumn.allCases.filter { $0 != .pane }

  /// The queue row `q` as one JSON object of every column.
  static let archivedRow =
    "json_object(" + archivedColumns.map { "'\($0.name)', q.\($0.name)" }.joined(separator: ", ") + ")"

  /// The archived row of `a` read back under the queue's own column names (``QueueCodec``).
  static let archivedSelect = archivedColumns.map { "json_extract(a.row, '$.\($0.name)') AS \($0.name)" }
    .joined(separator: ", ")

  /// Whether the store keeps departed writes.
  func hasArchive() throws -> Bool {
    try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'archive'") == 1
  }

  /// The process taking writes out, as the archive names it, when the queue did not say
  /// (``Queue/departingBy``): its program, pid and host.
  func departingProcess() throws -> String {
    let info = ProcessInfo.processInfo
    return SQLite.departedBy(
      program: info.processName, mode: nil, pid: Int(info.processIdentifier), host: info.hostName)
  }

  /// Who took writes out, as the archive's `departed_by` keeps it.
  static func departedBy(program: String, mode: String?, pid: Int, host: String) -> String {
    JSONValue.object([
      ("program", .string(program)), ("mode", mode.map(JSONValue.string) ?? .null), ("pid", .int(pid)),
      ("host", .string(host)),
    ]).text
  }

  /// Keeps the write `id` whole in the archive, before it is deleted: its row, its dependency
  /// rows, the writes its departure marked (`marked`), when and by whom. Nothing when the store
  /// keeps no archive (a store no writer of this build has opened).
  func archive(_ id: String, as departure: Departure, marked: [String], by: String, nowMs: Int) throws {
    guard try hasArchive() else { return }
    try query(
      """
      INSERT INTO archive (\(ArchiveColumn.list([.id, .event, .departedAtMs, .departedBy, .seq, .lastSeq, .itemId, .edgeId, .blob, .deps, .marked, .row])))
      SELECT q.id, ?, ?, ?, q.seq, (SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'queue'), (SELECT max(seq) FROM queue), 0)), q.item_id, q.edge_id, q.blob,
        (SELECT json_group_array(on_id) FROM queue_deps WHERE id = q.id), ?, \(SQLite.archivedRow)
      FROM queue q WHERE q.id = ?
      """,
      [.text(departure.rawValue), .int(nowMs), .text(by), .text(QueueCodec.stored(marked)), .text(id)])
    try query(
      """
      UPDATE archive SET bytes = length(CAST(row AS BLOB)) + length(CAST(deps AS BLOB))
        + length(CAST(marked AS BLOB)) + length(CAST(coalesce(departed_by, '') AS BLOB)) + 64
      WHERE n = last_insert_rowid()
      """)
  }

  /// Prunes the archive to `limits`, in the writer's transaction that archived: the oldest
  /// departures until the rest fits the bytes (the newest departure is kept whatever its size),
  /// then those whose age the archive itself witnessed is past the limit.
  ///
  /// The wall clock is never taken at its word (docs/rules.md, "The archive and the clock"): a
  /// departure's age is the sum of the steps from it to each later departure and on to `nowMs`,
  /// each step counted from 0 (a clock gone back, a departure stamped in the future) up to
  /// ``ArchiveLimits/maxStepMilliseconds`` (a clock that leapt a year counts a week). Before
  /// ``ArchiveLimits/clockFloorMilliseconds`` (a 1970 boot) nothing is pruned by age at all.
  func pruneArchive(_ limits: ArchiveLimits = .standard, nowMs: Int) throws {
    guard try hasArchive() else { return }
    try query(
      """
      DELETE FROM archive WHERE n < (SELECT max(n) FROM archive) AND n <= (
        SELECT coalesce(max(n), 0) FROM (SELECT n, sum(bytes) OVER (ORDER BY n DESC) AS total FROM archive)
        WHERE total > ?)
      """, [.int(limits.maxBytes)])
    guard nowMs >= limits.clockFloorMilliseconds else { return }
    try query(
      """
      DELETE FROM archive WHERE n <= (
        SELECT coalesce(max(n), 0) FROM (
          SELECT n, sum(step) OVER (ORDER BY n DESC) AS witnessed FROM (
            SELECT n, min(max(coalesce(lead(departed_at_ms) OVER (ORDER BY n), ?) - departed_at_ms, 0), ?) AS step
            FROM archive))
        WHERE witnessed > ?)
      """, [.int(nowMs), .int(limits.maxStepMilliseconds), .int(limits.maxAgeMilliseconds)])
  }

  /// The departed writes, newest departure first, at most `limit` (all when nil), left after
  /// `sinceMs` when given.
  func departed(limit: Int?, sinceMs: Int? = nil, id: String? = nil) throws -> [DepartedWrite] {
    guard try hasArchive() else { return [] }
    var conditions: [String] = []
    var values: [SQLValue] = []
    if let sinceMs {
      conditions.append("a.departed_at_ms >= ?")
      values.append(.int(sinceMs))
    }
    if let id {
      conditions.append("a.id = ?")
      values.append(.text(id))
    }
    let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    var out: [DepartedWrite] = []
    try query(
      """
      SELECT a.n AS n, a.event AS event, a.departed_at_ms AS departed_at_ms, a.departed_by AS departed_by,
        a.bytes AS bytes, \(SQLite.archivedSelect)
      FROM archive a \(whereClause) ORDER BY a.n DESC\(limit.map { " LIMIT \($0)" } ?? "")
      """, values, reading: ArchiveColumn.self, and: QueueColumn.self
    ) { a, q in
      let (seq, write) = QueueCodec.sequenced(from: q)
      var damage = write.damage
      let at =
        StoredRange.read(
          a.int(.departedAtMs), StoredRange.epochMilliseconds, clamping: true, place: "archive.departed_at_ms",
          damage: &damage) ?? 0
      let bytes =
        StoredRange.read(a.int(.bytes), StoredRange.count, clamping: true, place: "archive.bytes", damage: &damage)
        ?? 0
      let by = a.text(.departedBy).flatMap(JSONValue.parse)
      let pid = by?["pid"]?.intValue.flatMap {
        StoredRange.read($0, StoredRange.pid, clamping: false, place: "archive.departed_by.pid", damage: &damage)
      }
      var kept = write
      kept.damage = damage
      out.append(
        DepartedWrite(
          write: kept, departure: a.text(.event).flatMap(Departure.init(rawValue:)) ?? .forgotten,
          departedAt: Date(timeIntervalSince1970: Double(at) / 1000), program: by?["program"]?.stringValue,
          mode: by?["mode"]?.stringValue, pid: pid, host: by?["host"]?.stringValue, bytes: bytes, seq: seq))
    }
    return out
  }

  /// The ids the archive holds, newest departure first (for resolving a typed id).
  func departedIds() throws -> [String] {
    guard try hasArchive() else { return [] }
    return try ids("SELECT id FROM archive GROUP BY id ORDER BY max(n) DESC")
  }

  /// Puts the newest departure of `id` back into the queue exactly as it was (every column, its
  /// place in the send order, its dependency rows, and the writes its discard marked unmarked),
  /// when nothing since makes that wrong (``UndoObstacle``); run inside a durable transaction.
  ///
  /// - Throws: ``QueueError/notFound(id:)`` when the archive holds no departure of `id`.
  func undo(_ id: String) throws -> UndoOutcome {
    guard let kept = try departed(limit: 1, id: id).first else { throw QueueError.notFound(id: id) }
    if try seq(of: id) != nil { return .refused(.inQueue) }
    if kept.departure == .withdrawn { return .refused(.withdrawn) }
    let w = kept.write
    // A write queued after it left, on the same row, still in the queue or gone since.
    // Checked as every number read from a store (``StoredRange``); out of range reads as 0: every
    // later write then counts as queued since, and the undo is refused rather than wrong.
    var damage: StoreDamage?
    let storedLastSeq = try scalar(
      "SELECT last_seq FROM archive WHERE n = (SELECT max(n) FROM archive WHERE id = ?)", [.text(id)])
    let lastSeq =
      StoredRange.read(storedLastSeq, StoredRange.count, clamping: false, place: "archive.last_seq", damage: &damage)
      ?? 0
    let sameRow: [(String, String?)] = [("item_id", w.itemId), ("edge_id", w.edgeId), ("blob", w.blob)]
    for (column, value) in sameRow {
      guard let value else { continue }
      let since = try ids(
        """
        SELECT id FROM (SELECT id, seq FROM queue WHERE \(column) = ? AND seq > ?
          UNION ALL SELECT id, seq FROM archive WHERE \(column) = ? AND seq > ?) ORDER BY seq LIMIT 1
        """, [.text(value), .int(max(lastSeq, kept.seq)), .text(value), .int(max(lastSeq, kept.seq))])
      if let other = since.first { return .refused(.queuedSince(id: other)) }
    }
    // A write that could still be sent must find what it waits on.
    let name = w.verdict?.name
    let mayGo = name == nil || name == .blocked || name == .dead || (name == .refused && !w.sent && !w.dependencyGone)
    let n = try scalar("SELECT max(n) FROM archive WHERE id = ?", [.text(id)]) ?? 0
    if mayGo {
      for dep in w.dependsOn + (w.follows.map { [$0] } ?? []) where try seq(of: dep) == nil {
        let left = try scalar("SELECT count(*) FROM archive WHERE id = ? AND n > ?", [.text(dep), .int(n)]) ?? 0
        if left > 0 { return .refused(.dependencyLeft(id: dep)) }
      }
    }
    let columns = QueueColumn.list(SQLite.archivedColumns)
    try query(
      "INSERT INTO queue (\(columns)) SELECT \(SQLite.archivedSelect) FROM archive a WHERE a.n = ?",
      [.int(n)])
    try query(
      "INSERT OR IGNORE INTO queue_deps (id, on_id) SELECT ?, value FROM json_each((SELECT deps FROM archive WHERE n = ?))",
      [.text(id), .int(n)])
    try query(
      """
      UPDATE queue SET withdrawn_dependency = 0 WHERE withdrawn_dependency = 1
        AND id IN (SELECT value FROM json_each((SELECT marked FROM archive WHERE n = ?)))
      """, [.int(n)])
    try query("DELETE FROM archive WHERE n = ?", [.int(n)])
    return .restored(kept)
  }
}
