import Foundation
import TestSupport

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A response read off a raw connection.
struct RawResponse {
  var status: Int
  var headers: [(name: String, value: String)]
  var body: [UInt8]

  func header(_ name: String) -> String? {
    headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  func headerValues(_ name: String) -> [String] {
    headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
  }

  var text: String { String(decoding: body, as: UTF8.self) }

  var json: ScriptedJSONBox { ScriptedJSONBox(bytes: body) }
}

/// Why a raw exchange failed.
enum RawError: Error, Equatable {
  case refused
  case closed
  case timedOut
}

/// A tiny blocking HTTP/1.1 client over one socket, for tests that need to see the wire itself.
final class RawConnection {
  let fd: Int32
  private var buffer: [UInt8] = []

  init(port: UInt16) throws {
    guard let fd = Loopback.connect(port: port) else { throw RawError.refused }
    self.fd = fd
  }

  deinit { close(fd) }

  func send(_ text: String) { send(Array(text.utf8)) }

  func send(_ bytes: [UInt8]) {
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { return }
      sent += n
    }
  }

  /// Sends one request with a Content-Length body.
  func request(
    _ method: String, _ target: String, headers: [String: String] = [:], body: String = ""
  ) {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(body.utf8.count)\r\n" }
    send(head + "\r\n" + body)
  }

  /// Reads more bytes; throws when the peer closed or nothing came in time.
  private func fill(timeout: Double) throws {
    var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { throw RawError.timedOut }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let n = recv(fd, &chunk, chunk.count, 0)
    guard n > 0 else { throw RawError.closed }
    buffer += chunk[0..<n]
  }

  private func find(_ needle: String) -> Int? {
    let n = Array(needle.utf8)
    guard buffer.count >= n.count else { return nil }
    outer: for i in 0...(buffer.count - n.count) {
      for j in 0..<n.count where buffer[i + j] != n[j] { continue outer }
      return i
    }
    return nil
  }

  /// Reads one response with a Content-Length body (or an SSE head: `body` empty).
  func readResponse(timeout: Double = 5) throws -> RawResponse {
    while find("\r\n\r\n") == nil { try fill(timeout: timeout) }
    let end = find("\r\n\r\n")!
    let lines = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
    buffer.removeFirst(end + 4)
    let status = Int(lines[0].split(separator: " ")[1])!
    let headers = lines.dropFirst().map { line -> (name: String, value: String) in
      let colon = line.firstIndex(of: ":")!
      return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
    }
    var response = RawResponse(status: status, headers: headers, body: [])
    if status == 100 { return response }
    if let length = Int(response.header("Content-Length") ?? "") {
      while buffer.count < length { try fill(timeout: timeout) }
      response.body = Array(buffer[0..<length])
      buffer.removeFirst(length)
    }
    return response
  }

  /// Reads the stream until `text` has arrived; returns everything read so far (and keeps it).
  func readUntil(_ text: String, timeout: Double = 5) throws -> String {
    while find(text) == nil { try fill(timeout: timeout) }
    return String(decoding: buffer, as: UTF8.self)
  }

  /// Waits for the peer to close; true when it did within `timeout`.
  func closedByPeer(timeout: Double = 5) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      do { try fill(timeout: deadline.timeIntervalSinceNow) } catch RawError.closed { return true } catch {
        return false
      }
    }
    return false
  }
}
