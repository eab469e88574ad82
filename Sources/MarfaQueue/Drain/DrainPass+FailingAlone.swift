extension DrainPass {
  /// Blocks `failingAlone` the set-aside writes whose streak reached the mark, when the instance
  /// answered others in this pass (the machine says which).
  mutating func blockFailingAlone() async throws {
    guard case .blockFailingAlone(let ids) = machine.event(.exhausted) else { return }
    for id in ids {
      guard let w = setAsideWrites[id] else { continue }
      let now = Timestamp.now()
      try await store.run { db in
        try db.transaction(durable: false) {
          try db.recordVerdict(
            id: id, verdict: .blocked(reason: .failingAlone, refusal: nil), sent: true, answer: nil, now: now)
        }
      }
      record(DrainPass.listing(w, .blocked(reason: .failingAlone, refusal: nil)))
    }
  }
}
