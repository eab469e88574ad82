/// Taking answered writes out only once they are somewhere else.
extension Queue {
  /// Clears the answered writes that may be cleared, only once `deliver` has put them somewhere
  /// safe: the writes are taken out and handed to `deliver` inside one durable transaction, which
  /// commits only when `deliver` returns; when it throws, the transaction is rolled back, the
  /// queue is as it was, and its error is thrown.
  ///
  /// The same writes as ``takeAnswered()``: never a write a waiting write depends on, a refused
  /// write that carried content, or a blocked or dead write. `deliver` runs on the store's own
  /// thread and may block (write a file, sync it); it is called once, with no writes too.
  ///
  /// - Returns: the writes taken (the ones `deliver` was given).
  public func takeAnswered(deliveringFirst deliver: @escaping @Sendable ([QueuedWrite]) throws -> Void)
    async throws -> [QueuedWrite]
  {
    try copy.requireWriter()
    let by = departingBy
    let taken = try await store.run { db in
      try db.transaction(durable: true) {
        let taken = try db.takeClearable(ids: nil, by: by)
        try deliver(taken)
        return taken
      }
    }
    if !taken.isEmpty {
      hub.send(.refreshed(.forgotten))
      await (try? copy)?.sweepBlobs()
    }
    return taken
  }
}
