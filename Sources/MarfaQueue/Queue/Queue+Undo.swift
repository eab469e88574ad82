import FoundationEssentials

/// The departed writes: listed, found by id, put back.
extension Queue {
  /// The writes that left the queue and the archive still keeps, newest departure first: at
  /// most `limit` (all when nil), only those that left at or after `since` when given.
  public func departed(limit: Int? = nil, since: Date? = nil) async throws -> [DepartedWrite] {
    _ = try copy
    let sinceMs = since.map { Int(($0.timeIntervalSince1970 * 1000).rounded(.down)) }
    return try await store.run { try $0.departed(limit: limit, sinceMs: sinceMs) }
  }

  /// The newest departure of the write `id`, or nil when the archive keeps none.
  public func departedWrite(_ id: String) async throws -> DepartedWrite? {
    _ = try copy
    return try await store.run { try $0.departed(limit: 1, id: id).first }
  }

  /// The full ID of the one departed write `typed` names, as ``resolveID(_:)`` does for the
  /// queue's writes.
  public func resolveDepartedID(_ typed: String) async throws -> String {
    _ = try copy
    let ids = try await store.run { try $0.departedIds() }
    if ids.contains(typed) { return typed }
    return try WriteIDResolver(ids: ids).id(for: typed)
  }

  /// This process as the writer record names it (program, mode, pid, host), for the archive's
  /// `departed_by`; nil before the copy has a record (the store then names the process itself).
  var departingBy: String? {
    guard let copy = try? self.copy, let r = copy.writerRecord.withLock({ $0 }) else { return nil }
    return SQLite.departedBy(program: r.program, mode: r.mode, pid: Int(r.pid), host: r.host)
  }

  /// The newest release this store keeps what it replaced of (a release of one write, of a
  /// batch of ids, or of a reason), for ``undoRelease(_:)``; nil when none is kept.
  public func lastRelease() async throws -> ReleaseBatch? {
    _ = try copy
    return try await store.run { try $0.lastRelease() }
  }

  /// Lays each write of release `batch` back exactly as it was before the release (its verdict,
  /// reason, refusals, streak, last failure and key), where nothing was sent since; a write
  /// sent, answered or gone since is left as it is and named. One durable transaction; tells
  /// every stream `.refreshed(.restored)` when any came back.
  public func undoRelease(_ batch: Int) async throws -> ReleaseUndo {
    let copy = try self.copy
    try copy.requireWriter()
    let by = departingBy
    let undo = try await store.run { db in
      try db.transaction(durable: true) {
        let undo = try db.undoRelease(batch)
        if !undo.restored.isEmpty || !undo.changedSince.isEmpty {
          try db.record(
            .undoRelease, by: by, count: undo.restored.count,
            detail: undo.changedSince.isEmpty ? nil : "\(undo.changedSince.count) went out since, left as they are")
        }
        return undo
      }
    }
    if !undo.restored.isEmpty { hub.send(.refreshed(.restored)) }
    return undo
  }

  /// Puts a discarded, forgotten or taken write back exactly as it was, in its place in the send
  /// order, when nothing since makes that wrong; a withdrawn write is never put back
  /// (``UndoObstacle``). One durable transaction; tells every stream `.refreshed(.restored)`.
  ///
  /// - Throws: ``QueueError/notFound(id:)`` when the archive keeps no departure of `id`.
  public func undo(_ id: String) async throws -> UndoOutcome {
    let copy = try self.copy
    try copy.requireWriter()
    let by = departingBy
    let outcome = try await store.run { db in
      try db.transaction(durable: true) {
        let outcome = try db.undo(id)
        if case .restored(let kept) = outcome { try db.recordUndo(of: kept.departure.rawValue, by: by) }
        return outcome
      }
    }
    if case .restored = outcome { hub.send(.refreshed(.restored)) }
    return outcome
  }
}
