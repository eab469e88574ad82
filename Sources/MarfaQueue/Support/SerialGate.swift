/// Runs async work one at a time, in arrival order.
actor SerialGate {
  private var busy = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Runs `body` once every earlier caller has finished.
  func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
    if busy {
      await withCheckedContinuation { waiters.append($0) }
    }
    busy = true
    defer {
      if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    }
    return try await body()
  }
}
