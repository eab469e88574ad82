extension WorkingCopy {
  /// Fills the copy from the instance: its id, the event cursor, and every item row.
  public func fill() async throws {
    try requireWriter()
    throw QueueError.noServer
  }

  /// Catches the copy up from its cursor; a `catchup_too_old` frame expires it.
  public func catchUp() async throws {
    try requireWriter()
    throw QueueError.noServer
  }

  /// While held, follows the instance's reachability and drains when it comes back, and
  /// again after a drain left a write undelivered.
  public func updates() -> AsyncStream<Update> {
    AsyncStream { $0.finish() }
  }
}
