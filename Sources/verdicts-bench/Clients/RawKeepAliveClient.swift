import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// The floor: a raw HTTP/1.1 client on one kept-alive socket, with no HTTP library at all. It
/// sends each request (the drain's headers, the same body) in one write and reads its answer
/// (`Content-Length` or chunked) before the next, one at a time as the drain sends them.
final class RawKeepAliveClient {
  private var fd: Int32 = -1
  private let port: UInt16
  private var buffer: [UInt8] = []
  private var chunk = [UInt8](repeating: 0, count: 65536)

  /// Connects to 127.0.0.1:`port`.
  init(port: UInt16) throws {
    self.port = port
    try connect()
  }

  deinit { if fd >= 0 { Glibc.close(fd) } }

  private func connect() throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let ok = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard ok == 0 else { throw BenchFailure(message: "the raw client could not connect to port \(port)") }
  }

  /// Sends one request and returns its status once the whole answer is read.
  func send(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]) throws -> Int {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.count)\r\n\r\n"
    let bytes = Array(head.utf8) + body
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
      guard n > 0 else { throw BenchFailure(message: "the raw client's connection was dropped while sending") }
      sent += n
    }
    return try readAnswer()
  }

  /// Reads one answer off the socket: its head, then its body by length or in chunks.
  private func readAnswer() throws -> Int {
    let end = Array("\r\n\r\n".utf8)
    var headEnd: Range<Int>?
    while true {
      headEnd = buffer.firstRange(of: end)
      if headEnd != nil { break }
      try fill()
    }
    let head = String(decoding: buffer[..<headEnd!.lowerBound], as: UTF8.self)
    buffer.removeSubrange(..<headEnd!.upperBound)
    let lines = head.split(separator: "\r\n")
    let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
    var length = 0
    var chunked = false
    for line in lines.dropFirst() {
      let lower = line.lowercased()
      if lower.hasPrefix("content-length:") {
        length = Int(lower.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
      }
      if lower.hasPrefix("transfer-encoding:") && lower.contains("chunked") { chunked = true }
    }
    if chunked {
      while true {
        let crlf = Array("\r\n".utf8)
        var lineEnd = buffer.firstRange(of: crlf)
        while lineEnd == nil {
          try fill()
          lineEnd = buffer.firstRange(of: crlf)
        }
        let size =
          Int(
            String(decoding: buffer[..<lineEnd!.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16
          ) ?? 0
        buffer.removeSubrange(..<lineEnd!.upperBound)
        while buffer.count < size + 2 { try fill() }
        buffer.removeSubrange(..<(size + 2))
        if size == 0 { break }
      }
    } else {
      while buffer.count < length { try fill() }
      buffer.removeSubrange(..<length)
    }
    return status
  }

  private func fill() throws {
    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    guard n > 0 else { throw BenchFailure(message: "the raw client's connection was dropped while reading") }
    buffer.append(contentsOf: chunk[0..<n])
  }
}

extension RawKeepAliveClient {
  /// Sends each write as the drain sends it (`POST /items` with its idempotency key and the
  /// key's bearer), one after another on this connection; throws naming `who` on any answer but
  /// 200 or 201.
  func postItems(_ wires: [DrainBenchmark.Wire], key: String, who: String) throws {
    let auth = ("Authorization", "Bearer \(key)")
    for w in wires {
      let status = try send(
        "POST", "/items",
        headers: [
          ("Accept", "application/json"), auth, ("Content-Type", "application/json"), ("Idempotency-Key", w.key),
        ],
        body: w.body)
      guard status == 201 || status == 200 else { throw BenchFailure(message: "\(who) got \(status) for POST /items") }
      // The read after the answer, as the drain makes it (the row the write landed on).
      if let id = w.id {
        let read = try send("GET", "/items/\(id)", headers: [("Accept", "application/json"), auth], body: [])
        guard read == 200 else { throw BenchFailure(message: "\(who) got \(read) for GET /items/\(id)") }
      }
    }
  }
}
