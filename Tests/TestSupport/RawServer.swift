import Foundation
import MarfaWire

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A raw HTTP/1.1 server on 127.0.0.1 whose every connection is handled by the test's own code
/// (``RawPeer``), one thread a connection: it drops connections where a real server can, sends
/// what no real server should, and records what each request brought (head and body counted).
public final class RawServer: Sendable {
  /// The port it listens on.
  public let port: UInt16
  private let listener: Int32
  private let state = Mutex(State())
  private let handler: @Sendable (RawPeer) -> Void

  private struct State {
    var received: [RawRequestRecord] = []
    var connections = 0
    var open: [Int32] = []
    var stopping = false
  }

  /// Starts listening; `handler` runs on a thread of its own for each accepted connection, and
  /// the connection is closed when it returns.
  public init(handler: @escaping @Sendable (RawPeer) -> Void) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard fd >= 0, bound == 0, Glibc.listen(fd, 64) == 0 else {
      if fd >= 0 { Glibc.close(fd) }
      throw RawServerError(message: "cannot listen on 127.0.0.1: errno \(errno)")
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    listener = fd
    port = UInt16(bigEndian: actual.sin_port)
    self.handler = handler
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// `http://127.0.0.1:<port>`.
  public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

  /// Every request received so far, in the order their heads arrived.
  public var received: [RawRequestRecord] { state.withLock { $0.received } }

  /// How many connections were accepted.
  public var connections: Int { state.withLock { $0.connections } }

  var isStopping: Bool { state.withLock { $0.stopping } }

  /// Stops accepting and cuts every open connection (handlers see their reads and writes fail).
  public func stop() {
    let open = state.withLock { s -> [Int32] in
      s.stopping = true
      return s.open
    }
    for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    shutdown(listener, Int32(SHUT_RDWR))
  }

  func record(_ r: RawRequestRecord) -> Int {
    state.withLock { s in
      s.received.append(r)
      return s.received.count - 1
    }
  }

  func update(_ index: Int, _ change: (inout RawRequestRecord) -> Void) {
    state.withLock { change(&$0.received[index]) }
  }

  private func acceptLoop() {
    while true {
      let fd = Glibc.accept(listener, nil, nil)
      if fd < 0 {
        if errno == EINTR { continue }
        break
      }
      var yes: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
      let accepted = state.withLock { s -> Int? in
        guard !s.stopping else { return nil }
        s.open.append(fd)
        s.connections += 1
        return s.connections - 1
      }
      guard let number = accepted else {
        Glibc.close(fd)
        break
      }
      let peer = RawPeer(fd: fd, connection: number, server: self)
      let handler = self.handler
      let thread = Thread { [self] in
        handler(peer)
        state.withLock { $0.open.removeAll { $0 == fd } }
        peer.drop()
      }
      thread.start()
    }
    Glibc.close(listener)
  }
}

/// The raw server could not start.
public struct RawServerError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
