import Dispatch
import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// A command run on the device through ssh, its streams this process's: standard input as it
/// is, and standard output and error as they are too, unless they are a terminal. Then each line
/// the device sends is made safe first (``Sanitizer``): a device is another machine, and what it
/// prints never reaches the person's terminal raw (an escape sequence in it would act there).
package enum DeviceCommand {
  /// Runs `argv` (its first word a path) to its end; its exit code (128+signal).
  package static func run(_ argv: [String], environment: [String: String], ascii: Bool) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var relays: [(read: Int32, write: Int32, to: Int32)] = []
    for stream in [STDOUT_FILENO, STDERR_FILENO] where isatty(stream) == 1 {
      var ends: [Int32] = [0, 0]
      guard pipe(&ends) == 0 else { continue }
      for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      posix_spawn_file_actions_adddup2(&actions, ends[1], stream)
      relays.append((ends[0], ends[1], stream))
    }
    let spawned = ChildIO.spawn(argv, environment: environment, actions: &actions, attributes: nil)
    for r in relays { close(r.write) }
    let child: pid_t
    switch spawned {
    case .success(let pid): child = pid
    case .failure(let error):
      for r in relays { close(r.read) }
      throw RemoteFailure(queue: nil, message: "cannot start ssh: \(error.words)")
    }
    let done = DispatchSemaphore(value: 0)
    for r in relays {
      DetachedThread.start(name: "verdicts-relay") {
        relay(from: r.read, to: r.to, ascii: ascii)
        close(r.read)
        done.signal()
      }
    }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    for _ in relays { done.wait() }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// Copies lines from `source` to `target`, each made safe, until `source` ends.
  static func relay(from source: Int32, to target: Int32, ascii: Bool) {
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(source, &chunk, chunk.count)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      pending += chunk[0..<n]
      while let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
        write(safe(Array(pending[..<nl]), ascii: ascii) + "\n", to: target)
        pending.removeSubrange(...nl)
      }
    }
    if !pending.isEmpty { write(safe(pending, ascii: ascii), to: target) }
  }

  /// One line as it may reach a terminal.
  static func safe(_ line: [UInt8], ascii: Bool) -> String {
    Sanitizer.clean(String(decoding: line, as: UTF8.self), ascii: ascii)
  }

  private static func write(_ text: String, to fd: Int32) { _ = ChildIO.writeAll(Array(text.utf8), to: fd) }

}
