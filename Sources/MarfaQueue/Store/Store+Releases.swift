import FoundationEssentials

/// What a release replaced (``StoreSchema/releases``): kept so that an undo right after can lay
/// each write back as it was, while nothing was sent since.
extension SQLite {
  /// Whether the store keeps what releases replaced.
  func hasReleases() throws -> Bool {
    try scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'releases'") == 1
  }

  /// The number the next release call's writes are kept under; drops the batches past
  /// ``StoreSchema/releasesKept``. Nil when the store keeps none (a store no writer of this
  /// build has opened).
  func nextReleaseBatch() throws -> Int? {
    guard try hasReleases() else { return nil }
    let next = (try scalar("SELECT coalesce(max(batch), 0) FROM releases") ?? 0) + 1
    try query("DELETE FROM releases WHERE batch <= ?", [.int(next - StoreSchema.releasesKept)])
    return next
  }

  /// Keeps the write `id` as it is now under `batch`, before a release gives it `key`.
  func keepBeforeRelease(_ id: String, batch: Int, key: String, nowMs: Int) throws {
    try query(
      """
      INSERT INTO releases (batch, id, released_at_ms, key, row)
      SELECT ?, q.id, ?, ?, \(SQLite.archivedRow) FROM queue q WHERE q.id = ?
      """, [.int(batch), .int(nowMs), .text(key), .text(id)])
  }

  /// The newest release batch: its number and its writes' ids, in send order; nil when none is kept.
  func lastRelease() throws -> ReleaseBatch? {
    guard try hasReleases(), let batch = try scalar("SELECT max(batch) FROM releases") else { return nil }
    let ids = try self.ids(
      "SELECT r.id FROM releases r LEFT JOIN queue q ON q.id = r.id WHERE r.batch = ? ORDER BY q.seq", [.int(batch)])
    return ReleaseBatch(number: batch, ids: ids)
  }

  /// Lays each write of release `batch` back as it was before the release, where it is still
  /// unsent under the key the release gave it; run inside a durable transaction. A write sent or
  /// changed since stays as it is, named in ``ReleaseUndo/changedSince``.
  func undoRelease(_ batch: Int) throws -> ReleaseUndo {
    guard try hasReleases() else { return ReleaseUndo(restored: [], changedSince: []) }
    var kept: [(n: Int, id: String, unsent: Bool)] = []
    try query(
      """
      SELECT r.n, r.id, coalesce(q.idempotency_key = r.key AND q.sent = 0 AND q.verdict IS NULL, 0)
      FROM releases r LEFT JOIN queue q ON q.id = r.id WHERE r.batch = ? ORDER BY r.n
      """, [.int(batch)]
    ) { row in
      if let n = row.int(0), let id = row.text(1) { kept.append((n, id, row.int(2) == 1)) }
    }
    var undo = ReleaseUndo(restored: [], changedSince: [])
    let assignments = SQLite.archivedColumns.filter { $0 != .id }
      .map { "\($0.name) = json_extract((SELECT row FROM releases WHERE n = ?1), '$.\($0.name)')" }
      .joined(separator: ", ")
    for w in kept {
      if w.unsent {
        try query("UPDATE queue SET \(assignments) WHERE id = ?2", [.int(w.n), .text(w.id)])
        undo.restored.append(w.id)
      } else {
        undo.changedSince.append(w.id)
      }
      try query("DELETE FROM releases WHERE n = ?", [.int(w.n)])
    }
    return undo
  }
}
