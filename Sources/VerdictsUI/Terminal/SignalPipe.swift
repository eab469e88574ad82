import FoundationEssentials
import Glibc

/// The write end of the pipe the signal handlers write to (one byte, the signal's number).
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// A self-pipe the UI thread polls: signals (INT, TERM, HUP, WINCH) and tasks wake it.
///
/// The handlers only `write(2)` one byte, which is async-signal-safe; the UI thread reads the
/// bytes and acts (restores the terminal and quits, or resizes).
final class SignalPipe: Sendable {
  let readEnd: Int32
  let writeEnd: Int32

  /// Signals that end the app.
  static let quitSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  init() {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    readEnd = fds[0]
    writeEnd = fds[1]
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
  }

  /// Installs the handlers for the quit signals and SIGWINCH.
  func installHandlers() {
    signalPipeWriteEnd = writeEnd
    for sig in Self.quitSignals + [SIGWINCH] {
      signal(sig) { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(signalPipeWriteEnd, &byte, 1)
      }
    }
  }

  /// Puts the default handlers back.
  func removeHandlers() {
    for sig in Self.quitSignals + [SIGWINCH] { signal(sig, SIG_DFL) }
    signalPipeWriteEnd = -1
  }

  /// Wakes the UI thread (a zero byte).
  func wake() {
    var byte: UInt8 = 0
    _ = write(writeEnd, &byte, 1)
  }

  /// Waits until input, a signal or a wake arrives, or the timeout (ms; -1 forever) passes;
  /// true when the input hung up (its terminal is gone: every later wait would return at once).
  @discardableResult
  func wait(input: Int32?, timeoutMs: Int32) -> Bool {
    var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
    if let input { fds.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
    guard poll(&fds, nfds_t(fds.count), timeoutMs) > 0, fds.count > 1 else { return false }
    return fds[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
  }

  /// The signals caught since the last call (wakes are dropped).
  func drain() -> [Int32] {
    var out: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let n = read(readEnd, &buffer, buffer.count)
      if n <= 0 { break }
      for b in buffer[0..<n] where b != 0 { out.append(Int32(b)) }
    }
    return out
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }
}
