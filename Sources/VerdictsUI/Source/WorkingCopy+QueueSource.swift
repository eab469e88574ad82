import FoundationEssentials
import MarfaQueue

extension WorkingCopy: QueueSource {
  /// The instance's URL (never the key).
  public var instanceURL: String? { server?.url }

  public func page(_ pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder) async throws
    -> QueuePage
  {
    try await queue.page(pane, offset: offset, limit: limit, filter: filter, order: order)
  }

  public func write(_ id: String) async throws -> QueuedWrite { try await queue.write(id) }
  /// The write as the detail shows it, its answer and payload bounded.
  public func shownWrite(_ id: String) async throws -> QueuedWrite { try await queue.shownWrite(id) }
  /// How many blocked writes each reason holds, counted in the store.
  public func blockedCounts() async throws -> [BlockedReason: Int] { try await queue.blockedCounts() }
  public func history(limit: Int) async throws -> [DrainRecord] { try await history(since: nil, limit: limit) }
  public func attempts(of id: String) async throws -> WriteAttempts? { try await queue.attempts(of: id) }
  public func departedWrite(_ id: String) async throws -> DepartedWrite? { try await queue.departedWrite(id) }
  /// The write a typed ID names, asked of the store.
  public func resolveID(_ typed: String) async throws -> String { try await queue.resolveID(typed) }
  public func release(_ id: String) async throws -> Bool { try await queue.release(id) }
  public func release(reason: BlockedReason) async throws -> Int { try await queue.release(reason: reason) }
  public func release(ids: [String]) async throws -> [ReleaseOutcome] { try await queue.release(ids: ids) }
  public func withdraw(_ id: String) async throws -> Bool { try await queue.withdraw(id) }
  public func discard(_ id: String) async throws -> Bool { try await queue.discard(id) }
  public func undo(_ id: String) async throws -> UndoOutcome { try await queue.undo(id) }
  public func lastRelease() async throws -> ReleaseBatch? { try await queue.lastRelease() }
  public func undoRelease(_ batch: Int) async throws -> ReleaseUndo { try await queue.undoRelease(batch) }
  public func takeAnswered() async throws -> [QueuedWrite] { try await queue.takeAnswered() }
  public func forgetAnswered(ids: [String]) async throws -> Int { try await queue.forgetAnswered(ids: ids) }
  /// A drain whose report lists only the last verdicts (the screen shows counts and the newest):
  /// the TUI holds no entry per write of a long drain.
  public func drain() async throws -> DrainReport {
    try await queue.drain(keepingVerdicts: DrainReport.keptVerdicts)
  }

  /// Writes of a pane without bodies and answers, paged by send order.
  public func summaries(_ pane: QueuePane, cursor: Int, limit: Int) async throws -> (writes: [QueuedWrite], next: Int) {
    try await queue.summaries(pane, cursor: cursor, limit: limit)
  }

  /// A new reader of the file now at this copy's path (a reader only; never creates the file).
  public func reopen() async -> QueueSource? {
    guard !handle.isWriter else { return nil }
    return try? await WorkingCopy.openReader(store: URL(fileURLWithPath: storePath))
  }

  /// The writes changed since `mark`, from the store's change log.
  public func changed(since mark: Int?) async throws -> ChangedWrites? {
    try await queue.changed(since: mark)
  }

  /// Where a write sits, from one indexed count in the store (no paging).
  public func locate(_ id: String, filter: String?, limit: Int, order: PaneOrder) async throws -> (QueuePane, Int)? {
    try await queue.position(of: id, filter: filter, order: order).map { ($0.pane, $0.index) }
  }
}
