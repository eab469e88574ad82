import Foundation
import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// A child process for the tests, started with `posix_spawn` and reaped by a thread of its own:
/// the part of Foundation's `Process` the suites use, under the same names.
///
/// Foundation's `Process.run()` on Linux lists `/proc/self/fd` and copies each entry's whole
/// 256-byte `d_name` out of `readdir`'s buffer, reading past its end (AddressSanitizer:
/// heap-buffer-overflow in `findMaximumOpenFromProcSelfFD`); once, in CI, the read met an
/// unmapped page and the test process died in `memcpy`. This one closes the parent's other
/// descriptors in the child with `posix_spawn_file_actions_addclosefrom_np` instead.
///
/// As `Process` does, the child gets a process group of its own, an empty signal mask and the
/// parent's ignored signals (so a test that must have default signals spawns `env
/// --default-signal`); a standard stream left nil is the parent's; for a `Pipe`, the child gets
/// the pipe's end and the parent closes its copy of that end after the spawn.
public final class ChildProcess: @unchecked Sendable {
  /// Why the child ended, as `Process.TerminationReason` says it.
  public enum TerminationReason: Sendable {
    case exit, uncaughtSignal
  }

  public var executableURL: URL?
  public var arguments: [String]?
  /// The child's whole environment; nil: the parent's.
  public var environment: [String: String]?
  public var currentDirectoryURL: URL?
  /// A `Pipe`, a `FileHandle`, or nil for the parent's stream.
  public var standardInput: Any?
  public var standardOutput: Any?
  public var standardError: Any?
  /// Called once, on a thread of its own, when the child has ended and been reaped.
  public var terminationHandler: (@Sendable (ChildProcess) -> Void)?

  private struct State {
    var pid: pid_t = 0
    var running = false
    var status: Int32 = 0
    var reason = TerminationReason.exit
  }

  private let state = Mutex(State())
  private let ended = NSCondition()
  private var hasEnded = false

  public init() {}

  public var processIdentifier: Int32 { state.withLock { $0.pid } }
  public var isRunning: Bool { state.withLock { $0.running } }
  /// The exit code, or the signal's number when the reason is `uncaughtSignal`.
  public var terminationStatus: Int32 { state.withLock { $0.status } }
  public var terminationReason: TerminationReason { state.withLock { $0.reason } }

  /// A spawn that did not happen, with the system's reason.
  public struct SpawnError: Error, CustomStringConvertible {
    public let description: String
  }

  /// Starts the child; throws when it cannot be started (nothing runs then).
  public func run() throws {
    guard let executable = executableURL?.path else { throw SpawnError(description: "no executable given") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var parentEnds: [FileHandle] = []
    for (stream, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
      switch stream {
      case let pipe as Pipe:
        let childEnd = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
        posix_spawn_file_actions_adddup2(&actions, childEnd.fileDescriptor, target)
        parentEnds.append(childEnd)
      case let handle as FileHandle:
        posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
      default:
        break
      }
    }
    guard let closeFrom = Self.addCloseFrom, let changeDirectory = Self.addChangeDirectory else {
      throw SpawnError(description: "this glibc has no posix_spawn_file_actions_addclosefrom_np (2.34)")
    }
    _ = closeFrom(&actions, 3)
    if let directory = currentDirectoryURL?.path { _ = changeDirectory(&actions, directory) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
    var env = environment ?? ProcessInfo.processInfo.environment
    // Under `make asan` / `make tsan` the binaries are sanitized too: they take the suite's
    // options (leak checking off: the Swift runtime's caches read as leaks at exit), whatever
    // environment a test gives them.
    for key in ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "VERDICTS_SANITIZER"] where env[key] == nil {
      env[key] = ProcessInfo.processInfo.environment[key]
    }
    let argv = ([executable] + (arguments ?? [])).map { strdup($0) } + [nil]
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var child: pid_t = 0
    let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
    guard rc == 0 else {
      throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(rc)))")
    }
    for handle in parentEnds { try? handle.close() }
    state.withLock {
      $0.pid = child
      $0.running = true
    }
    let reaper = Thread { [self, child] in reap(child) }
    reaper.start()
  }

  /// Waits until the child has ended and been reaped.
  public func waitUntilExit() {
    ended.lock()
    while !hasEnded { ended.wait() }
    ended.unlock()
  }

  /// Sends SIGTERM.
  public func terminate() {
    let pid = processIdentifier
    if pid > 0 && isRunning { kill(pid, SIGTERM) }
  }

  private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
  private typealias AddChangeDirectory =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

  // glibc declares these only under _GNU_SOURCE, which the Glibc module is not built with.
  private static let addCloseFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
    unsafeBitCast($0, to: AddCloseFrom.self)
  }
  private static let addChangeDirectory = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map {
    unsafeBitCast($0, to: AddChangeDirectory.self)
  }

  private func reap(_ pid: pid_t) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG, which do not reach Swift as macros.
    let signal = status & 0x7f
    state.withLock {
      $0.running = false
      if signal == 0 {
        $0.reason = .exit
        $0.status = (status >> 8) & 0xff
      } else {
        $0.reason = .uncaughtSignal
        $0.status = signal
      }
    }
    ended.lock()
    hasEnded = true
    ended.broadcast()
    ended.unlock()
    terminationHandler?(self)
  }
}
