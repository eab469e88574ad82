import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The advisory lock on `<store>.lock` (beside the store's resolved path) that makes one process
/// the store's writer, with the lock on the store file itself (``StoreFileLock``).
enum StoreLock {
  /// Takes the lock on `fd` if it is free, without waiting (a caller that waits does so
  /// without blocking a thread); false when another process holds it.
  static func take(_ fd: Int32) -> Bool {
    while true {
      if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
      if errno != EINTR { return false }
    }
  }

  /// Takes the lock on `fd`, or, when it is held but the kernel names no other process as its
  /// holder and no store of this process writes the file (`writerHere`), tries again for up to
  /// ``lingerLimit``.
  ///
  /// That lock is one this process gave up a moment ago whose descriptor survives in a child
  /// being started (`posix_spawn` copies every descriptor; the close-on-exec ones close only at
  /// its `exec`), so an open right after a close would otherwise read. A lock another process
  /// holds is named at once and never waited for.
  static func take(_ fd: Int32, lockPath: String, writerHere: () -> Bool) -> Bool {
    waitingOutLinger(take: { take(fd) }, lingering: { holder(of: lockPath) == nil && !writerHere() })
  }

  /// Tries `take`, and again every ``lingerStep`` for up to ``lingerLimit`` while `lingering`
  /// says the lock's holder can only be a description this process let go; true once taken.
  static func waitingOutLinger(take: () -> Bool, lingering: () -> Bool) -> Bool {
    if take() { return true }
    var waited = 0
    while waited < lingerLimit, lingering() {
      usleep(UInt32(lingerStep * 1000))
      waited += lingerStep
      if take() { return true }
    }
    return false
  }

  /// How long, in milliseconds, a lock held by no other process is waited for.
  static let lingerLimit = 200
  /// The wait between two tries, in milliseconds.
  static let lingerStep = 5

  /// Why this process reads: another holds the writer role, named by its process id when the
  /// kernel says which (read from `/proc/locks`, never by taking the lock).
  static func heldReason(_ lockPath: String) -> String {
    guard let pid = holder(of: lockPath) else { return "another process holds the writer role" }
    let name = processName(pid).map { " (\($0))" } ?? ""
    return "another process holds the writer role: pid \(pid)\(name)"
  }

  /// Why this process reads when the lock file was free but the store file itself is held: a
  /// writer opened it by another name (a hard link, a bind mount), whose lock file is another.
  static let heldThroughAnotherName =
    "another process holds the writer role on this store file, opened by another name for it (a hard link or a bind mount)"

  /// The process holding a `flock` on the file at `lockPath`, from `/proc/locks`; nil when it
  /// cannot be found out.
  static func holder(of lockPath: String) -> Int32? {
    var st = stat()
    guard stat(lockPath, &st) == 0 else { return nil }
    guard let text = boundedRead("/proc/locks", limit: 4 << 20) else { return nil }
    // glibc's gnu_dev_major / gnu_dev_minor, which Swift does not import.
    let dev = UInt64(st.st_dev)
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~UInt64(0xfff))
    let minor = (dev & 0xff) | ((dev >> 12) & ~UInt64(0xff))
    let inode = UInt64(st.st_ino)
    for line in text.split(separator: "\n") {
      // "1: FLOCK  ADVISORY  WRITE 1234 00:2f:5678 0 EOF" (a blocked waiter's line has "->").
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE", let pid = Int32(fields[4]) else { continue }
      let place = fields[5].split(separator: ":")
      guard place.count == 3, let maj = UInt64(place[0], radix: 16), let min = UInt64(place[1], radix: 16),
        let ino = UInt64(place[2])
      else { continue }
      if maj == major && min == minor && ino == inode && pid != getpid() { return pid }
    }
    return nil
  }

  /// A process's command name, from `/proc/PID/comm`.
  static func processName(_ pid: Int32) -> String? {
    guard let text = boundedRead("/proc/\(pid)/comm", limit: 256) else { return nil }
    let name = text.trimmingSpacesAndNewlines()
    guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return nil }
    return name
  }

  /// Up to `limit` bytes of a small system file, as UTF-8.
  static func boundedRead(_ path: String, limit: Int) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while bytes.count < limit {
      let n = read(fd, &chunk, min(chunk.count, limit - bytes.count))
      if n <= 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
