import Foundation

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
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    guard bound == 0, listen(listener, 16) == 0 else { throw SlowProxyError() }
    withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
    }
    url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
    self.listener = listener
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
      let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = upstreamPort.bigEndian
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      if connected != 0 {
        close(client)
        close(upstream)
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
