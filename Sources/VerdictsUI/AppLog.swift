import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Appends timestamped lines to the `--log` file; never the screen, never a key.
///
/// A line that cannot be written (a full disk, `/dev/full`, a file that went away) is dropped:
/// the log never stops the program. The first failure is told once through ``onFailure``.
final class AppLog: @unchecked Sendable {
  private let descriptor: Int32
  private let lock = NSLock()
  private var failure: String?
  private var told = false
  private var tell: (@Sendable (String) -> Void)?

  init(path: String?) {
    guard let path else {
      descriptor = -1
      return
    }
    descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    if descriptor < 0 {
      failure = "the log \(path) cannot be opened (\(String(cString: strerror(errno)))); nothing is logged"
    }
  }

  /// Called once, with a sentence, the first time the log cannot be opened or written (at once
  /// when that already happened); set it before logging from other threads.
  var onFailure: (@Sendable (String) -> Void)? {
    get { lock.withLock { tell } }
    set {
      let due: String? = lock.withLock {
        tell = newValue
        guard newValue != nil, let failure, !told else { return nil }
        told = true
        return failure
      }
      if let due { newValue?(due) }
    }
  }

  /// What went wrong with the log, if anything did.
  var failureText: String? { lock.withLock { failure } }

  func log(_ text: String) {
    guard descriptor >= 0 else { return }
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let line = Array("\(f.string(from: Date())) \(Sanitizer.clean(text))\n".utf8)
    let due: (String, @Sendable (String) -> Void)? = lock.withLock {
      let written = line.withUnsafeBytes { Self.writeAll(descriptor, $0) }
      guard written != 0 else { return nil }
      if failure == nil {
        failure = "the log cannot be written (\(String(cString: strerror(written)))); its lines are dropped"
      }
      guard !told, let tell, let failure else { return nil }
      told = true
      return (failure, tell)
    }
    if let due { due.1(due.0) }
  }

  /// Writes every byte; returns 0, or the `errno` that stopped it.
  private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var offset = 0
    while offset < bytes.count {
      let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        return errno
      }
      if n == 0 { return EIO }
      offset += n
    }
    return 0
  }

  deinit { if descriptor >= 0 { close(descriptor) } }
}
