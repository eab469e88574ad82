import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A child process on a pseudo-terminal of a given size, every byte it sends counted with the
/// time it arrived.
final class PseudoTerminal: Sendable {
  let process = Process()
  private let master: Int32
  private let slave: FileHandle
  /// The bytes received so far, each chunk with the time it arrived.
  private let chunks = Mutex<[(time: ContinuousClock.Instant, bytes: [UInt8])]>([])

  /// Starts `executable arguments` on a fresh terminal of `width`×`height`.
  init(executable: String, arguments: [String], environment: [String: String], width: Int, height: Int) throws {
    // posix_openpt, unlockpt and ptsname do not reach Swift through Glibc; the Linux ioctls do
    // the same (grantpt is a no-op with devpts).
    let m = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard m >= 0, ioctl(m, Self.setLock, &unlock) == 0, ioctl(m, Self.getNumber, &number) == 0 else {
      throw BenchFailure(message: "no pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    let name = "/dev/pts/\(number)"
    master = m
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(m, UInt(TIOCSWINSZ), &size)
    let path = name
    let fd = open(path, O_RDWR | O_NOCTTY)
    guard fd >= 0 else { throw BenchFailure(message: "cannot open \(path)") }
    slave = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.standardInput = slave
    process.standardOutput = slave
    process.standardError = FileHandle.nullDevice
    let thread = Thread { [weak self] in self?.readLoop() }
    thread.name = "pty-reader"
    thread.start()
    try process.run()
  }

  /// `TIOCSPTLCK` and `TIOCGPTN` (`_IOW('T', 0x31, int)`, `_IOR('T', 0x30, unsigned int)`).
  static let setLock: UInt = 0x4004_5431
  static let getNumber: UInt = 0x8004_5430

  private func readLoop() {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      if n <= 0 {
        if n < 0 && errno == EINTR { continue }
        return
      }
      let now = ContinuousClock.now
      chunks.withLock { $0.append((now, Array(buffer[0..<n]))) }
    }
  }

  /// Every byte received so far.
  var total: Int { chunks.withLock { $0.reduce(0) { $0 + $1.bytes.count } } }

  /// The bytes received in [from, to).
  func bytes(from: ContinuousClock.Instant, to: ContinuousClock.Instant) -> [UInt8] {
    chunks.withLock { $0.filter { $0.time >= from && $0.time < to }.flatMap(\.bytes) }
  }

  /// When each chunk in [from, to) arrived.
  func arrivals(from: ContinuousClock.Instant, to: ContinuousClock.Instant) -> [ContinuousClock.Instant] {
    chunks.withLock { $0.filter { $0.time >= from && $0.time < to }.map(\.time) }
  }

  /// When the last byte arrived.
  var lastArrival: ContinuousClock.Instant? { chunks.withLock { $0.last?.time } }

  /// Waits until some bytes came and then none for `quiet`, or `limit` passed.
  func settle(quiet: Duration, limit: Duration) async {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if let last = lastArrival, ContinuousClock.now - last >= quiet { return }
      try? await Task.sleep(for: .milliseconds(20))
    }
  }

  /// Sends keys to the program.
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Ends the program (SIGTERM after `q` when it does not quit) and closes the terminal.
  func finish() {
    type("q")
    let deadline = Date().addingTimeInterval(3)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    try? slave.close()
    close(master)
  }
}
