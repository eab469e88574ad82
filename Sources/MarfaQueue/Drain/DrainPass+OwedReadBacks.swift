extension DrainPass {
  /// Makes the reads an earlier drain owes (a refused write's row it could not read back, or the
  /// row a write was answered for that it could not read again), before
  /// anything is sent. False when one cannot get through: that ends the pass before sending, the
  /// `pending` writes undelivered (the report says why).
  mutating func readOwedRows(_ owed: [(id: String, kind: RowKind, rowId: String)], pending: Int) async throws
    -> Bool
  {
    for (id, kind, rowId) in owed {
      do {
        let read = try await copy.readRow(kind: kind, id: rowId)
        try await store.run { db in
          try db.transaction(durable: false) {
            let refused = try db.write(id: id)?.verdict?.name == .refused
            try db.takeRead(read, kind: kind, id: rowId, absentLetsGo: refused)
            try db.settleReadBack(id)
          }
        }
      } catch let error as QueueError {
        // The network's failure, or an answer about another row (never taken): still owed.
        let message: String
        switch error {
        case .network(let m): message = m
        case .contractBroken(let what): message = what
        default: throw error
        }
        machine.report.undelivered = pending
        machine.report.unavailable =
          "a read owed from an earlier drain could not be made, so nothing was sent: \(message)"
        return false
      }
    }
    return true
  }
}
