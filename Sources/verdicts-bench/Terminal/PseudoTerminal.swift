import Foundation
import MarfaWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The built `verdicts` on a pseudo-terminal of a given size, started with `posix_spawn` (its
/// exec is the origin of every time) and reaped with `wait4`. Every byte it sends is kept with the
/// time the bench read it; behind an ``SSHLink`` the bench reads only as fast as the link's
/// buffer has room, and each chunk also carries when its last byte reaches the far end.
final class PseudoTerminal: Sendable {
  /// One read from the terminal.
  struct Chunk: Sendable {
    var time: ContinuousClock.Instant
    var bytes: [UInt8]
    /// When its last byte reaches the person (through the link; `time` without one).
    var delivered: ContinuousClock.Instant
  }

  let child: SpawnedProcess
  let width: Int
  let height: Int
  private let master: Int32
  private let chunks = MarfaWire.Mutex<[Chunk]>([])
  private let link: MarfaWire.Mutex<SSHLink?>
  private let origin = ContinuousClock.now
  private let closed = Atomic<Bool>(false)

  /// Starts `executable arguments` on a fresh terminal of `width`×`height`, optionally behind `link`.
  init(
    executable: String, arguments: [String], environment: [String: String], width: Int, height: Int,
    link: SSHLink? = nil
  ) throws {
    // posix_openpt, unlockpt and ptsname do not reach Swift through Glibc; the Linux ioctls do
    // the same (grantpt is a no-op with devpts).
    let m = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard m >= 0, ioctl(m, Self.setLock, &unlock) == 0, ioctl(m, Self.getNumber, &number) == 0 else {
      throw BenchFailure(message: "no pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    master = m
    self.width = width
    self.height = height
    self.link = MarfaWire.Mutex(link)
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(m, UInt(TIOCSWINSZ), &size)
    let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else { throw BenchFailure(message: "cannot open /dev/pts/\(number)") }
    defer { close(slave) }
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    defer { close(null) }
    child = try SpawnedProcess(
      executable, arguments, environment: environment, stdin: slave, stdout: slave, stderr: null)
    let thread = Thread { [self] in readLoop() }
    thread.name = "pty-reader"
    thread.start()
  }

  /// `TIOCSPTLCK` and `TIOCGPTN` (`_IOW('T', 0x31, int)`, `_IOR('T', 0x30, unsigned int)`).
  static let setLock: UInt = 0x4004_5431
  static let getNumber: UInt = 0x8004_5430

  private func seconds(_ t: ContinuousClock.Instant) -> Double { Stats.seconds(t - origin) }

  private func readLoop() {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !closed.load(ordering: .relaxed) {
      // Behind a link, read only what its buffer has room for (the program's writes block meanwhile).
      var most = buffer.count
      if let wait = link.withLock({ l in l.map { $0.wait(for: 4096, at: seconds(.now)) } }) {
        if wait > 0 {
          usleep(UInt32(min(wait, 0.05) * 1e6))
          continue
        }
        most = min(most, link.withLock { $0?.room(at: seconds(.now)) } ?? most)
      }
      var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      let ready = poll(&p, 1, 100)
      if ready == 0 { continue }
      if ready < 0 {
        if errno == EINTR { continue }
        return
      }
      let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, most) }
      if n <= 0 {
        if n < 0 && errno == EINTR { continue }
        return
      }
      let now = ContinuousClock.now
      var delivered = now
      link.withLock { l in
        if l != nil { delivered = origin + .seconds(l!.accept(n, at: seconds(now))) }
      }
      chunks.withLock { $0.append(Chunk(time: now, bytes: Array(buffer[0..<n]), delivered: delivered)) }
    }
  }

  /// Every chunk received so far.
  var received: [Chunk] { chunks.withLock { $0 } }

  /// Every byte received so far.
  var total: Int { chunks.withLock { $0.reduce(0) { $0 + $1.bytes.count } } }

  /// The bytes received in [from, to).
  func bytes(from: ContinuousClock.Instant, to: ContinuousClock.Instant) -> Int {
    chunks.withLock { $0.filter { $0.time >= from && $0.time < to }.reduce(0) { $0 + $1.bytes.count } }
  }

  /// The bytes themselves received in [from, to), with a line `@ms` before each read (for
  /// `VERDICTS_BENCH_DUMP`: what a verdict sent, to take apart).
  func transcript(from: ContinuousClock.Instant, to: ContinuousClock.Instant) -> [UInt8] {
    chunks.withLock {
      $0.filter { $0.time >= from && $0.time < to }.flatMap { chunk in
        Array("\n@\(Stats.fixed(Stats.seconds(chunk.time - from) * 1000, 1)) ms \(chunk.bytes.count) B\n".utf8)
          + chunk.bytes
      }
    }
  }

  /// When the last byte arrived.
  var lastArrival: ContinuousClock.Instant? { chunks.withLock { $0.last?.time } }

  /// Waits until some bytes came and then none for `quiet`, or `limit` passed.
  func settle(quiet: Duration, limit: Duration) async {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if let last = lastArrival, ContinuousClock.now - last >= quiet { return }
      try? await Task.sleep(for: .milliseconds(10))
    }
  }

  /// Sends keys to the program.
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Ends the program (`q`, then SIGTERM, then SIGKILL), reaps it and closes the terminal.
  func finish() {
    child.samplePeak()
    if child.isRunning {
      type("q")
      child.wait(limit: .seconds(3))
    }
    if child.isRunning { child.stop(SIGTERM, grace: .seconds(3)) }
    closed.store(true, ordering: .relaxed)
    usleep(120_000)
    close(master)
  }
}
