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
    let opened: Loopback.Listener
    do { opened = try Loopback.listen() } catch { throw RawServerError(message: "\(error)") }
    listener = opened.fd
    port = opened.port
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
