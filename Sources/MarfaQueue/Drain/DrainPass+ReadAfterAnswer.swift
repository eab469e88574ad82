extension DrainPass {
  /// How the read made after a write's successful answer ended.
  enum ReadAfterAnswer: Sendable {
    /// The row (or edge) as the instance holds it now, or that it holds none the key may read.
    case read(kind: RowKind, rowId: String, WorkingCopy.RowRead)
    /// The read met the network (or a busy instance): it is owed to the next drain, and the pass
    /// ends here; why.
    case unreached(kind: RowKind, rowId: String, why: String)
    /// No read is made: the answer carried no row, or the read was refused for another reason
    /// (the row stays as the answer carried it).
    case none

    /// Whether the read met the network, which ends the pass.
    var endsThePass: Bool {
      if case .unreached = self { return true }
      return false
    }
  }

  /// Reads again the row (or edge) a write was answered `accepted`, `merged` or `conflicted` on:
  /// the answer settles the write, and the copy holds what the instance holds now, which another
  /// writer may have changed between the answer and the read. The verdict is stored whatever the
  /// read meets, so a read that fails never sends the write again.
  mutating func readAfterAnswer(_ w: QueuedWrite, _ outcome: Outcome) async -> ReadAfterAnswer {
    guard case .success(_, let row?, _) = outcome, let rowId = row.value["id"]?.stringValue else { return .none }
    let kind = w.kind.rowKind
    var wait: Int?
    defer { noteWait(wait) }
    do {
      return .read(kind: kind, rowId: rowId, try await copy.readRow(kind: kind, id: rowId, retryAfter: &wait))
    } catch QueueError.network(let message) {
      let reached =
        message.hasPrefix("the read was answered") ? message : "the instance could not be reached: \(message)"
      return .unreached(
        kind: kind, rowId: rowId,
        why: "the row a write was answered for could not be read again (owed to the next drain): \(reached)")
    } catch {
      return .none
    }
  }

  /// Stores what the read after an answer found: the row as read, or the read owed.
  static func store(_ read: ReadAfterAnswer, of w: QueuedWrite, in db: SQLite) throws {
    switch read {
    case .read(let kind, let rowId, let found): try db.takeRead(found, kind: kind, id: rowId, absentLetsGo: false)
    case .unreached(let kind, let rowId, _): try db.oweReadBack(w.id, kind: kind, rowId: rowId)
    case .none: break
    }
  }
}

extension SQLite {
  /// Takes a row a read returned, with the writes still pending on it laid back over it. A row
  /// older than the one the copy holds (``holdsNewer(kind:than:)``) is not taken. A row the
  /// instance holds none of leaves the copy where `absentLetsGo` (the read after a refusal) unless
  /// writes still pending on it write it here; after a write the instance took, the row stays.
  func takeRead(_ read: WorkingCopy.RowRead, kind: RowKind, id: String, absentLetsGo: Bool) throws {
    switch read {
    case .row(let row):
      if try holdsNewer(kind: kind, than: row) { return }
      let pending = try pendingPayloads(kind: kind, id: id)
      guard !pending.isEmpty else { return try takeRow(kind: kind, row) }
      try takeRow(kind: kind, row.setting("properties", Self.laying(pending, over: row["properties"])))
    case .absent:
      if absentLetsGo, try pendingPayloads(kind: kind, id: id).isEmpty { try dropRow(kind: kind, id: id) }
    }
  }
}
