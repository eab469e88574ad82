#if canImport(Glibc)
  import Glibc
#endif

/// A value behind a lock, shared across threads: the standard library's `Mutex` API on a
/// `pthread_mutex_t`.
///
/// ThreadSanitizer sees a `pthread_mutex_t` (it intercepts its lock and unlock) but not
/// `Synchronization.Mutex`, whose futex lives in the uninstrumented standard library on Linux:
/// four threads counting under that lock to the right total were reported as racing. With this
/// lock, `make tsan` reports only what is not under a lock (docs/reliability.md, "Sanitizers").
public final class Mutex<Value>: @unchecked Sendable {  // unchecked: `value` is reached only under `lock`
  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// A lock holding `initialValue`.
  public init(_ initialValue: sending Value) {
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, nil)
    value = initialValue
  }

  deinit {
    pthread_mutex_destroy(lock)
    lock.deinitialize(count: 1)
    lock.deallocate()
  }

  /// Runs `body` on the value with the lock held, and answers what it answers.
  public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return try body(&value)
  }
}
