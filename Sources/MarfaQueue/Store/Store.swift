import CSQLite
import Dispatch
import FoundationEssentials
import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// The SQLite store behind a working copy: one connection, confined to one serial queue; async
/// callers reach it through ``run(_:)`` (the drain, on its client's thread, enters the queue in
/// place: ``OwnThread``).
///
/// The first opener of a file takes the writer role: a `flock` on `<store>.lock` beside the
/// store's resolved path, and a lock on the store file itself (``StoreFileLock``), so every
/// name of one file meets the same role; every other opener reads.
// unchecked: owns one SQLite connection (a C handle), touched only on its own serial queue.
final class Store: @unchecked Sendable {
  /// The store's path as given (what is shown).
  let path: String
  /// The path with its links, `.`, `..` and doubled slashes resolved: the lock, the blob folder
  /// and SQLite's log are beside it, whichever name the store was opened by.
  let realPath: String
  let handle: Handle
  private let db: SQLite
  private let queue: DispatchQueue
  private var lockDescriptor: Int32 = -1
  /// Set on the store's queue to the store's identity, so ``run(_:)`` knows when it is already there.
  private static let onQueue = DispatchSpecificKey<ObjectIdentifier>()

  private init(
    path: String, realPath: String, fileIdentity: FileIdentity, handle: Handle, db: SQLite, lockDescriptor: Int32
  ) {
    self.path = path
    self.realPath = realPath
    self.fileIdentity = fileIdentity
    self.identity = fileIdentity
    self.handle = handle
    self.db = db
    self.lockDescriptor = lockDescriptor
    self.queue = DispatchQueue(label: "verdicts.store")
    queue.setSpecific(key: Self.onQueue, value: ObjectIdentifier(self))
  }

  deinit { release() }

  /// Closes the connection and gives up the writer role at once, after `last` (the writer's
  /// closing word) when the connection is still open.
  func shutdown(last: ((SQLite) -> Void)? = nil) {
    queue.sync {
      if let last, db.db != nil { last(db) }
      release()
    }
  }

  private func release() {
    db.close()
    if attached {
      // The file's role first, then the lock file: a next opener that finds the lock file free
      // finds the file free too.
      if handle == .writer { StoreFileLock.giveUp(fileIdentity) }
      StoreFileLock.detach(fileIdentity)
      attached = false
    }
    if lockDescriptor >= 0 {
      close(lockDescriptor)
      lockDescriptor = -1
    }
  }

  /// The folder beside the store that holds uploaded bytes, named by hash.
  var blobFolder: String { realPath + ".blobs" }

  /// The lock file beside the store.
  var lockPath: String { realPath + ".lock" }

  /// The store file this store keeps a descriptor on (``StoreFileLock``), until it closes.
  private let fileIdentity: FileIdentity
  /// Whether this store still counts among the file's users (until ``release()``).
  private var attached = true

  /// Whether a live process (this one included) holds the writer role on this store file,
  /// asked of the kernel without taking anything: the lock on the file itself, or the liveness
  /// lock on the lock file (a writer of an earlier build holds only that).
  func writerIsLive() -> Bool {
    StoreFileLock.isHeld(fileIdentity) || WriterLock.isHeld(lockPath: lockPath)
  }

  /// The role an open for writing would get now, found without taking anything: `.writer` when
  /// no process holds the role and the lock file beside the store could be used, else why this
  /// process would read. A reader asks it, so that reading never stands in a writer's way.
  func roleOnOffer() -> Handle {
    if handle == .writer { return .writer }
    if writerIsLive() { return .reader(reason: StoreLock.heldReason(lockPath)) }
    // A missing lock file is one a writer would make; asking never makes it.
    var st = stat()
    guard lstat(lockPath, &st) == 0 else { return .writer }
    do {
      Glibc.close(try Store.openLock(realPath, storePath: path, creating: false))
    } catch {
      return .reader(reason: (error as? QueueError)?.message ?? String(describing: error))
    }
    return .writer
  }

  /// What others could change of the store's files, said once when it was opened
  /// (``StoreExposure``).
  private(set) var warnings: [String] = []

