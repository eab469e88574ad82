import CSQLite
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The SQLite store behind a working copy: one connection, confined to one serial queue; async
/// callers reach it through ``run(_:)`` (the drain runs on the queue itself, ``executor``).
///
/// The first opener of a file takes the writer role through an advisory lock on
/// `<store>.lock`; every other opener reads.
// unchecked: owns one SQLite connection (a C handle), touched only on its own serial queue.
final class Store: @unchecked Sendable {
  let path: String
  let handle: Handle
  private let db: SQLite
  private let queue: DispatchQueue
  /// The store's queue as a task executor, for work that should run beside the store (the drain).
  let executor: StoreExecutor
  private var lockDescriptor: Int32 = -1
  /// The opened file's device and inode, to tell it from another file later put at the path.
  let identity: FileIdentity?
  /// Set on the store's queue to the store's identity, so ``run(_:)`` knows when it is already there.
  private static let onQueue = DispatchSpecificKey<ObjectIdentifier>()

  private init(path: String, handle: Handle, db: SQLite, lockDescriptor: Int32) {
    self.path = path
    self.handle = handle
    self.db = db
    self.lockDescriptor = lockDescriptor
    self.identity = Store.identity(of: path)
    self.queue = DispatchQueue(label: "verdicts.store")
    self.executor = StoreExecutor(queue: queue)
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
    if lockDescriptor >= 0 {
      close(lockDescriptor)
      lockDescriptor = -1
    }
  }

  /// A file's device and inode.
  struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
  }

  /// The device and inode of the file at `path` now, or nil when there is none.
  static func identity(of path: String) -> FileIdentity? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
  }

  /// The folder beside the store that holds uploaded bytes, named by hash.
  var blobFolder: String { path + ".blobs" }

  /// Opens (or, with `create`, creates) the store at `path`.
  static func open(path: String, create: Bool, wantWriter: Bool) throws -> Store {
    let fm = FileManager.default
    var isDirectory: ObjCBool = false
    let exists = fm.fileExists(atPath: path, isDirectory: &isDirectory)
    if exists && isDirectory.boolValue {
      throw QueueError.store(path: path, message: "it is a folder, not a store file")
    }
    if !exists {
      guard create && wantWriter else { throw QueueError.noStore(path: path) }
      try createFile(path)
    } else {
      try checkSchema(path)
    }

    var lock: Int32 = -1
    var handle: Handle = .reader(reason: "opened to read")
    if wantWriter {
      lock = Glibc.open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      if lock < 0 {
        handle = .reader(reason: "the lock beside the store cannot be opened (\(String(cString: strerror(errno))))")
      } else if flock(lock, LOCK_EX | LOCK_NB) == 0 {
        handle = .writer
        // Beside the role, a lock a watcher can see without taking it (WriterLock).
        WriterLock.hold(lock)
      } else {
        close(lock)
        lock = -1
        handle = .reader(reason: "another process holds the writer role")
      }
    }

    let db: SQLite
    do {
      db = try SQLite(path: path, readOnly: false)
      if handle == .writer {
        try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF;")
        StoreSchema.upgrade(db)
      }
    } catch let failure as SQLite.Failure {
      if lock >= 0 { close(lock) }
      throw QueueError.store(path: path, message: failure.message)
    }
    return Store(path: path, handle: handle, db: db, lockDescriptor: lock)
  }

  private static func createFile(_ path: String) throws {
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw QueueError.store(path: path, message: "its folder cannot be made: \(error.localizedDescription)")
      }
    }
    let fd = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw QueueError.store(path: path, message: String(cString: strerror(errno)))
    }
    close(fd)
    do {
      let db = try SQLite(path: path, readOnly: false)
      try db.execute("PRAGMA journal_mode=WAL;")
      try db.transaction(durable: true) { try db.execute(StoreSchema.create) }
      db.close()
    } catch let failure as SQLite.Failure {
      try? FileManager.default.removeItem(atPath: path)
      try? FileManager.default.removeItem(atPath: path + "-wal")
      try? FileManager.default.removeItem(atPath: path + "-shm")
      if failure.isFull { throw QueueError.storageFull(message: failure.message) }
      throw QueueError.store(path: path, message: failure.message)
    }
  }

  /// Refuses a file that is not a store of this schema, without changing it.
  private static func checkSchema(_ path: String) throws {
    let db: SQLite
    do {
      db = try SQLite(path: path, readOnly: true)
    } catch let failure as SQLite.Failure {
      throw QueueError.store(path: path, message: failure.message)
    }
    defer { db.close() }
    do {
      let appId = try db.scalar("PRAGMA application_id") ?? 0
      let version = try? db.text("SELECT value FROM meta WHERE key = 'schema_version'")
      if appId == StoreSchema.applicationId && version == String(StoreSchema.version) { return }
      var unsent: Int?
      if let n = try? db.scalar("SELECT count(*) FROM queue WHERE verdict IS NULL") { unsent = n }
      throw QueueError.wrongSchema(path: path, unsent: unsent)
    } catch let failure as SQLite.Failure {
      if failure.isNotADatabase { throw QueueError.store(path: path, message: "not a store: \(failure.message)") }
      throw QueueError.store(path: path, message: failure.message)
    }
  }

  /// Runs `body` on the store's queue: at once when the caller already runs there (a task that
  /// prefers ``executor``), else after a hop to it.
  func run<T: Sendable>(_ body: @escaping @Sendable (SQLite) throws -> T) async throws -> T {
    if DispatchQueue.getSpecific(key: Self.onQueue) == ObjectIdentifier(self) {
      guard db.db != nil else { throw QueueError.closed }
      defer { scheduleGroupCommit() }
      return try mapped { try body(db) }
    }
    return try await withCheckedThrowingContinuation { continuation in
      queue.async {
        do {
          guard self.db.db != nil else { throw QueueError.closed }
          continuation.resume(returning: try self.mapped { try body(self.db) })
        } catch {
          continuation.resume(throwing: error)
        }
        self.scheduleGroupCommit()
      }
    }
  }

  private var groupCommitScheduled = false

  /// While a group is open, commits it at least every ``SQLite/groupSpan`` even when the drain
  /// waits on a slow answer, so readers never wait long for what was already answered.
  private func scheduleGroupCommit() {
    guard db.groupStarted != nil, !groupCommitScheduled else { return }
    groupCommitScheduled = true
    queue.asyncAfter(deadline: .now() + .nanoseconds(Int(SQLite.groupSpan))) {
      self.groupCommitScheduled = false
      guard self.db.db != nil, self.db.groupStarted != nil else { return }
      try? self.db.commitGroupIfDue()
      self.scheduleGroupCommit()
    }
  }

  /// Refuses a change from a reading handle.
  func requireWriter() throws {
    if case .reader(let reason) = handle { throw QueueError.readingHandle(reason: reason) }
  }

  private func mapped<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let failure as SQLite.Failure {
      if failure.isFull { throw QueueError.storageFull(message: failure.message) }
      throw QueueError.store(path: path, message: failure.message)
    }
  }
}
