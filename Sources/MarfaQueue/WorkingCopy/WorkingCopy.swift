import FoundationEssentials
import MarfaWire

/// A device's working copy: the SQLite store, its write queue, and the instance it drains to.
///
/// The first process to open a store is its writer; every other opener reads, and every
/// write, drain, fill and queue action it asks for is refused ``QueueError/readingHandle(reason:)``.
public final class WorkingCopy: Sendable {
  let store: Store
  let hub = ChangeHub()
  let serverBox: Mutex<Server?>
  let drainGate = SerialGate()
  let pollTask = Mutex<Task<Void, Never>?>(nil)
  let reachability = Mutex<Bool?>(nil)
  let closed = Mutex(false)
  let clientBox = Mutex<HTTPClient?>(nil)
  /// A stop asked of the running drain (``Queue/stopDrain()``).
  let drainStop = DrainStop()
  let updateHolders = Mutex(UpdateHolders())
  /// Who listens for events on a reader's store files.
  let fileWatchers = StoreFileWatchers()
  /// This writer's published record (nil for a reader).
  let writerRecord = Mutex<WriterRecord?>(nil)
  /// Whether drains keep their attempts and their history rows (off only to time what keeping
  /// them costs: `verdicts-bench drain`), and the time and rows that keeping them took.
  let historyKept = Mutex<Bool>(true)
  let historySpent = Mutex<(time: Duration, writes: Int)>((.zero, 0))
  /// Whether this writer has written its record into the store (then it says so when it closes).
  let writerPublished = Mutex(false)
  /// The writer's heartbeat (``WriterRecord/heartbeat``), started once its record is in the store.
  let heartbeatTask = Mutex<Task<Void, Never>?>(nil)
  let drainProgressPublished = Mutex(true)
  /// Time spent writing drain progress into the writer's record, and how many writes (measurement).
  let progressSpent = Mutex<(time: Duration, writes: Int)>((.zero, 0))

  /// The queue of writes and the calls that act on it.
  public let queue: Queue

  /// Whether this process writes the store or only reads it.
  public var handle: Handle { store.handle }

  /// What others could change of the store's files (its folder, the store file, its lock, its
  /// blob folder open to other users' writes; a store file with more than one name): sentences
  /// to say once, on standard error or the status line. Empty for a private store.
  public var storeWarnings: [String] { store.warnings }

  /// Why this copy reads although no other process holds the writer role (the file system
  /// refused the lock, or the lock file is not the store's own); waiting will not change it.
  public var writerRefusal: QueueError? { store.writerRefusal }

  /// The store file's path.
  public var storePath: String { store.path }

  /// The instance this copy talks to (its key never leaves the process).
  public var server: Server? { serverBox.withLock { $0 } }

  init(store: Store, server: Server?) {
    self.store = store
    self.serverBox = Mutex(server)
    let link = WeakCopy()
    self.queue = Queue(store: store, hub: hub, link: link)
    link.copy = self
  }

  /// Opens the store: the writer if the store is free, else a reader.
  ///
  /// - Parameters:
  ///   - store: the store file.
  ///   - server: the instance to drain to, if any.
  ///   - create: whether a missing store is created (only commands that queue or fill do).
  public static func open(store: URL, server: Server?, create: Bool = true) async throws -> WorkingCopy {
    let s = try Store.open(path: store.path, create: create, wantWriter: true)
    let copy = WorkingCopy(store: s, server: server)
    if s.handle.isWriter {
      // Kept in memory until the writer does something a watcher should see (a drain, auto-drain,
      // `describeWriter`): opening and closing alone leave the store's bytes as they were.
      copy.writerRecord.withLock { $0 = WorkingCopy.openingRecord() }
    } else {
      await copy.startFollowingSaves()
    }
    return copy
  }

  /// Opens the store to read only; never takes the writer role, never creates the file.
  public static func openReader(store: URL) async throws -> WorkingCopy {
    let s = try Store.open(path: store.path, create: false, wantWriter: false)
    let copy = WorkingCopy(store: s, server: nil)
    await copy.startFollowingSaves()
    return copy
  }

