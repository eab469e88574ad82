#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A named thread of its own (a POSIX thread, detached), for loops that block in the kernel:
/// Foundation's `Thread` without Foundation.
public enum DetachedThread {
  fileprivate final class Body {
    let name: String
    let run: () -> Void
    init(name: String, run: @escaping () -> Void) {
      self.name = name
      self.run = run
    }
  }

  /// Starts `body` on a new detached thread named `name` (cut to the kernel's 15 bytes), with a
  /// stack of `stackSize` bytes (default: the process's, from `ulimit -s`).
  public static func start(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    let started = tryStart(name: name, stackSize: stackSize, body)
    precondition(started == 0, "pthread_create failed: \(started)")
  }

  /// Starts `body` as ``start(name:stackSize:_:)`` does; returns 0, or the error number when no
  /// thread could be made (`EAGAIN`: no memory for its stack, or too many threads).
  public static func tryStart(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Int32 {
    let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    var thread = pthread_t()
    let started = pthread_create(
      &thread, &attributes,
      { raw in
        let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
        let short = String(decoding: body.name.utf8.prefix(15), as: UTF8.self)
        nameThisThread(short)
        body.run()
        return nil
      }, box)
    pthread_attr_destroy(&attributes)
    if started != 0 { Unmanaged<Body>.fromOpaque(box).release() }
    return started
  }

  /// Sleeps the calling thread for `seconds`.
  public static func sleep(seconds: Double) {
    guard seconds > 0 else { return }
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var left = timespec()
    while nanosleep(&time, &left) == -1 && errno == EINTR { time = left }
  }
}

/// Names the calling thread as `ps -L` and `/proc` show it (what `prctl(PR_SET_NAME)` does).
private func nameThisThread(_ name: String) {
  let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
  guard fd >= 0 else { return }
  _ = name.withCString { write(fd, $0, strlen($0)) }
  close(fd)
}
