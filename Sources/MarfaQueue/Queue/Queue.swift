/// The copy's queue of writes, and the calls that act on their verdicts.
public struct Queue: Sendable {
  let store: Store
  let hub: ChangeHub
  let link: WeakCopy

  init(store: Store, hub: ChangeHub, link: WeakCopy) {
    self.store = store
    self.hub = hub
    self.link = link
  }

  var copy: WorkingCopy {
    get throws {
      guard let copy = link.copy else { throw QueueError.closed }
      try copy.checkOpen()
      return copy
    }
  }

  /// Every write the queue holds, answered ones included, in send order.
  public func all() async throws -> [QueuedWrite] {
    _ = try copy
    return try await store.run { try $0.allWrites() }
  }

  /// The write with this id; throws ``QueueError/notFound(id:)`` for an id the queue doesn't hold.
  public func write(_ id: String) async throws -> QueuedWrite {
    _ = try copy
    guard let w = try await store.run({ try $0.write(id: id) }) else { throw QueueError.notFound(id: id) }
    return w
  }

  /// The write with this id as a screen shows it: its answer cut at
  /// ``QueueLimits/shownAnswer`` bytes and a payload past ``QueueLimits/shownPayload`` left
  /// out, each with its stored size (``QueuedWrite/answerBytes``, ``QueuedWrite/bodyBytes``), so
  /// a hostile store's 100 MB answer costs what its first 64 KiB do. Throws
  /// ``QueueError/notFound(id:)`` for an id the queue doesn't hold.
  public func shownWrite(_ id: String) async throws -> QueuedWrite {
    _ = try copy
    guard var w = try await store.run({ try $0.shownWrite(id: id) }) else { throw QueueError.notFound(id: id) }
    w.attempts = try await store.run { try $0.attempts(of: id) }
    return w
  }

  /// The full ID of the one write `typed` names: the full ID, the short form a list shows (with
  /// or without `…`), or a unique prefix or suffix of at least 6 characters (``WriteIDResolver``).
  ///
  /// - Throws: ``QueueError/ambiguousID(typed:matches:)`` when more than one write has it,
  ///   ``QueueError/unknownID(typed:closest:)`` when none does.
  public func resolveID(_ typed: String) async throws -> String {
    _ = try copy
    if try await store.run({ try $0.seq(of: typed) }) != nil { return typed }
    let ids = try await store.run { try $0.allIds() }
    return try WriteIDResolver(ids: ids).id(for: typed)
  }

  /// How many blocked writes each reason holds (reasons holding none are left out).
  public func blockedCounts() async throws -> [BlockedReason: Int] {
    _ = try copy
    return try await store.run { try $0.blockedCounts() }
  }

  /// How many writes each pane holds.
  public func counts() async throws -> QueueCounts {
    _ = try copy
    return try await store.run { try $0.counts() }
  }

  /// One page of a pane, in send order, read without loading the rest of the queue.
  ///
  /// - Parameters:
  ///   - pane: which pane.
  ///   - offset: the index of the first write wanted (clamped into the pane).
  ///   - limit: how many writes at most.
  ///   - filter: a substring matched against id, kind, rows, reason, status and failure text.
  ///   - order: how the pane is ordered (``PaneOrder``; send order by default).
  public func page(
    _ pane: QueuePane, offset: Int, limit: Int, filter: String? = nil, order: PaneOrder = .sendOrder
  ) async throws -> QueuePage {
    _ = try copy
    return try await store.run { try $0.page(pane, offset: offset, limit: limit, filter: filter, order: order) }
  }

  /// Up to `limit` writes of a pane in send order, without their bodies and answers (each read
  /// as empty), from `cursor` on; `next` is the cursor for the following call. Start at 0.
  ///
  /// For readers that go through a whole pane (`watch --plain`): no OFFSET to step over, no
  /// JSON body parsed per write.
  public func summaries(_ pane: QueuePane, cursor: Int, limit: Int) async throws -> (writes: [QueuedWrite], next: Int) {
    _ = try copy
    let rows = try await store.run {
      try $0.summaries(pane, after: cursor, limit: limit).map { Summary(seq: $0.0, write: $0.1) }
    }
    return (rows.map(\.write), rows.last?.seq ?? cursor)
  }

  /// The writes that changed since `mark`, from the store's change log, for readers that follow
  /// the whole queue (`watch --plain`): each call costs what changed, not the queue.
  ///
  /// Call it first with nil (before reading the queue): nothing is returned but where the log
  /// stands. Then pass each answer's `mark` to the next call; a backlog comes a page at a time,
  /// each saying whether ``ChangedWrites/more`` follows.
  ///
  /// - Returns: nil when the log cannot say what changed (a store made before it was kept, a
  ///   mark so old its entries were pruned, or more changed writes than reading the whole
  ///   queue costs): read the whole queue and call again with nil.
  public func changed(since mark: Int?) async throws -> ChangedWrites? {
    _ = try copy
    return try await store.run { try $0.changed(since: mark) }
  }

  /// Where a write sits now: its pane and its index there under the filter and `order` (the
  /// order of the pane it is in); nil when the queue no longer holds it or the filter hides it.
  public func position(
    of id: String, filter: String? = nil, order: PaneOrder = .sendOrder
  ) async throws -> (pane: QueuePane, index: Int)? {
    _ = try copy
    let found = try await store.run { db -> PanePosition? in
      try db.position(of: id, filter: filter, order: order).map { PanePosition(pane: $0.0, index: $0.1) }
    }
    return found.map { ($0.pane, $0.index) }
  }

