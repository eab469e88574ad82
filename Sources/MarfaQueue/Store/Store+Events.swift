import FoundationEssentials

/// The events beside the drains (``StoreSchema/events``, ``QueueEvent``).
extension SQLite {
  /// Whether the store keeps events.
  func hasEvents() throws -> Bool {
    try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'events'") == 1
  }

  /// Keeps one event, in the caller's transaction, and lets go of the oldest past
  /// ``QueueEvent/kept``; nothing on a store no writer of this build has opened.
  func record(
    _ kind: QueueEvent.Kind, by: String?, count: Int? = nil, reason: String? = nil, detail: String? = nil
  ) throws {
    guard try hasEvents() else { return }
    try query(
      "INSERT INTO events (at_ms, kind, by, count, reason, detail) VALUES (?, ?, ?, ?, ?, ?)",
      [
        .int(SQLite.nowMs()), .text(kind.rawValue), .text(by ?? (try departingProcess())), .of(count), .of(reason),
        .of(detail),
      ])
    try query("DELETE FROM events WHERE n <= last_insert_rowid() - ?", [.int(QueueEvent.kept)])
  }

  /// The newest `limit` events (all when nil), at or after `sinceMs` when given, newest first.
  func events(limit: Int?, sinceMs: Int?) throws -> [QueueEvent] {
    guard try hasEvents() else { return [] }
    var out: [QueueEvent] = []
    try query(
      "SELECT n, at_ms, kind, by, count, reason, detail FROM events WHERE at_ms >= ? ORDER BY n DESC LIMIT ?",
      [.int(sinceMs ?? 0), .int(limit ?? -1)]
    ) { row in
      guard let n = row.int(0), let at = row.int(1), let kind = row.text(2).flatMap(QueueEvent.Kind.init) else {
        return
      }
      let by = row.text(3).flatMap(JSONValue.parse)
      out.append(
        QueueEvent(
          number: n, kind: kind, at: Date(timeIntervalSince1970: Double(at) / 1000),
          program: by?["program"]?.stringValue,
          mode: by?["mode"]?.stringValue, pid: by?["pid"]?.intValue, host: by?["host"]?.stringValue, count: row.int(4),
          reason: row.text(5), detail: row.text(6)))
    }
    return out
  }
}

extension SQLite {
  /// Keeps an undo of one departed write: a run of them by one process, of one departure, within
  /// a few seconds (a screen putting back a batch one write at a time) is one event, counted.
  func recordUndo(of departure: String, by: String?) throws {
    guard try hasEvents() else { return }
    let by = try by ?? departingProcess()
    let joined = try scalar(
      """
      SELECT n FROM events WHERE n = (SELECT max(n) FROM events) AND kind = ? AND detail = ? AND by = ?
        AND at_ms >= ?
      """, [.text(QueueEvent.Kind.undo.rawValue), .text(departure), .text(by), .int(SQLite.nowMs() - 5_000)])
    if let joined {
      try query("UPDATE events SET count = count + 1, at_ms = ? WHERE n = ?", [.int(SQLite.nowMs()), .int(joined)])
    } else {
      try record(.undo, by: by, count: 1, detail: departure)
    }
  }
}
