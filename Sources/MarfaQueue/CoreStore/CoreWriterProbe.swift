import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Whether the Marfa core's writer holds a store, asked without taking any lock.
///
/// The core's writer holds `BEGIN EXCLUSIVE` on its writer-lock file while it lives (reference
/// section 1). `fcntl(F_GETLK)` asks the kernel who would stop a read lock on SQLite's RESERVED
/// byte (offset 0x40000001) of that file: a holder answers `F_WRLCK` and its pid, none `F_UNLCK`.
/// It takes nothing, so a starting app never loses its writer role to this probe (a probe through
/// SQLite itself takes a brief SHARED lock, which can). The file is opened read-only and only if it
/// exists; it is never created or written.
public enum CoreWriterProbe {
  /// A process holding a core store's writer lock.
  public struct Writer: Sendable, Hashable {
    /// The holder's pid.
    public var pid: Int32
    /// The holder's command name (`/proc/PID/comm`), when the system says it.
    public var program: String?
    /// The lock file it holds.
    public var lockPath: String
  }

  /// SQLite's RESERVED byte, which an exclusive transaction holds.
  static let reservedByte: Int = 0x4000_0001

  /// The writer of the core store at `storePath`, or nil when none holds its lock (or there is no
  /// lock file: no core writer has run yet).
  public static func writer(of storePath: String) -> Writer? {
    for lockPath in CoreStoreLayout.lockPaths(for: storePath) {
      if let pid = holder(of: lockPath) {
        return Writer(pid: pid, program: StoreLock.processName(pid), lockPath: lockPath)
      }
    }
    return nil
  }

  /// The pid holding a write lock on the RESERVED byte of `path`, or nil.
  static func holder(of path: String) -> Int32? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var probe = flock()
    probe.l_type = Int16(F_RDLCK)
    probe.l_whence = Int16(SEEK_SET)
    probe.l_start = off_t(reservedByte)
    probe.l_len = 1
    guard fcntl(fd, F_GETLK, &probe) == 0, probe.l_type == Int16(F_WRLCK) else { return nil }
    return probe.l_pid
  }
}
