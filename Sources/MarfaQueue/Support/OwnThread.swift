#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Marks the threads this library starts for itself (an ``HTTPClient``'s driver), which may
/// wait briefly on the store's queue: a task running there enters the queue in place
/// (``Store/run(_:)``) instead of hopping to another thread and back. The threads of Swift's
/// shared pool are never marked, so nothing blocks them.
enum OwnThread {
  /// The thread-local slot (a POSIX key, made once); its value is the marking object's address.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
    return key
  }()

  /// Marks the calling thread as owned by `owner` (for its life; the owner outlives its thread).
  static func mark(_ owner: AnyObject) {
    pthread_setspecific(key, UnsafeRawPointer(Unmanaged.passUnretained(owner).toOpaque()))
  }

  /// Whether the calling thread is one of this library's own.
  static var isOwn: Bool { pthread_getspecific(key) != nil }

  /// Whether the calling thread is `owner`'s.
  static func isOwned(by owner: AnyObject) -> Bool {
    pthread_getspecific(key) == UnsafeMutableRawPointer(Unmanaged.passUnretained(owner).toOpaque())
  }
}
