import FoundationEssentials

extension DrainPass {
  /// What a pass starts from once its checks passed: the instance the copy was filled from, how
  /// many writes have no verdict, and the reads an earlier drain owes.
  typealias Start = (copyInstance: String?, pending: Int, owed: [(id: String, kind: RowKind, rowId: String)])

  /// The checks before anything is sent, the queue unchanged: the fill's readiness, self-clearing
  /// blocks put back, the pass begun in the history, the instance confirmed. Nil when the pass
  /// ends here: nothing to do, or the instance could not say which it is (the report says so).
  mutating func preflight() async throws -> Start? {
    let copyInstance = try await store.run { db in
      try db.requireFilled()
      return try db.meta(.instanceId)
    }
    try await store.run { db in try db.transaction(durable: false) { try db.unblockSelfClearing() } }

    let owed = try await store.run { try $0.owedReadBacks() }
    let pendingCount = try await store.run { try $0.unansweredCount() }
    if pendingCount == 0 && owed.isEmpty { return nil }
    // A pass with something to do is kept in the history, begun now and ended by Queue.drain.
    let writer = copy.writerRecord.withLock { $0 }
    let copy = self.copy
    drainNumber = try await store.run { db in
      try copy.keepingHistory {
        try db.transaction(durable: false) { try db.beginDrainRecord(startedAt: Date(), writer: writer) }
      }
    }

    // Confirm the instance before anything is sent.
    do {
      let root = try await copy.drainStop.readRoot(copy)
      if let copyInstance, root.instanceId != copyInstance {
        try await store.run { db in try db.expireCopy(reason: "instance_changed") }
        throw QueueError.copyExpired(reason: "instance_changed")
      }
      // It answered: a record that says it was unreachable would be read beside this drain's
      // progress for as long as the pass runs (a write only when the record said otherwise).
      await copy.publishInstance(reachable: true, met: nil, nextTry: nil)
    } catch QueueError.network(let message) {
      machine.report.undelivered = pendingCount
      machine.report.unavailable = "the server could not say which instance it is, so nothing was sent: \(message)"
      return nil
    }
    return (copyInstance, pendingCount, owed)
  }
}
