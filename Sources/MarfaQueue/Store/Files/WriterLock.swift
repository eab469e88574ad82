#if canImport(Glibc)
  import Glibc
#endif

/// The writer's liveness lock: an open-file-description lock on the first byte of
/// `<store>.lock`, held beside the `flock` that gives the writer role, so a watcher can ask the
/// kernel whether a writer lives (``isHeld(lockPath:)``) without taking anything.
///
/// An OFD lock (not a classic `fcntl` lock) belongs to the descriptor, not the process: a reader
/// in the writer's own process that opens and closes the lock file does not drop it, and a probe
/// from the same process still sees it. The kernel drops it when the writer dies, however it dies.
enum WriterLock {
  /// `F_OFD_GETLK` / `F_OFD_SETLK` (Linux ≥ 3.15; not exported by Swift's Glibc module).
  static let getLock: Int32 = 36
  static let setLock: Int32 = 37

  /// Takes the liveness lock on the writer's lock descriptor; false when the kernel refuses
  /// (the role itself, the `flock`, is unaffected).
  @discardableResult
  static func hold(_ fd: Int32) -> Bool {
    var l = region(Int16(F_WRLCK))
    return fcntl(fd, setLock, &l) == 0
  }

  /// Whether a live process holds the writer's liveness lock on `lockPath`. Opens the file
  /// read-only if it exists (never through a symbolic link); never creates, writes or locks it.
  static func isHeld(lockPath: String) -> Bool {
    let fd = open(lockPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var l = region(Int16(F_RDLCK))
    guard fcntl(fd, getLock, &l) == 0 else { return false }
    return l.l_type == Int16(F_WRLCK)
  }

  /// A lock of `type` on a file's first byte (which SQLite never locks): the region both the
  /// lock file's probe and ``StoreFileLock`` use.
  static func region(_ type: Int16) -> flock {
    var l = flock()
    l.l_type = type
    l.l_whence = Int16(SEEK_SET)
    l.l_start = 0
    l.l_len = 1
    l.l_pid = 0
    return l
  }
}
