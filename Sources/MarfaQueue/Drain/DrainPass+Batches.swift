extension DrainPass {
  /// Comes to every unanswered write in send order, a batch at a time: each is visited (planned,
  /// sent, settled) while the machine says send, counted by its readiness once the pass ended,
  /// and none after the pass stopped.
  mutating func sendBatches(copyInstance: String?) async throws {
    var lastSeq = 0
    batches: while true {
      let after = lastSeq
      let batch = try await store.run { try $0.unanswered(after: after, limit: 256) }
      if batch.isEmpty { break }
      for (i, (seq, w)) in batch.enumerated() {
        lastSeq = seq
        switch machine.event(.next) {
        case .stop: break batches
        case .checkReadiness: try await settleAfterEnd(w)
        default:
          try await visit(w, next: i + 1 < batch.count ? batch[i + 1].1 : nil, copyInstance: copyInstance)
        }
        try await publishProgress()
      }
    }
  }

  /// A write the pass comes to after it ended early (an environmental failure): readiness
  /// first, as for any write (contract 5): one held behind another is counted `held` and stays
  /// `waiting` (the seed: "a write held behind another that has no answer yet has `waiting` set
  /// to `true`"), one whose dependency was refused or dead is refused unsent, and only the
  /// rest are `undelivered`.
  mutating func settleAfterEnd(_ w: QueuedWrite) async throws {
    try await payOwed()
    let setAside = self.setAside
    let readiness = try await store.run { db -> Readiness? in
      guard let standing = try db.standing(of: w.id), !standing.answered else { return nil }
      let readiness = try DrainPass.readiness(w, setAside: setAside, in: db)
      if case .held = readiness { try db.markWaiting(w.id) }
      return readiness
    }
    switch readiness {
    case nil:
      count(.gone)
    case .held:
      count(.held)
    case .refusedWith(let reason):
      try await settle(w, .refusedUnsent(reason, now: Timestamp.now()))
      count(.refused)
    case .free:
      count(.undelivered)
    }
  }
}
