/// Reading queue rows into ``QueuedWrite`` values.
extension SQLite {
  /// The columns every queue read selects (``QueueCodec/selectList``).
  static let writeColumns = QueueCodec.selectList

  /// ``writeColumns`` without the body and the answer (each read as empty): for lines and
  /// lists that never show them, at a fraction of the cost (no JSON body parsed per write).
  static let summaryColumns = QueueCodec.summaryList

  /// Up to `limit` writes of a pane after send order `seq`, without bodies and answers; with
  /// the send order of each (keyset paging: no OFFSET to step over).
  func summaries(_ pane: QueuePane, after seq: Int, limit: Int) throws -> [(Int, QueuedWrite)] {
    let found = try rows(
      "SELECT \(SQLite.summaryColumns) FROM queue WHERE pane = ? AND seq > ? ORDER BY seq LIMIT ?",
      [.int(pane.rawValue), .int(seq), .int(max(0, limit))], reading: QueueColumn.self, QueueCodec.sequenced(from:))
    note(found.lazy.compactMap(\.1.damage).first)
    return found
  }

  /// Maps one row selected with ``writeColumns``, by column name (``QueueCodec``).
  static func write(from r: Row) -> QueuedWrite { QueueCodec.write(from: r.columns(QueueColumn.self)) }

  /// Reads the writes a statement selects with ``writeColumns`` (or ``summaryColumns``).
  func writes(_ sql: String, _ values: [SQLValue] = []) throws -> [QueuedWrite] {
    let found = try rows(sql, values, reading: QueueColumn.self, QueueCodec.write(from:))
    note(found.lazy.compactMap(\.damage).first)
    return found
  }

  /// Reads the writes a statement selects with ``QueueCodec/summaryList``, each with its
  /// payload and answer read bounded (``shown(_:seq:)``): a screen's read.
  func shownWrites(_ sql: String, _ values: [SQLValue] = []) throws -> [QueuedWrite] {
    let found = try rows(sql, values, reading: QueueColumn.self, QueueCodec.sequenced(from:))
    note(found.lazy.compactMap(\.1.damage).first)
    return found.map { shown($0.1, seq: $0.0) }
  }

  /// The write with this id as a screen (or `show`) reads it (``shownWrites(_:_:)``), or nil.
  func shownWrite(id: String) throws -> QueuedWrite? {
    try shownWrites("SELECT \(SQLite.summaryColumns) FROM queue WHERE id = ?", [.text(id)]).first
  }

  /// `w` (read without payload and answer) with them read through SQLite's incremental I/O,
  /// which reads only the pages holding the bytes asked for (a `substr()` or `length()` of a
  /// 100 MB answer loads all of it): the payload when it is at most ``QueueLimits/shownPayload``
  /// bytes (else its size, ``QueuedWrite/bodyBytes``), the answer's first
  /// ``QueueLimits/shownAnswer`` bytes (and its size when that is not all, ``QueuedWrite/answerBytes``).
  func shown(_ w: QueuedWrite, seq: Int) -> QueuedWrite {
    var w = w
    if let payload = valueStart(table: "queue", column: "payload", rowid: seq, limit: QueueLimits.shownPayload) {
      if payload.size > payload.bytes.count {
        w.bodyBytes = payload.size
      } else {
        w.body = JSONValue.parse(String(decoding: payload.bytes, as: UTF8.self)) ?? .object([])
      }
    }
    if let answer = valueStart(table: "queue", column: "answer", rowid: seq, limit: QueueLimits.shownAnswer) {
      var text = String(decoding: answer.bytes, as: UTF8.self)
      if answer.size > answer.bytes.count {
        // A character cut at the limit decodes as U+FFFD: left out, not shown as if stored.
        if text.unicodeScalars.last == "\u{FFFD}" { text.unicodeScalars.removeLast() }
        w.answerBytes = answer.size
      }
      w.answer = text
    }
    return w
  }

  /// Keeps `damage` as this connection's first, when it is.
  func note(_ damage: StoreDamage?) {
    if self.damage == nil, let damage { self.damage = damage }
  }

  /// Every write, answered ones included, in send order.
  func allWrites() throws -> [QueuedWrite] {
    try writes("SELECT \(SQLite.writeColumns) FROM queue ORDER BY seq")
  }

