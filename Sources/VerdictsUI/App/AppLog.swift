import FoundationEssentials
import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// Appends timestamped lines to the `--log` file; never the screen, never a key.
///
/// A line that cannot be written (a full disk, `/dev/full`, a file that went away) is dropped:
/// the log never stops the program. The first failure is reported once through ``onFailure``.
final class AppLog: Sendable {
  private let descriptor: Int32
  /// Whether lines are written in ASCII only (a locale that is not UTF-8).
  private let ascii: Bool
  /// What went wrong, whether it was reported, and whom to tell; lines are written under it too.
  private let state: Mutex<State>

  private struct State {
    var failure: String?
    var reported = false
    var tell: (@Sendable (String) -> Void)?
  }

  /// Opens (or makes, 0600) the log at `path`, a regular file reached without a link; with `ascii`, every line is written in ASCII only,
  /// control characters and all others outside ASCII as `\u{…}` (a locale that is not UTF-8).
  init(path: String?, ascii: Bool = false) {
    self.ascii = ascii
    guard let path else {
      descriptor = -1
      state = Mutex(State())
      return
    }
    // Never through a link, never a FIFO or a device (``NamedFile``); the command refused such a
    // --log before the screen started, so a refusal here is a file swapped since.
    var initial = State()
    switch NamedFile.openForAppending(path) {
    case .success(let fd): descriptor = fd
    case .failure(let refusal):
      descriptor = -1
      initial.failure = "the log \(path) \(refusal.reason); nothing is logged"
    }
    state = Mutex(initial)
  }

  /// Called once, with a sentence, the first time the log cannot be opened or written (at once
  /// when that already happened); set it before logging from other threads.
  var onFailure: (@Sendable (String) -> Void)? {
    get { state.withLock { $0.tell } }
    set {
      let due: String? = state.withLock { s in
        s.tell = newValue
        guard newValue != nil, let failure = s.failure, !s.reported else { return nil }
        s.reported = true
        return failure
      }
      if let due { newValue?(due) }
    }
  }

  /// What went wrong with the log, if anything did.
  var failureText: String? { state.withLock { $0.failure } }

  func log(_ text: String) {
    guard descriptor >= 0 else { return }
    let line = Array("\(Timestamp.now()) \(Sanitizer.clean(text, ascii: ascii))\n".utf8)
    let fd = descriptor
    let due: (String, @Sendable (String) -> Void)? = state.withLock { s in
      let written = line.withUnsafeBytes { Self.writeAll(fd, $0) }
      guard written != 0 else { return nil }
      if s.failure == nil {
        s.failure = "the log cannot be written (\(String(cString: strerror(written)))); its lines are dropped"
      }
      guard !s.reported, let tell = s.tell, let failure = s.failure else { return nil }
      s.reported = true
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
