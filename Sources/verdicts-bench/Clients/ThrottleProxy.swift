import Foundation
import MarfaWire

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A slow link for ssh: a TCP proxy on 127.0.0.1 in front of a server (sshd) that counts the
/// bytes each way and lets at most `rate` bytes a second through from the server to the client
/// (the device to the person). The Swift form of docs/measure/link-relay.py.
///
/// The throttle is a token bucket with no burst credit: each read from the server (at most
/// ``chunk`` bytes) is sent once the link would have finished sending it,
/// `due = max(due, now) + bytes / rate`, so a link that sat idle cannot then send faster than
/// `rate`. The counts are TCP payload bytes: ssh's own framing, MACs and keepalives are in them
/// (after ssh's compression), the TCP/IP headers are not.
final class ThrottleProxy: Sendable {
  /// The port ssh connects to.
  let port: UInt16
  /// Bytes a second from the server to the client; nil: not throttled.
  let rate: Double?
  /// The most read from the server at once when throttled (link-relay.py's 512).
  static let chunk = 512
  private let upstream: UInt16
  private let listener: Int32
  private let counts = Mutex(Counts())
  private let open = Mutex((fds: Set<Int32>(), stopped: false))
  private let threads = DispatchGroup()

  /// Bytes through the proxy since it started.
  struct Counts: Sendable {
    /// Connections accepted.
    var connections = 0
    /// Bytes from the client (the person's ssh), and from the server (the device's sshd) as sent on.
    var up = 0
    var down = 0
  }

  init(upstream: UInt16, rate: Double?) throws {
    self.upstream = upstream
    self.rate = rate
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw BenchFailure(message: "the throttling proxy has no socket") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = DelayProxy.loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
      close(fd)
      throw BenchFailure(message: "the throttling proxy cannot listen: \(String(cString: strerror(errno)))")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    listener = fd
    port = UInt16(bigEndian: address.sin_port)
    open.withLock { _ = $0.fds.insert(listener) }
    spawn { [self] in acceptLoop() }
  }

  /// The counts so far.
  var current: Counts { counts.withLock { $0 } }

  /// Closes the listener and every connection, and waits for the proxy's threads to end.
  func stop() {
    let fds = open.withLock { state -> Set<Int32> in
      state.stopped = true
      return state.fds
    }
    for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
    threads.wait()
    open.withLock { state in
      for fd in state.fds { close(fd) }
      state.fds = []
    }
  }

  private func spawn(_ body: @escaping @Sendable () -> Void) {
    threads.enter()
    let thread = Thread { [threads] in
      body()
      threads.leave()
    }
    thread.start()
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        return
      }
      let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      var address = DelayProxy.loopback(port: upstream)
      let connected =
        server >= 0
        && withUnsafePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
          }
        } == 0
      let kept = open.withLock { state -> Bool in
        guard !state.stopped else { return false }
        state.fds.insert(client)
        if server >= 0 { state.fds.insert(server) }
        return true
      }
      guard kept, connected else {
        close(client)
        if server >= 0 { close(server) }
        if !kept { return }
        continue
      }
      var yes: Int32 = 1
      for fd in [client, server] {
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
      }
      counts.withLock { $0.connections += 1 }
      spawn { [self] in
        relay(from: client, to: server, rate: nil) { n in self.counts.withLock { $0.up += n } }
      }
      spawn { [self] in
        relay(from: server, to: client, rate: rate) { n in self.counts.withLock { $0.down += n } }
      }
    }
  }

  /// One direction, on one thread: reads `from`, waits out the throttle, writes to `to`, counts
  /// what was written; at the end, half-closes `to`.
  private func relay(from: Int32, to: Int32, rate: Double?, sent: (Int) -> Void) {
    var buffer = [UInt8](repeating: 0, count: rate == nil ? 65536 : Self.chunk)
    var due = DelayProxy.now()
    while true {
      let n = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        shutdown(to, Int32(SHUT_WR))
        return
      }
      if let rate {
        // No burst credit: an idle link starts again from now, not from when it was last busy.
        due = max(due, DelayProxy.now()) + UInt64(Double(n) / rate * 1e9)
        while case let now = DelayProxy.now(), now < due {
          var pause = timespec(tv_sec: Int((due - now) / 1_000_000_000), tv_nsec: Int((due - now) % 1_000_000_000))
          nanosleep(&pause, nil)
        }
      }
      guard DelayProxy.sendAll(Array(buffer[0..<n]), to: to) else {
        shutdown(from, Int32(SHUT_RDWR))
        shutdown(to, Int32(SHUT_RDWR))
        return
      }
      sent(n)
    }
  }
}
