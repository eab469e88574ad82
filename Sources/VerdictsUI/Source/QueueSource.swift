import MarfaQueue

/// What the UI needs of a working copy. `WorkingCopy` conforms; tests use an in-memory queue.
///
/// Kept small and in VerdictsUI so the UI depends only on MarfaQueue's public calls.
public protocol QueueSource: Sendable {
  /// Whether this process writes the store or only reads it.
  var handle: Handle { get }
  /// The instance's URL (never the key).
  var instanceURL: String? { get }
  /// One page of a pane under the filter, in `order` (``PaneOrder``).
  func page(_ pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder) async throws -> QueuePage
  /// The copy's status.
  func status() async throws -> Status
  /// One write by id.
  func write(_ id: String) async throws -> QueuedWrite
  /// One write by id as the detail shows it: a huge answer or payload cut, its size said
  /// (``Queue/shownWrite(_:)``).
  func shownWrite(_ id: String) async throws -> QueuedWrite
  func release(_ id: String) async throws -> Bool
  func release(reason: BlockedReason) async throws -> Int
  /// Releases each of `ids`, saying for each what became of it, in the order asked
  /// (``Queue/release(ids:)``: a working copy does it in one transaction).
  func release(ids: [String]) async throws -> [ReleaseOutcome]
  func withdraw(_ id: String) async throws -> Bool
  func discard(_ id: String) async throws -> Bool
  func takeAnswered() async throws -> [QueuedWrite]
  func forgetAnswered(ids: [String]) async throws -> Int
  /// Puts a discarded, forgotten or taken write back (``Queue/undo(_:)``).
  func undo(_ id: String) async throws -> UndoOutcome
  /// The newest release the store keeps what it replaced of (``Queue/lastRelease()``); nil
  /// when none, or the source keeps none.
  func lastRelease() async throws -> ReleaseBatch?
  /// Lays the writes of release `batch` back as they were (``Queue/undoRelease(_:)``).
  func undoRelease(_ batch: Int) async throws -> ReleaseUndo
  func drain() async throws -> DrainReport
  func useKey(_ key: String) async throws
  /// Reads the copy again from the instance, its queue kept (``WorkingCopy/fill()``): what a
  /// copy that expired or whose fill was interrupted needs before it drains.
  func fill() async throws
  /// Every change from now on.
  func changes() -> AsyncStream<Change>
  /// While held, drains when the instance comes back and after an undelivered drain.
  func updates() -> AsyncStream<Update>
  /// Up to `limit` writes of a pane from `cursor` (0 to start), bodies and answers left out
  /// where the source can; `next` is the cursor for the following call.
  func summaries(_ pane: QueuePane, cursor: Int, limit: Int) async throws -> (writes: [QueuedWrite], next: Int)
  /// Where a write sits now: its pane and its index there under the filter and `order`, nil
  /// when it left.
  func locate(_ id: String, filter: String?, limit: Int, order: PaneOrder) async throws -> (QueuePane, Int)?
  /// The writes changed since `mark` (nil: none, and where the log stands), or nil when the
  /// source cannot say and the whole queue must be read (``Queue/changed(since:)``).
  func changed(since mark: Int?) async throws -> ChangedWrites?
  /// Who holds the writer role and whether it is alive (``WorkingCopy/writer()``); nil when
  /// the source cannot say.
  func writer() async throws -> WriterRecord?
  /// When the store's last drain ended (ISO-8601), nil when none was kept or the source cannot say.
  func lastDrainEndedAt() async throws -> String?
  /// The drains the store keeps, newest first, at most `limit` (``WorkingCopy/history(since:limit:answering:)``);
  /// none when the source keeps none.
  func history(limit: Int) async throws -> [DrainRecord]
  /// A write's kept attempts, newest first (``Queue/attempts(of:)``); nil when the source keeps none.
  func attempts(of id: String) async throws -> WriteAttempts?
  /// A write that left the queue as the archive keeps it (who took it out, how); nil when the
  /// source keeps no archive or no longer holds it.
  func departedWrite(_ id: String) async throws -> DepartedWrite?
  /// Whether the store file the source opened is still the one at its path.
  func storeFileState() -> StoreFileState
  /// One element each time the store's files are touched in a way that may change the writer or
  /// the file (``WorkingCopy/storeFileEvents()``); nil when the source cannot say (then the
  /// watcher asks every second).
  func storeFileEvents() -> AsyncStream<Void>?
  /// A fresh reader of the file now at the source's path, to be read from the start (a watcher
  /// follows a store replaced under it); nil when the source cannot (a writer, nothing readable
  /// there yet). Creates and writes nothing.
  func reopen() async -> QueueSource?
  /// Lets go of the store and ends every stream (a source replaced by ``reopen()``).
  func close()
  /// Sentences about the link to a store on another machine (lost, back), as they happen; nil
  /// for a store on this machine.
  func linkNotices() -> AsyncStream<String>?
  /// Whether a page's writes come without their bodies and answers (a store on another machine:
  /// the rows a pane shows cross the link as summaries), so the detail reads its write whole.
  var pagesAreSummaries: Bool { get }
}

extension QueueSource {
  /// A source that keeps no releases offers none to undo.
  public func lastRelease() async throws -> ReleaseBatch? { nil }
  public func undoRelease(_ batch: Int) async throws -> ReleaseUndo { ReleaseUndo(restored: [], changedSince: []) }
}

extension QueueSource {
  /// One page of a pane under the filter, in send order.
  public func page(_ pane: QueuePane, offset: Int, limit: Int, filter: String?) async throws -> QueuePage {
    try await page(pane, offset: offset, limit: limit, filter: filter, order: .sendOrder)
  }

