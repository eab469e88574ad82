extension Queue {
  /// The write's place in send order: a cursor ``summaries(_:cursor:limit:)`` takes to start
  /// after it (`watch --plain --from ID`).
  ///
  /// - Throws: ``QueueError/notFound(id:)`` for an id the queue doesn't hold.
  public func sendOrder(of id: String) async throws -> Int {
    _ = try copy
    guard let seq = try await store.run({ try $0.seq(of: id) }) else { throw QueueError.notFound(id: id) }
    return seq
  }
}