  /// Every write's id, in send order.
  func allIds() throws -> [String] { try ids("SELECT id FROM queue ORDER BY seq") }

  /// The ids a statement selects from the queue (its `id` column, by name).
  func ids(_ sql: String, _ values: [SQLValue] = []) throws -> [String] {
    try rows(sql, values, reading: QueueColumn.self) { $0.text(.id) ?? "" }
  }

  /// The count per blocked reason, grouped by the reason order's value (``blockedCounts()``).
  static let blockedCountsSQL =
    "SELECT \(PaneOrder.reason.sqlKey ?? "reason") AS reason, count(*) AS n FROM queue WHERE \(QueuePane.blocked.sqlTest) GROUP BY 1"

  /// How many answered writes were refused, counted along the reason order's index (its value
  /// is the verdict in Answered): the refused writes' entries alone, not the pane's.
  func refusedCount() throws -> Int {
    let key = PaneOrder.reason.sqlKey ?? "verdict"
    return try scalar(
      "SELECT count(*) FROM queue WHERE \(QueuePane.answered.sqlTest) AND \(key) = \(VerdictName.refused.sql)") ?? 0
  }

  /// How many blocked writes each reason holds (reasons holding none are left out).
  ///
  /// Counted along the reason order's index (its value is the reason in Blocked): a walk of the
  /// index alone, ~22 ms for 150,000 blocked writes, where grouping `reason` read every row
  /// (~460 ms).
  func blockedCounts() throws -> [BlockedReason: Int] {
    var counts: [BlockedReason: Int] = [:]
    try query(
      SQLite.blockedCountsSQL,
      reading: ReasonCountColumn.self
    ) { r in
      if let reason = r.text(.reason).flatMap(BlockedReason.init(rawValue:)), let n = r.int(.n), n > 0 {
        counts[reason] = n
      }
    }
    return counts
  }

  /// The write with this id, or nil.
  func write(id: String) throws -> QueuedWrite? {
    try writes("SELECT \(SQLite.writeColumns) FROM queue WHERE id = ?", [.text(id)]).first
  }

  /// The write's send order, or nil.
  func seq(of id: String) throws -> Int? {
    try rows("SELECT seq FROM queue WHERE id = ?", [.text(id)], reading: QueueColumn.self) { $0.int(.seq) }.first ?? nil
  }

  /// A meta value of this project's store.
  func meta(_ key: MetaKey) throws -> String? { try meta(named: key.rawValue) }

  /// A meta value of a Marfa core store.
  func meta(core key: CoreMetaKey) throws -> String? { try meta(named: key.rawValue) }

  private func meta(named key: String) throws -> String? {
    try rows("SELECT value FROM meta WHERE key = ?", [.text(key)], reading: MetaColumn.self) { $0.text(.value) }.first
      ?? nil
  }

  /// SQLite's `data_version`: changes whenever another connection commits.
  func dataVersion() throws -> Int { try scalar("PRAGMA data_version") ?? 0 }

