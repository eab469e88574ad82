import Dispatch
import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A running `verdicts` process whose output is read as it comes.
final class Spawned: @unchecked Sendable {
  let process = ChildProcess()
  private let lock = NSLock()
  private var outData = Data()
  private var errData = Data()
  private let outDone = DispatchSemaphore(value: 0)
  private let errDone = DispatchSemaphore(value: 0)
  private let exited = DispatchSemaphore(value: 0)

  /// Starts `verdicts` with `arguments`; with `defaultSignals`, through `env --default-signal`
  /// so SIGTERM, SIGHUP and SIGINT act by default even when this test process ignores them
  /// (ignored signals are inherited across exec).
  /// With `directory`, the process starts there (for relative store paths). With `through`, the
  /// binary is started by that command line (`["/usr/bin/faketime", "-f", "+365d"]`).
  init(
    _ arguments: [String], environment: [String: String], defaultSignals: Bool = false, directory: String? = nil,
    through: [String] = []
  ) throws {
    let path = try Binary.require()
    if let wrapper = through.first {
      process.executableURL = URL(fileURLWithPath: wrapper)
      process.arguments = Array(through.dropFirst()) + [path] + arguments
    } else if defaultSignals {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = ["--default-signal=TERM,HUP,INT", path] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: path)
      process.arguments = arguments
    }
    process.environment = environment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    process.terminationHandler = { [exited] _ in exited.signal() }
    try process.run()
    read(out.fileHandleForReading, isError: false, done: outDone)
    read(err.fileHandleForReading, isError: true, done: errDone)
  }

  private func read(_ handle: FileHandle, isError: Bool, done: DispatchSemaphore) {
    // read(2) with EINTR retried: Foundation's availableData stops the whole test process with a
    // fatal error when a signal interrupts the read. A thread of its own, not a global queue's:
    // reads that block for a watcher's whole life filled the queue's threads under a loaded run,
    // and a short command's output waited past `wait`'s bound, read as empty.
    let fd = handle.fileDescriptor
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        let chunk = Data(buffer[0..<n])
        self.lock.withLock {
          if isError { self.errData.append(chunk) } else { self.outData.append(chunk) }
        }
      }
      done.signal()
    }
    thread.stackSize = 256 << 10
    thread.start()
  }

  /// Standard output so far.
  var stdout: String { lock.withLock { String(decoding: outData, as: UTF8.self) } }
  /// Standard error so far.
  var stderr: String { lock.withLock { String(decoding: errData, as: UTF8.self) } }

  /// Waits until standard output holds a whole line; false after `timeout` seconds or at exit without one.
  func waitForLine(timeout: Double) -> Bool {
    waitUntil(within: .seconds(timeout), every: .milliseconds(5)) { stdout.contains("\n") || !process.isRunning }
      && stdout.contains("\n")
  }

  /// Waits for the process to end; false after `timeout` seconds.
  func wait(timeout: Double) -> Bool {
    guard exited.wait(timeout: .now() + timeout) == .success else { return false }
    // Both pipes close when the process ends (unless it left a child holding them).
    _ = outDone.wait(timeout: .now() + 30)
    _ = errDone.wait(timeout: .now() + 30)
    return true
  }

  /// Sends SIGKILL to this process (and only it).
  func kill() {
    if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
  }

  /// The exit code and both streams (after `wait`).
  func result() -> CommandResult {
    CommandResult(code: process.terminationStatus, stdout: stdout, stderr: stderr)
  }
}
