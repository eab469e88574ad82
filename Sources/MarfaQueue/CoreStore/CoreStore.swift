import FoundationEssentials
import MarfaWire

/// A store the Marfa core wrote, opened to read only: its queue read into the same values as this
/// project's own store, so the screens do not know which kind they show.
///
/// Never writes the file, never touches the core's writer-lock file: the connection is SQLite's
/// read-only open, whose only change is the read marks it keeps in `-shm` (reference section 5;
/// `immutable=1` would skip the WAL and read rows a live app has already changed).
public final class CoreStore: Sendable {
  /// The store's path.
  public let path: String
  /// The store's kind, with its schema version.
  public let kind: StoreKind
  /// The connection, used by one caller at a time.
  private let connection: Mutex<Connection>

  /// The SQLite handle, reached only under the mutex.
  private struct Connection: @unchecked Sendable {  // unchecked: a C handle, used only under `connection`'s lock
    var db: SQLite?
  }

  private init(path: String, kind: StoreKind, db: SQLite) {
    self.path = path
    self.kind = kind
    self.connection = Mutex(Connection(db: db))
  }

  /// Opens the core store at `path` to read.
  ///
  /// - Throws: `noStore`, `wrongSchema` (not a core store), `unknownSchema` (a core store of a
  ///   version this build does not read).
  public static func open(path: String) throws -> CoreStore {
    let kind = try StoreFile.kind(at: path)
    guard case .marfaCore = kind else { throw QueueError.wrongSchema(path: path, unsent: nil) }
    let db = try SQLite(path: path, readOnly: true)
    return CoreStore(path: path, kind: kind, db: db)
  }

  /// Lets the file go.
  public func close() {
    connection.withLock { c in
      c.db?.close()
      c.db = nil
    }
  }

  /// Runs `body` on the connection; a failure of SQLite reads as `store`.
  func read<T>(_ body: (SQLite) throws -> T) throws -> T {
    try connection.withLock { c in
      guard let db = c.db else { throw QueueError.closed }
      do {
        return try body(db)
      } catch let e as QueueError {
        throw e
      } catch {
        throw QueueError.store(path: path, message: String(describing: error))
      }
    }
  }

  /// SQLite's `data_version`: changes whenever another connection commits.
  package func dataVersion() throws -> Int {
    try read { try $0.dataVersion() }
  }

  /// How many writes each pane holds.
  package func readCounts() throws -> QueueCounts {
    try read { db in
      var counts = QueueCounts()
      try db.query(
        "SELECT \(CoreQueueCodec.paneSQL) AS pane, count(*) AS n FROM queue GROUP BY pane",
        reading: PaneCountColumn.self
      ) { row in
        let n = row.int(.n) ?? 0
        switch row.int(.pane) ?? 0 {
        case 0: counts.waiting = n
        case 1: counts.answered = n
        case 2: counts.blocked = n
        default: counts.dead = n
        }
      }
      return counts
    }
  }

  /// One page of a pane, in `order`; `filter` keeps writes whose id, kind, reason or rows
  /// hold it (case-insensitive).
  ///
  /// Send order and newest first are read in SQL; the other orders read the pane in send order
  /// and sort it here (``PaneOrder/sorted(_:)``): the core's queue has no index for them, and
  /// no `environmental_streak` (so its streak order is the send order).
  public func readPage(
    _ pane: QueuePane, offset: Int, limit: Int, filter: String?, order: PaneOrder = .sendOrder
  ) throws -> QueuePage {
    let condition = "(\(CoreQueueCodec.paneSQL)) = \(pane.rawValue)"
    let values: [SQLValue] = []
    let parsed = WriteFilter(filter)
    if parsed != nil || (order != .sendOrder && order != .newestFirst) {
      // The core's columns differ from this project's: its rows are filtered as written.
      let writes = try read { db in
        try db.rows(
          "SELECT \(CoreQueueCodec.selectList) FROM queue WHERE \(condition) ORDER BY seq", values,
          reading: CoreQueueColumn.self
        ) {
          CoreQueueCodec.write(from: $0).write
        }
      }.filter { parsed?.matches($0) ?? true }
      let sorted = order.sorted(writes)
      let start = max(0, min(offset, max(0, writes.count - 1)))
      return QueuePage(
        pane: pane, offset: start, writes: Array(sorted.dropFirst(start).prefix(max(0, limit))), total: sorted.count)
    }
    return try read { db in
      let total = try db.scalar("SELECT count(*) FROM queue WHERE \(condition)", values) ?? 0
      let start = max(0, min(offset, max(0, total - 1)))
      let writes = try db.rows(
        "SELECT \(CoreQueueCodec.selectList) FROM queue WHERE \(condition) ORDER BY \(order == .newestFirst ? "seq DESC" : "seq") LIMIT \(max(0, limit)) OFFSET \(start)",
        values, reading: CoreQueueColumn.self
      ) { CoreQueueCodec.write(from: $0).write }
      return QueuePage(pane: pane, offset: start, writes: writes, total: total)
    }
  }

  /// One write by id.
  public func readWrite(id: String) throws -> QueuedWrite {
    let found = try read { db in
      try db.rows(
        "SELECT \(CoreQueueCodec.selectList) FROM queue WHERE id = ?", [.text(id)], reading: CoreQueueColumn.self
      ) {
        CoreQueueCodec.write(from: $0).write
      }
    }
    guard let w = found.first else { throw QueueError.notFound(id: id) }
    return w
  }

  /// Every write, in send order.
  public func readAll() throws -> [QueuedWrite] {
    try read { db in
      try db.rows("SELECT \(CoreQueueCodec.selectList) FROM queue ORDER BY seq", [], reading: CoreQueueColumn.self) {
        CoreQueueCodec.write(from: $0).write
      }
    }
  }

  /// The instance the core filled the copy from.
  public var origin: String? { try? meta(.serverOrigin) }

  /// A value the core keeps in its `meta` table.
  func meta(_ key: CoreMetaKey) throws -> String? {
    try read { try $0.meta(core: key) }
  }

  /// The store at a glance: its kind, the core's writer (if one is present), the instance it was
  /// filled from, the counts. The core keeps no drain report.
  public func readStatus() throws -> Status {
    let fill: FillState
    switch try meta(.hydrateState) {
    case nil: fill = try meta(.eventCursor) == nil ? .never : .complete
    case let state? where ["complete", "completed", "done", "hydrated", "live"].contains(state): fill = .complete
    default: fill = .underway
    }
    var status = Status(
      store: path, handle: handle, fill: fill, origin: try meta(.serverOrigin),
      instanceId: try meta(.instanceId), cursor: try meta(.eventCursor), counts: try readCounts())
    status.kind = kind
    return status
  }

  /// This process's role: always a reader, and why.
  public var handle: Handle {
    let writer = CoreWriterProbe.writer(of: path)
    let who = writer.map { "its app (pid \($0.pid)) is the writer" } ?? "no app holds it now"
    return .reader(reason: "Marfa core store, only read; \(who)")
  }
}