  /// Every change from now on: queued writes, answers, refreshes, saves, reachability.
  public func changes() -> AsyncStream<Change> { hub.stream() }

  /// The copy and the queue at a glance.
  public func status() async throws -> Status {
    let path = store.path
    let handle = store.handle
    let store = self.store
    let heldBefore = store.writerIsLive()
    var status = try await store.run { db in
      let fill = FillState(rawValue: try db.meta(.fill) ?? "never") ?? .never
      // The summary only: its size does not grow with the drain (docs/rules.md).
      let lastDrain = try db.lastDrainSummary()
      let writer = try db.meta(.writer)
      db.note(WriterRecord.damage(inStored: writer))
      var status = Status(
        store: path, handle: handle, fill: fill, expiredReason: try db.meta(.expiredReason),
        origin: try db.meta(.origin), instanceId: try db.meta(.instanceId), cursor: try db.meta(.cursor),
        counts: try db.counts(), lastDrain: lastDrain, lastDrainAt: try db.meta(.lastDrainAt),
        writer: self.sightingOfStored(writer, held: heldBefore))
      status.refused = try db.refusedCount()
      status.damage = db.damage
      return status
    }
    // The role changed hands during the read (a writer that closed, one that came): its record
    // is read again against the lock, as ``writer()`` reads it.
    if store.writerIsLive() != heldBefore { status.writer = try await writer() }
    return status
  }

  /// The last drain's last verdict entries as the store keeps them (at most
  /// ``DrainReport/keptVerdicts``, in the order they landed; the summary's `verdictsOmitted` says
  /// how many earlier ones the queue's rows hold instead).
  package func lastDrainVerdicts() async throws -> [DrainVerdict] {
    try await store.run { try $0.lastDrainVerdicts() }
  }

  /// The first number out of range this copy's store connection read (``StoreDamage``), nil
  /// while every one was in range.
  public func damage() async -> StoreDamage? {
    try? await store.run { $0.damage }
  }

  /// Uses another key from now on; the next drain sends writes blocked `credentialRefused` again.
  public func useKey(_ key: String) async throws {
    try checkOpen()
    let trimmed = key.trimmingSpacesAndNewlines()
    guard !trimmed.isEmpty else { throw QueueError.invalid(message: "the key is empty") }
    guard serverBox.withLock({ $0 != nil }) else { throw QueueError.noServer }
    serverBox.withLock { $0?.key = trimmed }
    await publishWriter { $0.keyRefused = false }
    if handle.isWriter {
      let by = queue.departingBy
      try? await store.run { db in try db.transaction(durable: true) { try db.record(.keyChanged, by: by) } }
    }
    hub.send(.refreshed(.keyChanged))
  }

  /// Stops every stream and background task; later calls throw ``QueueError/closed``.
  public func close() {
    let closedAlready = closed.withLock { was in
      defer { was = true }
      return was
    }
    pollTask.withLock {
      $0?.cancel()
      $0 = nil
    }
    heartbeatTask.withLock {
      $0?.cancel()
      $0 = nil
    }
    updateHolders.withLock {
      $0.follower?.cancel()
      $0.follower = nil
    }
    clientBox.withLock {
      $0?.invalidate()
      $0 = nil
    }
    hub.finish()
    // A clean exit says so in the record, so a watcher tells it from a writer that died.
    let closing =
      closedAlready || !writerPublished.withLock({ $0 })
      ? nil
      : writerText {
        $0.closedAt = Date()
        $0.drain = nil
      }
    store.shutdown { db in
      guard let closing else { return }
      try? db.commitGroup()
      try? db.setMeta(.writer, closing)
    }
  }

  func checkOpen() throws {
    if closed.withLock({ $0 }) { throw QueueError.closed }
  }

  func requireWriter() throws {
    try checkOpen()
    try store.requireWriter()
  }

  /// Follows the writer's commits (``followSaves(from:)``), from where the store stands now, so
  /// a commit right after opening is not missed.
  private func startFollowingSaves() async {
    let start = (try? await store.run { try $0.dataVersion() }) ?? 0
    let task = followSaves(from: start)
    pollTask.withLock { $0 = task }
  }
}
