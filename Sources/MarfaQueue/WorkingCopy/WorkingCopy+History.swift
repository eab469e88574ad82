import FoundationEssentials

extension WorkingCopy {
  /// The drains the store keeps (the last ``DrainRecord/kept``), newest first: those begun at
  /// or after `since`, at most `limit`; `answering`: only those that answered a write.
  /// Empty for a store of an earlier build no writer has opened since.
  ///
  /// A drain with no end is told ``DrainRecord/Ending/cutShort`` (its process ended first:
  /// killed, crashed, the machine stopped; the counts are those of its last commit) unless it
  /// may still run: the newest drain, while a live writer holds the role and its record names
  /// that drain's process (or names none).
  public func history(since: Date? = nil, limit: Int? = nil, answering: Bool = false) async throws -> [DrainRecord] {
    try checkOpen()
    let held = store.writerIsLive()
    let live = held ? try await writer() : nil
    let records = try await store.run { try $0.drainHistory(since: since, limit: limit, answering: answering) }
    return records.map { record in
      guard record.ending == .open, record.endedAt == nil else { return record }
      var running = held && record.number == records.first?.number
      if running, let live, live.state == .live, live.pid > 0 {
        running = Int(live.pid) == record.pid && live.host == record.host
      }
      if running { return record }
      var cut = record
      cut.ending = .cutShort
      return cut
    }
  }

  /// The events beside the drains (releases, undos, keys given, fills, the instance changing),
  /// newest first: those at or after `since`, at most `limit` (``QueueEvent/kept`` are kept).
  /// Empty for a store of an earlier build no writer has opened since.
  public func events(since: Date? = nil, limit: Int? = nil) async throws -> [QueueEvent] {
    try checkOpen()
    let sinceMs = since.map { Int(($0.timeIntervalSince1970 * 1000).rounded(.down)) }
    return try await store.run { try $0.events(limit: limit, sinceMs: sinceMs) }
  }

  /// Whether drains keep each write's attempts and a history row (on unless a measurement turns
  /// it off: `verdicts-bench drain`).
  package var keepsHistory: Bool {
    get { historyKept.withLock { $0 } }
    set { historyKept.withLock { $0 = newValue } }
  }

  /// Time this copy's drains spent keeping attempts and history rows, and how many rows they wrote.
  package var historyKeeping: (time: Duration, writes: Int) { historySpent.withLock { $0 } }

  /// Runs `body` (a write of the history), timed into ``historyKeeping``; skipped when off.
  func keepingHistory<T>(_ body: () throws -> T?) rethrows -> T? {
    guard historyKept.withLock({ $0 }) else { return nil }
    let start = ContinuousClock.now
    let result = try body()
    let spent = ContinuousClock.now - start
    historySpent.withLock {
      $0.time += spent
      $0.writes += 1
    }
    return result
  }
}
