import CLinux

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A watcher asks the kernel for long slices, so that a drain on the same device gets a CPU the
/// moment it wakes.
///
/// A watcher's work comes in bursts (a poll, a page of changes, a frame) at most every 100 ms,
/// and a few milliseconds' wait for a CPU is nothing to it. A drain is a ping-pong of request,
/// answer and commit, and every wait for a CPU is added to its time: with fifty watchers on two
/// CPUs it lost turns to them (docs/reliability.md, "Fifty watchers on one drain"). Under EEVDF
/// (Linux 6.12 and later) a thread that wakes with a shorter slice than the running one's
/// preempts it, so a watcher at ``nanoseconds`` lets a drain at the default slice in at once.
/// What a watcher may use is unchanged: its weight (its nice value) stays as it was, and it is
/// never made to give way to anything else. Older kernels ignore the request.
enum WatcherSlice {
  /// The slice a watcher asks for: 10 ms.
  static let nanoseconds: UInt64 = 10_000_000

  /// Asks for it on thread `tid` (0: the calling thread), keeping its policy and nice value;
  /// 0, or the errno the kernel gave (EPERM for a real-time thread, left as it is).
  static func request(thread tid: pid_t = 0) -> Int32 {
    clinux_request_slice(tid, nanoseconds)
  }

  /// Asks for it on every thread of this process; a thread started later inherits it from the
  /// thread that starts it. Returns how many threads took it.
  @discardableResult
  static func requestForEveryThread() -> Int {
    guard let folder = opendir("/proc/self/task") else { return request() == 0 ? 1 : 0 }
    defer { closedir(folder) }
    var taken = 0
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      guard let tid = pid_t(name) else { continue }
      if request(thread: tid) == 0 { taken += 1 }
    }
    return taken
  }
}
