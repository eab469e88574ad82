import Foundation
import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// A child started with `posix_spawn` (in a session of its own) and reaped with `wait4`, so its
/// exit and its resource use (peak RSS, CPU) are the kernel's figures for that process.
///
/// Peak RSS: on Linux `ru_maxrss` carries the spawning process's own high-water mark across the
/// exec (the kernel keeps the larger of the old and the new memory's), so it reads at least the
/// bench's own `ru_maxrss`. When it reads more than that at the spawn, it is the child's own
/// peak; otherwise the child's `VmHWM` (reset by the exec) is taken, sampled until it ends (every
/// 10 ms for its first two seconds, then every 250 ms) and once more when the bench stops it.
final class SpawnedProcess: @unchecked Sendable {
  let pid: pid_t
  /// When `posix_spawn` was called.
  let started: ContinuousClock.Instant
  private(set) var ended: (status: Int32, usage: rusage, at: ContinuousClock.Instant)?
  /// The bench's own peak (kB; its `VmHWM` or its `ru_maxrss`, the larger) after the spawn, and 1 MB.
  let spawnerPeakKB: Int
  /// The child's largest `VmHWM` (kB) sampled so far.
  private let sampledPeakKB = Mutex(0)
  /// The child's wait for a CPU, summed over its threads, as last sampled while it ran
  /// (``wait(limit:)`` samples it every 100 ms; `/proc` forgets it once the child ends).
  private let sampledRunDelay = Mutex(0.0)

  /// Starts `executable arguments` with stdin, stdout and stderr on the given descriptors.
  init(
    _ executable: String, _ arguments: [String], environment: [String: String], stdin: Int32, stdout: Int32,
    stderr: Int32
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdin, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // POSIX_SPAWN_SETSID (glibc 2.26): the child is not in the bench's session or process group.
    posix_spawnattr_setflags(&attributes, Int16(0x80))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    started = ContinuousClock.now
    let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    guard rc == 0 else {
      throw BenchFailure(message: "cannot start \(executable): \(String(cString: strerror(rc)))")
    }
    pid = child
    // Read after the exec, the bench's peak bounds what the exec carried over.
    var own = rusage()
    getrusage(RUSAGE_SELF.rawValue, &own)
    spawnerPeakKB = max(Self.highWaterKB("self") ?? 0, Int(own.ru_maxrss)) + 1024
    // posix_spawn returns after the exec (vfork): every sample is the new program's.
    let who = "\(child)"
    let thread = Thread { [self] in
      let begun = ContinuousClock.now
      while let kb = Self.highWaterKB(who) {
        sampledPeakKB.withLock { $0 = max($0, kb) }
        // `VmHWM` is the kernel's own high-water mark: a sample misses only what the child grew
        // after the last one, when it ends by itself (``stop(_:grace:)`` samples first). Fifty
        // children each sampled every 10 ms took the bench two thirds of a core, which the drain
        // under measurement then waited for.
        usleep(ContinuousClock.now - begun < .seconds(2) ? 10_000 : 250_000)
      }
    }
    thread.start()
  }

