extension Queue {
  /// The write's kept attempts, newest first, and how many older ones were let go
  /// (``WriteAttempt/kept`` a write); none for a write never sent.
  public func attempts(of id: String) async throws -> WriteAttempts {
    _ = try copy
    return try await store.run { try $0.attempts(of: id) }
  }

  /// Every write's kept attempts, by id (writes never sent are left out): what `queue --json` carries.
  public func allAttempts() async throws -> [String: WriteAttempts] {
    _ = try copy
    return try await store.run { try $0.allAttempts() }
  }
}
