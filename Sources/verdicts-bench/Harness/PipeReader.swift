import Foundation
import MarfaWire

#if canImport(Glibc)
  import Glibc
#endif

/// A `verdicts` child whose stdout goes to a pipe the bench reads and counts (the bytes are not
/// kept), with its stderr in a file.
final class PipeReader: Sendable {
  let child: SpawnedProcess
  private let counts = Mutex((bytes: 0, lines: 0, last: ContinuousClock.Instant?.none))
  let errorFile: String

  init(_ executable: String, _ arguments: [String], environment: [String: String], errorFile: String) throws {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw BenchFailure(message: "no pipe") }
    let null = open("/dev/null", O_RDWR)
    let err = open(errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    defer {
      close(null)
      close(err)
      close(fds[1])
    }
    self.errorFile = errorFile
    child = try SpawnedProcess(
      executable, arguments, environment: environment, stdin: null, stdout: fds[1], stderr: err)
    let readEnd = fds[0]
    let thread = Thread { [self] in
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        let lines = buffer[0..<n].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        counts.withLock {
          $0.bytes += n
          $0.lines += lines
          $0.last = .now
        }
      }
      close(readEnd)
    }
    thread.start()
  }

  var bytes: Int { counts.withLock { $0.bytes } }
  var lines: Int { counts.withLock { $0.lines } }
  var lastArrival: ContinuousClock.Instant? { counts.withLock { $0.last } }

  /// Waits until at least `lines` lines came and then none for `quiet`, or the child ended, or
  /// `limit` passed.
  func settle(lines wanted: Int = 0, quiet: Duration, limit: Duration) async {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline && child.isRunning {
      if lines >= wanted, let last = lastArrival, ContinuousClock.now - last >= quiet { return }
      try? await Task.sleep(for: .milliseconds(50))
    }
  }

  /// The first line the child wrote on stderr.
  var firstErrorLine: String {
    ((try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "").split(separator: "\n").first.map(String.init)
      ?? ""
  }
}