  /// Sets (or, with nil, removes) a meta value.
  func setMeta(_ key: MetaKey, _ value: String?) throws {
    if let value {
      try insert([(MetaColumn.key, .text(key.rawValue)), (.value, .text(value))], or: "REPLACE")
    } else {
      try query("DELETE FROM meta WHERE key = ?", [.text(key.rawValue)])
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
    let sql =
      try hasPaneCounts() ? "SELECT pane, n FROM pane_counts" : "SELECT pane, count(*) AS n FROM queue GROUP BY pane"
    var damaged: [QueuePane] = []
    try query(sql, reading: PaneCountColumn.self) { r in
      guard let pane = r.int(.pane).flatMap(QueuePane.init(rawValue:)) else { return }
      let n = r.int(.n) ?? 0
      guard StoredRange.count.contains(n) else {
        note(SQLite.countDamage(pane, n))
        damaged.append(pane)
        return
      }
      c[pane] = n
    }
    // A kept count out of range is counted again along the pane's index.
    for pane in damaged { c[pane] = try countedPane(pane) }
    return c
  }

  /// A pane's writes counted along its index (what a kept count out of range is replaced by).
  func countedPane(_ pane: QueuePane) throws -> Int {
    try scalar("SELECT count(*) FROM queue INDEXED BY queue_pane WHERE pane = ?", [.int(pane.rawValue)]) ?? 0
  }

  /// What a kept pane count out of range says of the store.
  static func countDamage(_ pane: QueuePane, _ n: Int) -> StoreDamage {
    StoreDamage(
      place: "pane_counts.n (\(pane))", value: String(n), range: StoredRange.words(StoredRange.count),
      instead: "the pane's writes are counted instead")
  }

  /// Whether `filter`'s `status:` terms may look in the attempts: asked of the schema only when
  /// the filter names a status.
  func attemptsFor(_ filter: String?) throws -> Bool {
    guard filter?.lowercased().contains("status:") == true else { return true }
    return try hasAttempts()
  }

  /// The WHERE clause (and its values) that picks one pane under a substring filter, in a
  /// store that keeps attempts or not (`status:` looks in them when it does).
  static func paneFilter(_ pane: QueuePane, _ filter: String?, attempts: Bool) -> (String, [SQLValue]) {
    var whereClause = "pane = ?"
    var values: [SQLValue] = [.int(pane.rawValue)]
    // Plain words and field terms (`reason:key_spent`, `-kind:add_tag`, …): ``WriteFilter``.
    if let parsed = WriteFilter(filter) {
      let (clause, terms) = parsed.sql(attempts: attempts)
      whereClause += " AND " + clause
      values += terms
    }
    return (whereClause, values)
  }

  /// One page of a pane under the filter, in `order` (``PaneOrder+SQL``).
  func page(_ pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder = .sendOrder) throws
    -> QueuePage
  {
    let (whereClause, values) = SQLite.paneFilter(pane, filter, attempts: try attemptsFor(filter))
    // Unfiltered, the pane's size is kept; a filter counts what it matches.
    let total: Int
    if filter?.isEmpty ?? true, try hasPaneCounts() {
      let kept = try scalar("SELECT n FROM pane_counts WHERE pane = ?", [.int(pane.rawValue)]) ?? 0
      if StoredRange.count.contains(kept) {
        total = kept
      } else {
        note(SQLite.countDamage(pane, kept))
        total = try countedPane(pane)
      }
    } else {
      // Along `queue_pane`, whose writes are in the table's order: any other index led by the
      // pane (the orders') reads the rows in a scattered order, 3–5 times slower at 700,000.
      total = try scalar("SELECT count(*) FROM queue INDEXED BY queue_pane WHERE \(whereClause)", values) ?? 0
    }
    let start = max(0, min(offset, max(0, total - 1)))
    let limit = max(0, limit)
    // OFFSET steps over every index entry before the page: past the middle of the pane, read
    // from the end backwards (the end of Answered, where the newest answers are, costs as
    // little as its start; a page at the end of 700,000 answered writes took ~100 ms forwards).
    // Every order reads the same way along its own index, each term reversed.
    if start > total / 2 {
      let count = min(limit, total - start)
      let writes = try self.shownWrites(
        "SELECT \(SQLite.summaryColumns) FROM queue WHERE \(whereClause) ORDER BY \(order.orderBy(backwards: true)) LIMIT ? OFFSET ?",
        values + [.int(count), .int(max(0, total - start - count))])
      return QueuePage(pane: pane, offset: start, writes: writes.reversed(), total: total)
    }
    let writes = try self.shownWrites(
      "SELECT \(SQLite.summaryColumns) FROM queue WHERE \(whereClause) ORDER BY \(order.orderBy()) LIMIT ? OFFSET ?",
      values + [.int(limit), .int(start)])
    return QueuePage(pane: pane, offset: start, writes: writes, total: total)
  }

  /// Where a write sits: its pane and its index there under the filter and `order`, or nil.
  func position(of id: String, filter: String?, order: PaneOrder = .sendOrder) throws -> (QueuePane, Int)? {
    guard let seq = try seq(of: id), let w = try write(id: id) else { return nil }
    let (clause, values) = SQLite.paneFilter(w.pane, filter, attempts: try attemptsFor(filter))
    guard try scalar("SELECT count(*) FROM queue WHERE \(clause) AND id = ?", values + [.text(id)]) == 1 else {
      return nil
    }
    let (before, keys) = order.before(key: order.key(of: w), seq: seq)
    let index = try scalar("SELECT count(*) FROM queue WHERE \(clause) AND \(before)", values + keys) ?? 0
    return (w.pane, index)
  }

}
