import FoundationEssentials
import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// The ssh process a link runs through: its stdin and stdout are the link, its stderr is kept
/// (the last 4 KB) to say why it ended.
package final class LinkProcess: Sendable {
  /// The child's pid.
  package let pid: pid_t
  /// Where calls are written (the child's stdin).
  package let input: Int32
  /// Where lines are read (the child's stdout).
  package let output: Int32
  private let errors: Int32
  private let said = Mutex<[UInt8]>([])
  private let ended = Mutex<Int32?>(nil)

  /// Starts `argv` (its first word a path) with pipes for its three streams.
  package init(_ argv: [String], environment: [String: String]) throws {
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    var errChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0, pipe(&fromChild) == 0, pipe(&errChild) == 0 else {
      throw RemoteFailure(queue: nil, message: "cannot make a pipe: \(String(cString: strerror(errno)))")
    }
    // Not inherited by another child (a second link's ssh would hold this one's pipes open).
    for fd in toChild + fromChild + errChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errChild[1], 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A session of its own: Ctrl-C on the screen's terminal never reaches ssh (the screen ends
    // the link itself), and ssh never reads the terminal (a password prompt would take it).
    posix_spawnattr_setflags(&attributes, Int16(0x80))
    let spawned = ChildIO.spawn(argv, environment: environment, actions: &actions, attributes: &attributes)
    close(toChild[0])
    close(fromChild[1])
    close(errChild[1])
    let child: pid_t
    switch spawned {
    case .success(let pid): child = pid
    case .failure(let error):
      close(toChild[1])
      close(fromChild[0])
      close(errChild[0])
      throw RemoteFailure(queue: nil, message: "cannot start \(argv[0]): \(error.words)")
    }
    pid = child
    input = toChild[1]
    output = fromChild[0]
    errors = errChild[0]
    signal(SIGPIPE, SIG_IGN)
    let errors = self.errors
    let said = self.said
    DetachedThread.start(name: "verdicts-ssh-err") {
      var chunk = [UInt8](repeating: 0, count: 1024)
      while true {
        let n = read(errors, &chunk, chunk.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        said.withLock {
          $0 += chunk[0..<n]
          if $0.count > 4096 { $0.removeFirst($0.count - 4096) }
        }
      }
      close(errors)
    }
  }

  /// What the process wrote on its stderr (its last 4 KB), as text made safe for a terminal,
  /// one line.
  package var stderrText: String {
    let text = String(decoding: said.withLock { $0 }, as: UTF8.self)
    let lines = text.split(whereSeparator: \.isNewline).map { String($0).trimmingSpaces() }
    return Sanitizer.clean(lines.filter { !$0.isEmpty }.suffix(2).joined(separator: " "))
  }

  /// Writes all of `bytes` to the child's stdin; false when the link is gone.
  package func send(_ bytes: [UInt8]) -> Bool { ChildIO.writeAll(bytes, to: input) }

  /// Ends the child (SIGTERM, then SIGKILL after `grace`) and reaps it; its exit code (128+signal).
  @discardableResult
  package func stop(grace: Duration = .seconds(2)) -> Int32 {
    if let code = ended.withLock({ $0 }) { return code }
    close(input)
    kill(pid, SIGTERM)
    let deadline = ContinuousClock.now + grace
    while ContinuousClock.now < deadline {
      if let code = reap(block: false) { return code }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
    return reap(block: true) ?? 137
  }

  /// Waits for the child to end; its exit code (128+signal).
  package func waitForExit() -> Int32 {
    if let code = ended.withLock({ $0 }) { return code }
    close(input)
    return reap(block: true) ?? 255
  }

  private func reap(block: Bool) -> Int32? {
    var status: Int32 = 0
    while true {
      let r = waitpid(pid, &status, block ? 0 : WNOHANG)
      if r < 0 && errno == EINTR { continue }
      if r == pid {
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        ended.withLock { $0 = code }
        close(output)
        return code
      }
      return r < 0 ? 255 : nil
    }
  }
}

/// Lines read from a descriptor, on the caller's thread.
package struct LineReader {
  private let fd: Int32
  private var buffer: [UInt8] = []
  private var start = 0

  package init(fd: Int32) { self.fd = fd }

  /// The next line without its line break; nil at the end or on a line over
  /// ``RemoteWire/lineLimit``.
  package mutating func next() -> [UInt8]? {
    while true {
      if let nl = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffer[start..<nl])
        start = nl + 1
        if start > 65536 {
          buffer.removeFirst(start)
          start = 0
        }
        return line
      }
      if buffer.count - start > RemoteWire.lineLimit { return nil }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = read(fd, &chunk, chunk.count)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return nil }
      buffer += chunk[0..<n]
    }
  }
}
