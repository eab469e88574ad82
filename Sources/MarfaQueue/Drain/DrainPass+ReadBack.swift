extension DrainPass {
  /// Keeps the longest wait a read was asked for (`Retry-After`) in the report, capped at
  /// ``DrainReport/retryAfterCap``.
  mutating func noteWait(_ wait: Int?) {
    guard let wait else { return }
    machine.report.retryAfterSeconds = min(
      DrainReport.retryAfterCap, max(machine.report.retryAfterSeconds ?? 0, wait))
  }

  /// Puts a refused write's row back as the instance holds it; owed when the read fails. A read
  /// older than the row the copy holds (``SQLite/holdsNewer(kind:than:)``) is not taken: the copy's
  /// row stays, with what the refused edit read put back (``SQLite/putBackEditRead(_:)``).
  mutating func readBack(_ w: QueuedWrite) async throws {
    let kind = w.kind.rowKind
    guard let rowId = w.kind.rowId(item: w.itemId, edge: w.edgeId), w.kind != .uploadBlob else { return }
    var wait: Int?
    defer { noteWait(wait) }
    do {
      let read = try await copy.readRow(kind: kind, id: rowId, retryAfter: &wait)
      try await store.run { db in
        switch read {
        case .row(let row):
          if try db.holdsNewer(kind: kind, than: row) {
            try db.putBackEditRead(w)
          } else {
            try db.takeRow(kind: kind, row)
          }
        case .absent: try db.dropRow(kind: kind, id: rowId)
        }
      }
    } catch QueueError.network(let message) {
      try await store.run { db in
        try db.oweReadBack(w.id, kind: kind, rowId: rowId)
      }
      tell(.readBackFailed(why: "a refused write's row could not be read back: \(message)"))
    } catch {
      // Another refusal of the read, or an answer about another row: the row stays as the copy
      // has it.
    }
  }
}