  /// Opens (or, with `create`, creates) the store at `path`.
  ///
  /// A store that does not exist yet is created under the writer lock, in a file of its own
  /// that is linked into place whole: two processes that both find no store make exactly one;
  /// the other is refused `reading_handle` (nothing made, never a half-made file), and may try
  /// again (the command line does, for a while). Never waits on another process: a lock held by
  /// none but this one, a moment after it let go, is tried again briefly (``StoreLock/take(_:lockPath:writerHere:)``).
  ///
  /// The writer role is the lock file's `flock` and the store file's own lock
  /// (``StoreFileLock``): a process that finds either held reads. The lock file, the log and the
  /// index are never followed through a symbolic link, and a lock file of another owner is not
  /// used (this process then reads, and a change is refused with that reason).
  static func open(path: String, create: Bool, wantWriter: Bool) throws -> Store {
    try StorePath.refuseUnusable(path)
    var lock: Int32 = -1
    var handle: Handle = .reader(reason: "opened to read")
    var writerRefusal: QueueError?
    var real: String
    if !StorePath.exists(path) {
      guard create && wantWriter else { throw QueueError.noStore(path: path) }
      try StorePath.refuseDanglingLink(path)
      try StorePath.makeFolder(of: path)
      real = StorePath.resolved(path)
      try StorePath.refuseForeignCompanions(of: real)
      lock = try openLock(real, storePath: path, creating: true)
      guard StoreLock.take(lock) else {
        close(lock)
        throw QueueError.readingHandle(reason: StoreLock.heldReason(real + ".lock"))
      }
      handle = .writer
      // Beside the role, a lock a watcher can see without taking it (WriterLock).
      WriterLock.hold(lock)
      do {
        if StorePath.exists(path) {
          try checkSchema(path)
        } else {
          try createFile(path)
        }
      } catch {
        close(lock)
        throw error
      }
      real = StorePath.resolved(path)
    } else {
      real = StorePath.resolved(path)
      try StorePath.refuseForeignCompanions(of: real)
      try checkSchema(path)
      if wantWriter {
        do {
          lock = try openLock(real, storePath: path, creating: false)
          if StoreLock.take(lock, lockPath: real + ".lock", writerHere: { StoreFileLock.writerHere(real) }) {
            handle = .writer
            WriterLock.hold(lock)
          } else {
            close(lock)
            lock = -1
            handle = .reader(reason: StoreLock.heldReason(real + ".lock"))
          }
        } catch let refusal as QueueError {
          // The file system refuses the lock (read-only, full), or the lock file is not the
          // store's own (a link, another owner's): this process reads, and a change it is asked
          // for is refused with that reason, not as a second writer's.
          writerRefusal = refusal
          handle = .reader(reason: refusal.message)
        }
      }
    }

    // The role on the file itself, whatever name it was opened by.
    let fileIdentity: FileIdentity
    do {
      fileIdentity = try StoreFileLock.attach(path)
    } catch {
      if lock >= 0 { close(lock) }
      throw error
    }
    if handle == .writer, StoreFileLock.takeWaitingOutLinger(fileIdentity, path: path) == .held {
      close(lock)
      lock = -1
      handle = .reader(reason: StoreLock.heldThroughAnotherName)
    }

    let db: SQLite
    do {
      db = try SQLite(path: path, readOnly: false)
      guard StorePath.identity(path) == fileIdentity else {
        db.close()
        throw QueueError.store(
          path: path, message: "the store file was replaced while it was being opened; nothing was changed (try again)")
      }
      if handle == .writer {
        try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF;")
        StoreSchema.upgrade(db)
      }
    } catch {
      if handle == .writer { StoreFileLock.giveUp(fileIdentity) }
      StoreFileLock.detach(fileIdentity)
      if lock >= 0 { close(lock) }
      if let failure = error as? SQLite.Failure { throw QueueError.from(failure, path: path) }
      throw error
    }
    let store = Store(
      path: path, realPath: real, fileIdentity: fileIdentity, handle: handle, db: db, lockDescriptor: lock)
    store.writerRefusal = writerRefusal
    store.warnings = StoreExposure.warnings(real: real)
    return store
  }

