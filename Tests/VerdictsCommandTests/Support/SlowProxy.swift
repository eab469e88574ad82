import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP relay on 127.0.0.1 in front of an instance that holds every answer back a moment, and
/// calls `onWrite` (on the relay's thread, before the request goes on) as each write request
/// passes, so a test can change the disk between two answers of one drain.
final class SlowProxy: @unchecked Sendable {
  private let listener: Int32
  private let upstreamPort: UInt16
  private let delay: useconds_t
  private let lock = NSLock()
  private var writes = 0
  private var stopped = false
  /// Called with the count of write requests so far (1 for the first).
  let onWrite: @Sendable (Int) -> Void
  /// The URL to give the binary.
  let url: URL

  init(upstream: URL, answerDelay: Double, onWrite: @escaping @Sendable (Int) -> Void) throws {
    upstreamPort = UInt16(upstream.port ?? 80)
    delay = useconds_t(answerDelay * 1_000_000)
    self.onWrite = onWrite
    guard let opened = try? Loopback.listen(backlog: 16) else { throw SlowProxyError() }
    url = URL(string: "http://127.0.0.1:\(opened.port)")!
    self.listener = opened.fd
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  struct SlowProxyError: Error {}

  /// Stops taking connections.
  func stop() {
    lock.withLock { stopped = true }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 { return }
      guard let upstream = Loopback.connect(port: upstreamPort) else {
        close(client)
        continue
      }
      Thread.detachNewThread { [self] in relay(from: client, to: upstream, requests: true) }
      Thread.detachNewThread { [self] in relay(from: upstream, to: client, requests: false) }
    }
  }

  private func relay(from: Int32, to: Int32, requests: Bool) {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = read(from, &buffer, buffer.count)
      if n <= 0 { break }
      let chunk = Array(buffer[0..<n])
      if requests {
        let text = String(decoding: chunk, as: UTF8.self)
        for method in ["POST ", "PATCH ", "PUT ", "DELETE "] where text.hasPrefix(method) {
          let n = lock.withLock { () -> Int in
            writes += 1
            return writes
          }
          onWrite(n)
        }
      } else {
        usleep(delay)
      }
      var sent = 0
      while sent < chunk.count {
        let m = chunk[sent...].withUnsafeBytes { write(to, $0.baseAddress!, $0.count) }
        if m <= 0 { break }
        sent += m
      }
      if sent < chunk.count { break }
    }
    shutdown(to, Int32(SHUT_WR))
    shutdown(from, Int32(SHUT_RD))
  }
}