  /// Whether `action` may take the write now and, when not, why: the write's own rule
  /// (``QueuedWrite/allows(_:)``) and the store's part of it (a waiting write depending on it
  /// refuses a discard and a forget).
  ///
  /// - Throws: ``QueueError/notFound(id:)`` for an id the queue doesn't hold.
  public func permission(_ action: WriteAction, for id: String) async throws -> ActionPermission {
    _ = try copy
    let permission = try await store.run { db -> ActionPermission? in
      try db.write(id: id).map { try db.permission(action, for: $0) }
    }
    guard let permission else { throw QueueError.notFound(id: id) }
    return permission
  }

  /// Clears the answered writes that may be cleared and returns them, in one step.
  ///
  /// Never a write a waiting write depends on, a refused write that carried content, or a
  /// blocked or dead write. Two callers never both get one write.
  public func takeAnswered() async throws -> [QueuedWrite] {
    try copy.requireWriter()
    let by = departingBy
    let taken = try await store.run { db in try db.transaction(durable: true) { try db.takeClearable(ids: nil, by: by) }
    }
    if !taken.isEmpty {
      hub.send(.refreshed(.forgotten))
      await (try? copy)?.sweepBlobs()
    }
    return taken
  }

  /// Clears every answered write that may be cleared; returns how many went.
  public func forgetAnswered() async throws -> Int {
    try copy.requireWriter()
    let by = departingBy
    let n = try await store.run { db in
      try db.transaction(durable: true) { try db.takeClearable(ids: nil, by: by).count }
    }
    if n > 0 {
      hub.send(.refreshed(.forgotten))
      await (try? copy)?.sweepBlobs()
    }
    return n
  }

  /// Clears the named answered writes that may be cleared; others are left alone and not counted.
  public func forgetAnswered(ids: [String]) async throws -> Int {
    try copy.requireWriter()
    let by = departingBy
    let n = try await store.run { db in
      try db.transaction(durable: true) { try db.takeClearable(ids: ids, by: by).count }
    }
    if n > 0 {
      hub.send(.refreshed(.forgotten))
      await (try? copy)?.sweepBlobs()
    }
    return n
  }

  /// Takes a refused write, and the content it carried, out of the queue.
  ///
  /// A write the drain refused unsent behind it is not waiting and does not keep it; once it is
  /// gone, such a write is never released (``QueuedWrite/dependencyGone``).
  ///
  /// - Returns: false for a write that isn't refused, or that a waiting write depends on.
  /// - Throws: ``QueueError/notFound(id:)`` for an id the queue doesn't hold.
  public func discard(_ id: String) async throws -> Bool {
    try copy.requireWriter()
    let by = departingBy
    let done = try await store.run { db in try db.transaction(durable: true) { try db.discard(id, by: by) } }
    if done {
      hub.send(.refreshed(.forgotten))
      await (try? copy)?.sweepBlobs()
    }
    return done
  }

  /// Sends a blocked or dead write, or one the drain refused unsent, again on the next drain,
  /// under a fresh key, with the writes the drain refused unsent because of it.
  ///
  /// - Returns: false for any write ``QueuedWrite/allows(_:)`` does not let go again: a write
  ///   the instance itself refused, one refused because what it waited for is gone, and any
  ///   write that is neither blocked, dead nor refused unsent.
  public func release(_ id: String) async throws -> Bool {
    let copy = try self.copy
    try copy.requireWriter()
    let by = departingBy
    let n = try await store.run { db in
      try db.transaction(durable: true) {
        let n = try db.release(id, instanceId: try db.meta(.instanceId), batch: try db.nextReleaseBatch())
        if n > 0 { try db.record(.release, by: by, count: n) }
        return n
      }
    }
    if n > 0 { hub.send(.refreshed(.released)) }
    return n > 0
  }

  /// Releases each of `ids` in one transaction (one sync of the store), and says for each what
  /// became of it, in the order asked: released (with how many writes went back with it), not
  /// allowed (with the obstacle ``QueuedWrite/allows(_:)`` names) or not found. A store failure
  /// releases none of them.
  public func release(ids: [String]) async throws -> [ReleaseOutcome] {
    try copy.requireWriter()
    let by = departingBy
    let outcomes = try await store.run { db in
      try db.transaction(durable: true) {
        let outcomes = try db.release(ids: ids, instanceId: try db.meta(.instanceId), batch: try db.nextReleaseBatch())
        let n = outcomes.reduce(0) { n, o in if case .released(let c) = o.result { n + c } else { n } }
        if n > 0 { try db.record(.release, by: by, count: n) }
        return outcomes
      }
    }
    if outcomes.contains(where: \.result.isReleased) { hub.send(.refreshed(.released)) }
    return outcomes
  }

  /// Releases every write blocked for `reason` (never a dead write); returns how many went back.
  public func release(reason: BlockedReason) async throws -> Int {
    try copy.requireWriter()
    let by = departingBy
    let n = try await store.run { db in
      try db.transaction(durable: true) {
        let instance = try db.meta(.instanceId)
        let batch = try db.nextReleaseBatch()
        var n = 0
        for id in try db.blocked(for: reason) { n += try db.release(id, instanceId: instance, batch: batch) }
        if n > 0 { try db.record(.release, by: by, count: n, reason: reason.wireName) }
        return n
      }
    }
    if n > 0 { hub.send(.refreshed(.released)) }
    return n
  }
}

/// A write and its send order.
struct Summary: Sendable {
  var seq: Int
  var write: QueuedWrite
}

/// A write's place in its pane.
struct PanePosition: Sendable {
  var pane: QueuePane
  var index: Int
}
