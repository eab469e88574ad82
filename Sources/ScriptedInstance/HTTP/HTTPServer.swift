import FoundationEssentials
import MarfaWire

/// An HTTP/1.1 server on 127.0.0.1 with a thread per connection, keep-alive and server-sent events.
final class HTTPServer: Sendable {
  /// Answers one request; called on the connection's thread.
  typealias Handler = @Sendable (HTTPRequest) -> HTTPReply

  /// The largest request body taken (16 MiB); a larger one is answered 413.
  static let maxBody = 16 << 20
  /// The largest request head taken (64 KiB); a larger one is answered 431.
  static let maxHead = 64 << 10

  private let handler: Handler
  /// The listening period (nil while not listening) and the port, fixed at the first `listen()`.
  private let listening: Mutex<(session: ListenSession?, port: UInt16)>
  /// The server's live threads and open descriptors.
  let activity = ServerActivity()

  /// A server that will listen on `port` (0: an ephemeral port, fixed at the first `listen()`).
  init(port: UInt16, handler: @escaping Handler) {
    self.listening = Mutex((nil, port))
    self.handler = handler
  }

  /// The port listened on (0 before the first `listen()` of an ephemeral server).
  var port: UInt16 { listening.withLock { $0.port } }

  /// Whether the server is listening.
  var isListening: Bool { listening.withLock { $0.session != nil } }

  /// Starts listening (again, on the same port) and accepting; returns the port. Does nothing if listening.
  @discardableResult
  func listen() throws -> UInt16 {
    try listening.withLock { state in
      if state.session != nil { return state.port }
      let listener = try Socket.listen(port: state.port)
      state.port = listener.port
      activity.opened()
      let s = try ListenSession(listener: listener.fd, handler: handler, activity: activity)
      state.session = s
      s.startAccepting()
      return state.port
    }
  }

  /// Stops listening and closes every connection; returns once every thread of the server has ended.
  func close() {
    let s = listening.withLock { state in
      defer { state.session = nil }
      return state.session
    }
    s?.end()
  }
}