  /// Opens the lock file beside the store (`real` is the store's resolved path), never through
  /// a symbolic link, and only if it is a regular file of this user's; a file system that
  /// refuses it, or a lock file that is not the store's own, is a store failure.
  static func openLock(_ real: String, storePath: String, creating: Bool) throws -> Int32 {
    let lockPath = real + ".lock"
    let fd = Glibc.open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600)
    guard fd >= 0 else {
      let code = errno
      let reason = String(cString: strerror(code))
      if code == ELOOP {
        let target = StorePath.linkTarget(lockPath).map { " to \($0)" } ?? ""
        throw QueueError.store(
          path: storePath,
          message:
            "the lock beside it (\(lockPath)) is a symbolic link\(target); the files a store owns are never followed through a link, so nothing was made there and this process does not write (remove the link)"
        )
      }
      if code == ENOSPC || code == EDQUOT {
        throw QueueError.storageFull(message: "the lock beside the store cannot be made: \(reason)")
      }
      if creating || code == EROFS {
        throw QueueError.store(path: storePath, message: "the lock beside the store cannot be opened: \(reason)")
      }
      throw QueueError.readingHandle(reason: "the lock beside the store cannot be opened (\(reason))")
    }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      let reason = String(cString: strerror(errno))
      close(fd)
      throw QueueError.store(path: storePath, message: "the lock beside the store cannot be opened: \(reason)")
    }
    let type = st.st_mode & S_IFMT
    if type != S_IFREG {
      close(fd)
      throw QueueError.store(
        path: storePath,
        message:
          "the lock beside it (\(lockPath)) is \(StorePath.describe(type)), not a lock file; it is not used and this process does not write (remove it)"
      )
    }
    if st.st_uid != geteuid() {
      close(fd)
      throw QueueError.store(
        path: storePath,
        message:
          "the lock beside it (\(lockPath)) belongs to another user (uid \(st.st_uid)); it is not used and this process does not write (remove it, or run as its owner)"
      )
    }
    return fd
  }

  /// Makes the store in a file of its own beside `path`, then links it into place whole; the
  /// caller holds the writer lock.
  private static func createFile(_ path: String) throws {
    let building = path + ".creating-\(getpid())"
    func removeBuilding() {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(building + suffix) }
    }
    removeBuilding()
    let fd = Glibc.open(building, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      let code = errno
      let reason = String(cString: strerror(code))
      if code == ENOSPC || code == EDQUOT { throw QueueError.storageFull(message: reason) }
      throw QueueError.store(path: path, message: reason)
    }
    close(fd)
    do {
      let db = try SQLite(path: building, readOnly: false)
      try db.execute("PRAGMA journal_mode=WAL;")
      try db.transaction(durable: true) { try db.execute(StoreSchema.create) }
      db.close()
    } catch let failure as SQLite.Failure {
      removeBuilding()
      throw QueueError.from(failure, path: path)
    }
    // Closing the last connection checkpointed the log into the file; `link` never replaces.
    // Where the file system has no hard links, `rename` does (this process holds the lock, so
    // no other creator is at work; the file is looked for first).
    var linked = link(building, path) == 0
    var code = errno
    if !linked && (code == EPERM || code == EOPNOTSUPP || code == ENOSYS) {
      if StorePath.exists(path) {
        code = EEXIST
      } else {
        linked = rename(building, path) == 0
        code = errno
      }
    }
    if !linked {
      removeBuilding()
      if code == EEXIST { return try checkSchema(path) }
      let reason = String(cString: strerror(code))
      if code == ENOSPC || code == EDQUOT { throw QueueError.storageFull(message: reason) }
      throw QueueError.store(path: path, message: reason)
    }
    removeBuilding()
    StorePath.syncFolder(of: path)
  }

  /// Refuses a file that is not a store of this schema, without changing it.
  private static func checkSchema(_ path: String) throws {
    let db: SQLite
    do {
      db = try SQLite(path: path, readOnly: true)
    } catch let failure as SQLite.Failure {
      throw QueueError.from(failure, path: path)
    }
    defer { db.close() }
    do {
      let appId = try db.scalar("PRAGMA application_id") ?? 0
      let version = try? db.meta(MetaKey.schemaVersion)
      if appId == StoreSchema.applicationId && version == String(StoreSchema.version) { return }
      var unsent: Int?
      if let n = try? db.scalar("SELECT count(*) FROM queue WHERE verdict IS NULL") { unsent = n }
      throw QueueError.wrongSchema(path: path, unsent: unsent)
    } catch let failure as SQLite.Failure {
      if failure.isNotADatabase { throw QueueError.store(path: path, message: "not a store: \(failure.message)") }
      throw QueueError.from(failure, path: path)
    }
  }

  /// Runs `body` on the store's queue: at once when the caller already runs there, in place on
  /// one of the library's own threads (``OwnThread``: the drain's), else after a hop to it.
  func run<T: Sendable>(_ body: @escaping @Sendable (SQLite) throws -> T) async throws -> T {
    if onStoreQueue { return try onQueue(body) }
    // One of the library's own threads (the drain's, on its client's thread): it may wait for
    // the queue, so it enters it in place, without a hop to another thread and back.
    if OwnThread.isOwn { return try queue.sync { try onQueue(body) } }
    return try await withCheckedThrowingContinuation { continuation in
      queue.async { continuation.resume(with: Result { try self.onQueue(body) }) }
    }
  }

  private var groupCommitScheduled = false
  private let heldMeta = Mutex<HeldMeta?>(nil)
  /// Calls waiting to share the next durable commit (``runDurably(_:)``).
  let sharedCommit = Mutex(SharedCommit())

  /// Whether the caller runs on the store's queue (inside ``run(_:)`` or a block queued there).
  var onStoreQueue: Bool { DispatchQueue.getSpecific(key: Self.onQueue) == ObjectIdentifier(self) }

  /// Puts `work` on the store's queue, to run after what is there already.
  func queueAsync(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }

  /// On the store's queue: runs `body` on the connection as ``run(_:)`` does (a closed store, or
  /// a group whose commit failed, throws; SQLite's failures become the queue's errors).
  func onQueue<T>(_ body: (SQLite) throws -> T) throws -> T {
    dispatchPrecondition(condition: .onQueue(queue))
    defer { scheduleGroupCommit() }
    guard db.db != nil else { throw QueueError.closed }
    try throwGroupFailure()
    return try mapped { try body(db) }
  }

  /// While a group is open, commits it at least every ``SQLite/groupSpan`` even when the drain
  /// waits on a slow answer, so readers never wait long for what was already answered.
  private func scheduleGroupCommit() {
    guard db.groupStarted != nil, !groupCommitScheduled else { return }
    groupCommitScheduled = true
    queue.asyncAfter(deadline: .now() + .nanoseconds(Int(SQLite.groupSpan))) {
      self.groupCommitScheduled = false
      guard self.db.db != nil, self.db.groupStarted != nil else { return }
      do {
        try self.writeHeldMetaIfDue()
        try self.db.commitGroupIfDue()
      } catch {
        // Not dropped: the group was rolled back and its failure kept (`SQLite.groupFailure`);
        // every call on the store throws it until the drain that opened the group ends it.
        return
      }
      self.scheduleGroupCommit()
    }
  }

  /// A `meta` value held back until `due` (a drain's progress, at most four writes a second),
  /// then written by the group timer unless it was dropped first: so a drain that waits on a
  /// slow answer still shows how far it got. `text` is made when it is written; `written` is
  /// called once it is.
  struct HeldMeta {
    let key: MetaKey
    let due: ContinuousClock.Instant
    let text: @Sendable () -> String?
    let written: @Sendable () -> Void
  }

  /// Holds `meta` back until its time, replacing any held before.
  func hold(_ meta: HeldMeta) { heldMeta.withLock { $0 = meta } }

  /// Drops what is held (a newer value is being written, or the drain ended).
  func dropHeldMeta() { heldMeta.withLock { $0 = nil } }

  /// On the store's queue, inside the open group: writes the held value once it is due.
  private func writeHeldMetaIfDue() throws {
    let due = heldMeta.withLock { held -> HeldMeta? in
      guard let h = held, h.due <= .now else { return nil }
      held = nil
      return h
    }
    guard let due, let text = due.text() else { return }
    try mapped { try db.setMeta(due.key, text) }
    due.written()
  }

  /// Throws why the open group could not be committed (its work was rolled back), while the
  /// grouped work has not ended it: nothing more runs on a store that lost what it reported.
  private func throwGroupFailure() throws {
    if let failure = db.groupFailure { throw QueueError.from(failure, path: path) }
  }

  /// Ends grouped work (a drain's bookkeeping): commits the group, or throws why it could not
  /// be committed, earlier or now; its work was then rolled back.
  func endGroup() async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
      queue.async {
        do {
          guard self.db.db != nil else { throw QueueError.closed }
          try self.mapped { try self.db.endGroup() }
          continuation.resume()
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }

  /// Why this process could not take the writer role although no other holds it (the file
  /// system refused the lock); a change is refused with it instead of `reading_handle`.
  private(set) var writerRefusal: QueueError?

  /// The file this store opened (device and inode), to tell when its path names another.
  private(set) var identity: FileIdentity?

  /// Throws when the path no longer names the file this store opened (deleted, or replaced
  /// by another): a writer then stops draining into a file nobody else can see.
  func requireSameFile() throws {
    guard let identity else { return }
    guard let now = StorePath.identity(path) else {
      throw QueueError.store(
        path: path,
        message: "the store file was deleted while this process had it open; it stops draining (open the store again)")
    }
    if now != identity {
      throw QueueError.store(
        path: path,
        message:
          "the store file was replaced by another while this process had it open; it stops draining (open the store again)"
      )
    }
  }

  /// Refuses a change from a reading handle.
  func requireWriter() throws {
    if let writerRefusal { throw writerRefusal }
    if case .reader(let reason) = handle { throw QueueError.readingHandle(reason: reason) }
  }

  /// Runs `body`, giving SQLite's failures as the queue's errors (naming this store).
  func mapped<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let failure as SQLite.Failure {
      throw QueueError.from(failure, path: path)
    }
  }
}