  /// `VmHWM` of /proc/WHO/status in kB; nil when it cannot be read (the process ended).
  static func highWaterKB(_ who: String) -> Int? {
    let fd = open("/proc/\(who)/status", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    // The file is read as bytes and only the one line looked at: no text is made.
    var bytes = [UInt8](repeating: 0, count: 8192)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard n > 0 else { return nil }
    return highWaterKB(status: bytes[..<n])
  }

  /// `VmHWM` in kB in the bytes of a `/proc/PID/status` file; nil when it holds none.
  static func highWaterKB(status: ArraySlice<UInt8>) -> Int? {
    let key = Array("VmHWM:".utf8)
    var start = status.startIndex
    while start < status.endIndex {
      let end = status[start...].firstIndex(of: UInt8(ascii: "\n")) ?? status.endIndex
      let line = status[start..<end]
      if line.starts(with: key) {
        let digits = line.dropFirst(key.count).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
          .prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return digits.isEmpty ? nil : Int(String(decoding: digits, as: UTF8.self))
      }
      start = end + 1
    }
    return nil
  }

  /// Samples the child's `VmHWM` now (before a signal ends it).
  func samplePeak() {
    if let kb = Self.highWaterKB("\(pid)") { sampledPeakKB.withLock { $0 = max($0, kb) } }
  }

  /// Waits for the child to end (at most `limit`; then SIGKILL) and returns its exit code (128+signal
  /// when a signal ended it).
  @discardableResult
  func wait(limit: Duration = .seconds(3600)) -> Int32 {
    if let ended { return Self.code(ended.status) }
    let deadline = ContinuousClock.now + limit
    var status: Int32 = 0
    var usage = rusage()
    var looks = 0
    while true {
      let r = wait4(pid, &status, WNOHANG, &usage)
      if r == pid { break }
      if r < 0 && errno != EINTR { break }
      if ContinuousClock.now > deadline { kill(pid, SIGKILL) }
      if looks % 50 == 0 { sampleRunDelay() }
      looks += 1
      usleep(2_000)
    }
    ended = (status, usage, ContinuousClock.now)
    return Self.code(status)
  }

  /// Samples the child's wait for a CPU now.
  func sampleRunDelay() {
    if let seconds = ProcStats.runDelaySeconds(pid: pid) { sampledRunDelay.withLock { $0 = max($0, seconds) } }
  }

  /// Seconds the child's threads waited on a run queue for a CPU, as last sampled before it ended.
  var runDelaySeconds: Double { sampledRunDelay.withLock { $0 } }

  /// Sends `signal` and waits up to `grace` for the child to end, then SIGKILL.
  @discardableResult
  func stop(_ signal: Int32 = SIGTERM, grace: Duration = .seconds(5)) -> Int32 {
    samplePeak()
    if ended == nil { kill(pid, signal) }
    return wait(limit: grace)
  }

  /// Whether the child has not ended (reaping it when it has).
  var isRunning: Bool {
    if ended != nil { return false }
    var status: Int32 = 0
    var usage = rusage()
    let r = wait4(pid, &status, WNOHANG, &usage)
    if r == pid {
      ended = (status, usage, ContinuousClock.now)
      return false
    }
    return true
  }

  /// The child's peak resident set in MB (1,048,576 B), once it ended: `ru_maxrss` when it is above
  /// the bench's own peak at the spawn, else the child's sampled `VmHWM`.
  var peakMB: Double {
    let maxrss = ended.map { Int($0.usage.ru_maxrss) } ?? 0
    return Double(maxrss > spawnerPeakKB ? maxrss : sampledPeakKB.withLock { $0 }) / 1024
  }

  /// User + system CPU seconds the child used, once it ended.
  var cpuSeconds: Double {
    guard let u = ended?.usage else { return 0 }
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + systemSeconds
  }

  /// The system part of ``cpuSeconds``: CPU seconds the kernel spent for the child, once it ended.
  var systemSeconds: Double {
    guard let u = ended?.usage else { return 0 }
    return Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
  }

  /// How long it ran, once it ended.
  var seconds: Double { ended.map { Stats.seconds($0.at - started) } ?? .nan }

  /// 128+signal for a signal, else the exit code (the shell's convention).
  static func code(_ status: Int32) -> Int32 {
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// Runs a command to its end with stdout and stderr into files (or /dev/null) and returns it ended.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String], stdout: String? = nil,
    stderr: String? = nil, limit: Duration = .seconds(7200)
  ) throws -> SpawnedProcess {
    let null = open("/dev/null", O_RDWR)
    defer { close(null) }
    let out = stdout.map { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } ?? null
    let err = stderr.map { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } ?? null
    defer {
      if out != null { close(out) }
      if err != null { close(err) }
    }
    let p = try SpawnedProcess(executable, arguments, environment: environment, stdin: null, stdout: out, stderr: err)
    p.wait(limit: limit)
    return p
  }
}
