import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The built `verdicts` on a pseudo-terminal of its own, as a person's terminal: a size set
/// before it starts, a shell's modes (echo, line editing) set on it, keys typed, every byte the
/// program sends kept, and the modes readable after the program ended, as the shell would find
/// them (the test keeps the terminal's slave side open).
final class ScreenPty: @unchecked Sendable {
  private let master: Int32
  private let slave: Int32
  let process = ChildProcess()
  private let lock = NSLock()
  private var received: [UInt8] = []
  private var closed = false
  /// Whether ``hangUp()`` closed the master side already.
  private var hungUp = false
  /// The modes set before the program started.
  let before: termios

  /// Starts `verdicts arguments` on a terminal of `width`×`height` (TERM=xterm-256color unless
  /// `environment` names another).
  init(
    _ arguments: [String], environment: [String: String], width: Int = 120, height: Int = 40,
    folder: String? = nil
  ) throws {
    let binary = try Binary.require()
    // posix_openpt and ptsname do not reach Swift through Glibc; the Linux ioctls do the same.
    let m = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard m >= 0, ioctl(m, 0x4004_5431, &unlock) == 0, ioctl(m, 0x8004_5430, &number) == 0 else {
      throw Binary.SpawnFailure(message: "no pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    master = m
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(m, UInt(TIOCSWINSZ), &size)
    slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else { throw Binary.SpawnFailure(message: "cannot open /dev/pts/\(number)") }
    // A shell's modes: line editing, echo, signals from keys, CR to NL, NL to CR NL.
    var modes = termios()
    tcgetattr(slave, &modes)
    modes.c_lflag |= tcflag_t(ECHO | ICANON | ISIG | ECHOE)
    modes.c_iflag |= tcflag_t(ICRNL)
    modes.c_oflag |= tcflag_t(OPOST | ONLCR)
    tcsetattr(slave, TCSANOW, &modes)
    before = modes
    var env = environment
    if env["TERM"] == nil { env["TERM"] = "xterm-256color" }
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.environment = env
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    let thread = Thread { [self] in readLoop() }
    thread.start()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    lock.withLock { closed = true }
    usleep(150_000)
    if !lock.withLock({ hungUp }) { close(master) }
    close(slave)
  }

  /// Closes the terminal's master side, as an SSH server or a terminal window does when it goes
  /// away. No SIGHUP comes with it: this is not the program's controlling terminal.
  func hangUp() {
    lock.withLock { closed = true }
    usleep(150_000)
    lock.withLock { hungUp = true }
    close(master)
  }

  private func readLoop() {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !lock.withLock({ closed }) {
      var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      let ready = poll(&p, 1, 50)
      if ready <= 0 { continue }
      let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      if n <= 0 {
        if n < 0 && errno == EINTR { continue }
        if n < 0 && errno == EIO { usleep(20_000) }
        continue
      }
      lock.withLock { received += buffer[0..<n] }
    }
  }

  /// Every byte the program sent so far.
  var bytes: [UInt8] { lock.withLock { received } }

  /// What it sent so far, as text.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Types `keys`.
  func type(_ keys: String) {
    let b = Array(keys.utf8)
    _ = b.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Makes the terminal `width`×`height` and, with `signal`, tells the program (SIGWINCH; a
  /// process without this terminal as its controlling one gets none from the kernel).
  func resize(width: Int, height: Int, signal: Bool = true) {
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    if signal, process.isRunning { kill(process.processIdentifier, SIGWINCH) }
  }

  /// Everything sent after the first `count` bytes, as text.
  func text(after count: Int) -> String { String(decoding: bytes.dropFirst(count), as: UTF8.self) }

  /// Waits until the program sent `needle`, at most `timeout` seconds; false if it did not.
  func waitFor(_ needle: String, timeout: Double) -> Bool {
    waitUntil(within: .seconds(timeout)) { text.contains(needle) }
  }

  /// Waits for the program to end, at most `timeout` seconds; false if it still runs.
  func waitForExit(timeout: Double) -> Bool {
    waitUntil(within: .seconds(timeout)) { !process.isRunning }
  }

  /// Ends the program if it still runs (SIGKILL) and waits for it.
  func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// The signal that ended the program, nil when it exited.
  var signal: Int32? { process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil }

  /// The terminal's modes now (after the program ended: as the person's shell finds them).
  var modes: termios {
    var t = termios()
    tcgetattr(slave, &t)
    return t
  }

  /// Whether the terminal's modes are the ones set before the program started (echo, line
  /// editing and the rest).
  var modesRestored: Bool {
    let now = modes
    return now.c_lflag == before.c_lflag && now.c_iflag == before.c_iflag && now.c_oflag == before.c_oflag
      && now.c_cflag == before.c_cflag
  }
}
