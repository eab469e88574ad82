import Dispatch
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A standard output that takes nothing, for running the built `verdicts` with it: `/dev/full`
/// (ENOSPC), a closed descriptor (EBADF), a pipe whose reader is gone (EPIPE, SIGPIPE acting by
/// default as in a shell's pipeline).
enum BrokenOutput: String, CaseIterable, Sendable, CustomStringConvertible {
  case devFull = "/dev/full"
  case closed = "stdout closed"
  case pipeWithoutReader = "a pipe whose reader is gone"

  var description: String { rawValue }

  /// The system's words for the error a write gets, as `verdicts: write error: …` repeats them.
  var reason: String {
    switch self {
    case .devFull: return "No space left on device"
    case .closed: return "Bad file descriptor"
    case .pipeWithoutReader: return "Broken pipe"
    }
  }

  /// Runs `verdicts` with its standard output broken this way (standard error captured), to its
  /// end or at most `timeout` seconds; nil when it ran past that (it is then killed).
  func run(
    _ arguments: [String], store: String?, home: String, environment extra: [String: String] = [:],
    timeout: Double = 30
  ) throws -> CommandResult? {
    let binary = try Binary.require()
    let script: String
    switch self {
    case .devFull: script = #"exec "$0" "$@" >/dev/full"#
    case .closed: script = #"exec "$0" "$@" >&-"#
    case .pipeWithoutReader: script = #"exec "$0" "$@""#
    }
    let p = ChildProcess()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["--default-signal=PIPE", "/bin/bash", "-c", script, binary] + arguments
    p.environment = Binary.environment(store: store, home: home, extra)
    p.standardInput = FileHandle.nullDevice
    var fds: [Int32] = [-1, -1]
    if self == .pipeWithoutReader {
      guard pipe(&fds) == 0 else { throw Binary.SpawnFailure(message: "pipe: \(errno)") }
      close(fds[0])
      p.standardOutput = FileHandle(fileDescriptor: fds[1], closeOnDealloc: false)
    }
    let err = Pipe()
    p.standardError = err
    let exited = DispatchSemaphore(value: 0)
    p.terminationHandler = { _ in exited.signal() }
    try p.run()
    if fds[1] >= 0 { close(fds[1]) }
    let errData = SharedData()
    let errDone = DispatchSemaphore(value: 0)
    // A thread of its own: a global queue's threads can all be blocked reading other children's pipes.
    Thread.detachNewThread {
      errData.set(err.fileHandleForReading.readDataToEndOfFile())
      errDone.signal()
    }
    guard exited.wait(timeout: .now() + timeout) == .success else {
      kill(p.processIdentifier, SIGKILL)
      _ = exited.wait(timeout: .now() + 5)
      return nil
    }
    _ = errDone.wait(timeout: .now() + 30)
    return CommandResult(code: p.terminationStatus, stdout: "", stderr: String(decoding: errData.get(), as: UTF8.self))
  }

  /// Bytes handed from the reading thread.
  final class SharedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ new: Data) { lock.withLock { data = new } }
    func get() -> Data { lock.withLock { data } }
  }
}