  /// Where a write sits now under the filter, in send order (``locate(_:filter:limit:order:)``).
  public func locate(_ id: String, filter: String?, limit: Int = 200_000) async throws -> (QueuePane, Int)? {
    try await locate(id, filter: filter, limit: limit, order: .sendOrder)
  }

  /// Where a write sits now, each pane in its own order (`orders`, by pane; send order for a
  /// pane not named): the pane first, then the index in that pane's order.
  public func locate(_ id: String, filter: String?, limit: Int, orders: [QueuePane: PaneOrder]) async throws -> (
    QueuePane, Int
  )? {
    guard let found = try await locate(id, filter: filter, limit: limit, order: .sendOrder) else { return nil }
    let order = orders[found.0] ?? .sendOrder
    if order == .sendOrder { return found }
    return try await locate(id, filter: filter, limit: limit, order: order)
  }

  /// No drains: a source that keeps no history (the Marfa core's store, a test's queue).
  public func history(limit: Int) async throws -> [DrainRecord] { [] }

  /// No attempts: a source that keeps none.
  public func attempts(of id: String) async throws -> WriteAttempts? { nil }

  /// No archive: a source that keeps none.
  public func departedWrite(_ id: String) async throws -> DepartedWrite? { nil }

  /// How many blocked writes each reason holds: by default by reading the Blocked pane through;
  /// a working copy counts in the store.
  public func blockedCounts() async throws -> [BlockedReason: Int] {
    var counts: [BlockedReason: Int] = [:]
    var cursor = 0
    while true {
      let (writes, next) = try await summaries(.blocked, cursor: cursor, limit: 2_000)
      for w in writes { if let r = w.verdict?.blockedReason { counts[r, default: 0] += 1 } }
      if writes.count < 2_000 || next == cursor { break }
      cursor = next
    }
    return counts
  }

  /// The full ID of the one write `typed` names (``WriteIDResolver``): by default over the ids
  /// of every pane; a working copy asks its store.
  public func resolveID(_ typed: String) async throws -> String {
    var ids: [String] = []
    for pane in QueuePane.allCases { ids += try await self.ids(in: pane, filter: nil) }
    return try WriteIDResolver(ids: ids).id(for: typed)
  }

  /// Where a write sits now: its pane and its index there under the filter and `order`, nil
  /// when it left.
  ///
  /// By default, pages through the pane up to `limit` writes; a working copy asks the store.
  public func locate(_ id: String, filter: String?, limit: Int, order: PaneOrder) async throws -> (QueuePane, Int)? {
    let w: QueuedWrite
    do { w = try await write(id) } catch QueueError.notFound { return nil }
    let pane = w.pane
    var offset = 0
    let step = 2_000
    while offset < limit {
      let page = try await self.page(pane, offset: offset, limit: step, filter: filter, order: order)
      if let i = page.writes.firstIndex(where: { $0.id == id }) { return (pane, page.offset + i) }
      if page.writes.count < step { return nil }
      offset += step
    }
    return nil
  }

  /// By default, one release after another, each answered from the write as read again.
  public func release(ids: [String]) async throws -> [ReleaseOutcome] {
    var outcomes: [ReleaseOutcome] = []
    for id in ids {
      if try await release(id) {
        outcomes.append(ReleaseOutcome(id: id, result: .released(count: 1)))
      } else if let w = try? await write(id) {
        let obstacle = w.allows(.release).obstacle ?? .notFor(.release, state: w.stateWords)
        outcomes.append(ReleaseOutcome(id: id, result: .notAllowed(obstacle)))
      } else {
        outcomes.append(ReleaseOutcome(id: id, result: .notFound))
      }
    }
    return outcomes
  }

  /// By default the write as it is.
  public func shownWrite(_ id: String) async throws -> QueuedWrite { try await write(id) }

  /// By default the source publishes no writer.
  public func writer() async throws -> WriterRecord? { nil }

  /// By default the source keeps no drain report.
  public func lastDrainEndedAt() async throws -> String? { nil }

  /// By default the source cannot say when its files are touched.
  public func storeFileEvents() -> AsyncStream<Void>? { nil }

  /// By default the source cannot open its path again.
  public func reopen() async -> QueueSource? { nil }

  /// By default there is nothing to let go of.
  public func close() {}

  /// By default the store is on this machine: no link.
  public func linkNotices() -> AsyncStream<String>? { nil }

  /// By default a page's writes are whole.
  public var pagesAreSummaries: Bool { false }

  /// By default the source's file never goes away.
  public func storeFileState() -> StoreFileState { .same }

  /// By default the source cannot say what changed: readers read the whole queue.
  public func changed(since mark: Int?) async throws -> ChangedWrites? { nil }

  /// By default, pages by offset (the cursor is the offset); a working copy pages by send order.
  public func summaries(_ pane: QueuePane, cursor: Int, limit: Int) async throws -> (writes: [QueuedWrite], next: Int) {
    let page = try await self.page(pane, offset: cursor, limit: limit, filter: nil)
    // page() clamps an offset past the end onto the last write: nothing is left there.
    guard page.offset == cursor else { return ([], cursor) }
    return (page.writes, cursor + page.writes.count)
  }

  /// The ids of every write in a pane under the filter, up to `limit`.
  public func ids(in pane: QueuePane, filter: String?, limit: Int = 100_000) async throws -> [String] {
    var ids: [String] = []
    let step = 2_000
    while ids.count < limit {
      let page = try await self.page(pane, offset: ids.count, limit: step, filter: filter)
      ids += page.writes.map(\.id)
      if page.writes.count < step { break }
    }
    return ids
  }
}
