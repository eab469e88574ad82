import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// The writer role taken on the store file itself, by its device and inode: an
/// open-file-description lock on the file's first byte, so every name of one file (a symbolic
/// link, a hard link, a relative path, a bind mount) meets the same lock.
///
/// The lock is on a descriptor this process keeps on the store file, one per file per process,
/// closed only when the last ``Store`` on that file in the process has closed its connection:
/// closing any descriptor on a file drops every classic `fcntl` lock the process holds on it,
/// SQLite's own included, so a descriptor opened beside SQLite's is never closed under it.
///
/// SQLite locks bytes from 1 GiB on (its pending, reserved and shared bytes), never the first
/// byte, so this lock and SQLite's never meet. A watcher asks the kernel whether a writer lives
/// (``isHeld(_:)``, `F_OFD_GETLK`) without taking anything; the kernel drops the lock when the
/// writer dies, however it dies.
enum StoreFileLock {
  /// What ``take(_:path:)`` found.
  enum Take: Equatable {
    /// This process now holds the role on the file.
    case taken
    /// Another process (or another store in this one) holds it.
    case held
    /// The file cannot be opened for writing here (read-only, immutable, not the user's): this
    /// process cannot write it either, so the role rests on the lock file alone.
    case unwritable
  }

  private struct Entry {
    /// The descriptor kept on the file (read-write when the file allows it).
    var descriptor: Int32
    var writable: Bool
    /// Descriptors opened on the same file by a race with its replacement, kept with it.
    var spares: [Int32] = []
    /// Stores open on the file in this process.
    var users = 1
    /// Whether a store in this process holds the role.
    var writer = false
  }

  private static let table = Mutex<[FileIdentity: Entry]>([:])

  /// Registers a store opening the file at `path` and answers the file's identity (the one the
  /// kept descriptor is on); throws when the file cannot be opened.
  static func attach(_ path: String) throws -> FileIdentity {
    if let seen = StorePath.identity(path) {
      let known = table.withLock { entries -> Bool in
        guard entries[seen] != nil else { return false }
        entries[seen]?.users += 1
        return true
      }
      if known { return seen }
    }
    var writable = true
    var fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    if fd < 0 {
      writable = false
      fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    }
    guard fd >= 0 else {
      throw QueueError.store(path: path, message: "it cannot be opened: \(String(cString: strerror(errno)))")
    }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      let reason = String(cString: strerror(errno))
      // Nothing of this process can be on a file it could not even look at.
      close(fd)
      throw QueueError.store(path: path, message: "it cannot be opened: \(reason)")
    }
    let identity = FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    table.withLock { entries in
      if entries[identity] != nil {
        // Replaced under the path and back: the file is known, and this descriptor stays open
        // beside the kept one (closing it would drop SQLite's locks on the file).
        entries[identity]?.users += 1
        entries[identity]?.spares.append(fd)
      } else {
        entries[identity] = Entry(descriptor: fd, writable: writable)
      }
    }
    return identity
  }

  /// A store on the file closed its connection; the kept descriptor closes with the last one.
  static func detach(_ identity: FileIdentity) {
    table.withLock { entries in
      guard var entry = entries[identity] else { return }
      entry.users -= 1
      guard entry.users <= 0 else {
        entries[identity] = entry
        return
      }
      entries[identity] = nil
      // Closing the descriptor drops the role's lock with it.
      close(entry.descriptor)
      for spare in entry.spares { close(spare) }
    }
  }

  /// Takes the role on the file if no other process (and no other store of this one) holds it;
  /// never waits. `path` names the file, for a read-only descriptor to be opened again for writing.
  static func take(_ identity: FileIdentity, path: String) -> Take {
    table.withLock { entries in
      guard var entry = entries[identity] else { return .unwritable }
      if entry.writer { return .held }
      if !entry.writable {
        // A file that became writable since (a remount): a descriptor that may lock it.
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return .unwritable }
        var st = stat()
        guard fstat(fd, &st) == 0, UInt64(st.st_dev) == identity.device, UInt64(st.st_ino) == identity.inode else {
          entry.spares.append(fd)
          entries[identity] = entry
          return .unwritable
        }
        entry.spares.append(entry.descriptor)
        entry.descriptor = fd
        entry.writable = true
      }
      var region = WriterLock.region(Int16(F_WRLCK))
      if fcntl(entry.descriptor, WriterLock.setLock, &region) == 0 {
        entry.writer = true
        entries[identity] = entry
        return .taken
      }
      let code = errno
      entries[identity] = entry
      // A file system without such locks leaves the role to the lock file, as before.
      return code == EAGAIN || code == EACCES ? .held : .unwritable
    }
  }

  /// Whether a store of this process holds the role on the file at `path`.
  static func writerHere(_ path: String) -> Bool {
    guard let identity = StorePath.identity(path) else { return false }
    return table.withLock { $0[identity]?.writer ?? false }
  }

  /// ``take(_:path:)``, tried again for up to ``StoreLock/lingerLimit`` while the lock is held
  /// but no store of this process holds the role: a description of this process's, let go a
  /// moment ago, that survives in a child being started (``StoreLock/take(_:lockPath:writerHere:)``).
  /// Called with the lock file's role held, so no writer by the same name holds this one.
  static func takeWaitingOutLinger(_ identity: FileIdentity, path: String) -> Take {
    var result = Take.held
    _ = StoreLock.waitingOutLinger(
      take: {
        result = take(identity, path: path)
        return result != .held
      },
      lingering: { !table.withLock { $0[identity]?.writer ?? false } })
    return result
  }

  /// Gives the role up (the descriptor stays open while stores of this process use the file).
  static func giveUp(_ identity: FileIdentity) {
    table.withLock { entries in
      guard var entry = entries[identity], entry.writer else { return }
      var region = WriterLock.region(Int16(F_UNLCK))
      _ = fcntl(entry.descriptor, WriterLock.setLock, &region)
      entry.writer = false
      entries[identity] = entry
    }
  }

  /// Whether a live writer holds the role on the file: a store of this process, or another
  /// process (asked of the kernel, taking nothing).
  static func isHeld(_ identity: FileIdentity) -> Bool {
    table.withLock { entries in
      guard let entry = entries[identity] else { return false }
      if entry.writer { return true }
      var region = WriterLock.region(Int16(F_RDLCK))
      guard fcntl(entry.descriptor, WriterLock.getLock, &region) == 0 else { return false }
      return region.l_type == Int16(F_WRLCK)
    }
  }
}
