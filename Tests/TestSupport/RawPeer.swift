import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// One accepted connection of a ``RawServer``, read and written by hand so a test can drop it
/// anywhere: after the head, mid-body, after the first byte of its answer.
public final class RawPeer: @unchecked Sendable {
  /// The connection's number (0 for the first the server accepted).
  public let connection: Int
  let fd: Int32
  private unowned let server: RawServer
  private var buffer: [UInt8] = []
  private var requests = 0
  private var closed = false

  init(fd: Int32, connection: Int, server: RawServer) {
    self.fd = fd
    self.connection = connection
    self.server = server
  }

  /// A request's head, as read: its record's index in ``RawServer/received``.
  public struct Head: Sendable {
    public var record: Int
    public var method: String
    public var path: String
    public var headers: [String: String]
    public var contentLength: Int
  }

  /// Reads the next request's head (recorded with no body yet); nil when the client closed or
  /// nothing came within `timeout` seconds.
  public func readHead(timeout: Double = 5) -> Head? {
    let end = Array("\r\n\r\n".utf8)
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let r = buffer.firstRange(of: end) {
        let text = String(decoding: buffer[..<r.lowerBound], as: UTF8.self)
        buffer.removeSubrange(..<r.upperBound)
        var lines = text.components(separatedBy: "\r\n")
        let start = lines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines {
          guard let colon = line.firstIndex(of: ":") else { continue }
          headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        let method = start.first.map(String.init) ?? ""
        let path = start.count > 1 ? String(start[1]) : ""
        let record = server.record(
          RawRequestRecord(
            connection: connection, indexOnConnection: requests, method: method, path: path, headers: headers,
            contentLength: length, bodyReceived: 0, cutByServer: false))
        requests += 1
        return Head(record: record, method: method, path: path, headers: headers, contentLength: length)
      }
      guard fill(until: deadline) else { return nil }
    }
  }

  /// Reads up to `limit` bytes of the head's body (all of it when nil), waiting at most
  /// `timeout` seconds; records how much came, and whether the server stopped short on purpose.
  @discardableResult
  public func readBody(of head: Head, limit: Int? = nil, timeout: Double = 2) -> [UInt8] {
    let want = min(head.contentLength, limit ?? head.contentLength)
    let deadline = Date().addingTimeInterval(timeout)
    while buffer.count < want, fill(until: deadline) {}
    let body = Array(buffer.prefix(want))
    buffer.removeFirst(body.count)
    server.update(head.record) {
      $0.bodyReceived = body.count
      $0.cutByServer = want < head.contentLength
    }
    return body
  }

  /// Marks the head's body as not read on purpose (the server drops the connection after the head).
  public func skipBody(of head: Head) {
    server.update(head.record) { $0.cutByServer = head.contentLength > 0 }
  }

  /// Writes all of `bytes`; false once the client is gone.
  @discardableResult
  public func write(_ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return false }
      sent += n
    }
    return true
  }

  /// Writes `text` as UTF-8.
  @discardableResult
  public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

  /// A whole answer: the status line, `headers` (each line as given), `Content-Length`, the body.
  @discardableResult
  public func answer(_ status: Int, headers: [String] = [], body: String) -> Bool {
    var head = "HTTP/1.1 \(status) X\r\n"
    for h in headers { head += h + "\r\n" }
    head += "Content-Length: \(body.utf8.count)\r\n\r\n"
    return write(head + body)
  }

  /// Closes the connection (a FIN; a RST when unread bytes are left, as the kernel does).
  public func drop() {
    guard !closed else { return }
    closed = true
    Glibc.close(fd)
  }

  /// Whether the server is stopping (handlers that stream forever check it).
  public var stopping: Bool { server.isStopping }

  /// Reads more into the buffer; false at the end of the stream, on an error or past `deadline`.
  private func fill(until deadline: Date) -> Bool {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
      let n = poll(&pfd, 1, min(left, 100))
      if n < 0 && errno == EINTR { continue }
      if n == 0 {
        if left <= 0 || server.isStopping { return false }
        continue
      }
      if n < 0 { return false }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let got = recv(fd, &chunk, chunk.count, 0)
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { return false }
      buffer.append(contentsOf: chunk[0..<got])
      return true
    }
  }
}
