import Dispatch

/// Durable calls that share one sync of the log (group commit).
extension Store {
  /// Runs `body` in a durable transaction shared with the other durable calls waiting at the
  /// time: each in its own savepoint, so one that throws fails alone, and all made durable by
  /// one synchronous=FULL commit. Returns only once that commit has synced; a commit that fails
  /// fails every call in it, and keeps none of them.
  func runDurably<T: Sendable>(_ body: @escaping @Sendable (SQLite) throws -> T) async throws -> T {
    if onStoreQueue || !sharedCommit.withLock({ $0.shared }) {
      // Already on the store's queue: no one to share with.
      return try await run { db in try db.transaction(durable: true) { try body(db) } }
    }
    return try await withCheckedThrowingContinuation { continuation in
      let result = SharedCommitResult<T>()
      let call = SharedCommit.Call(
        run: { db in
          do {
            result.value = .success(try self.mapped { try body(db) })
            return true
          } catch {
            result.value = .failure(error)
            return false
          }
        },
        answer: { failure in
          if let failure {
            continuation.resume(throwing: failure)
          } else {
            continuation.resume(with: result.value ?? .failure(QueueError.closed))
          }
        })
      let first = sharedCommit.withLock { shared -> Bool in
        shared.calls.append(call)
        defer { shared.scheduled = true }
        return !shared.scheduled
      }
      if first { queueAsync { self.commitSharedCalls() } }
    }
  }

  /// On the store's queue: commits every call waiting, in one durable transaction.
  private func commitSharedCalls() {
    let calls = sharedCommit.withLock { shared -> [SharedCommit.Call] in
      defer {
        shared.calls = []
        shared.scheduled = false
      }
      return shared.calls
    }
    guard !calls.isEmpty else { return }
    do {
      try onQueue { db in
        try db.transaction(durable: true) {
          // A call alone needs no savepoint: when it throws, the transaction is rolled back.
          if calls.count == 1 {
            if !calls[0].run(db) { throw CallFailed() }
            return
          }
          for call in calls {
            try db.query("SAVEPOINT call")
            if !call.run(db) { try db.query("ROLLBACK TO call") }
            try db.query("RELEASE call")
          }
        }
      }
    } catch is CallFailed {
      // Rolled back; the call is answered with its own error.
    } catch {
      for call in calls { call.answer(error) }
      return
    }
    for call in calls { call.answer(nil) }
  }

  /// A call alone in its commit threw: its transaction is rolled back, and it is answered with
  /// its own error.
  private struct CallFailed: Error {}
}
