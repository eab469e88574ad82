import FoundationEssentials

/// One client connection: reads requests one after another, answers each, and keeps the connection alive.
struct HTTPConnection {
  /// How reading one request came out.
  private enum Read {
    case request(HTTPRequest)
    case closed
    case refused(HTTPResponse)
  }

  let fd: Int32
  let wake: Int32
  let handler: HTTPServer.Handler
  private var buffer: [UInt8] = []

  init(fd: Int32, wake: Int32, handler: @escaping HTTPServer.Handler) {
    self.fd = fd
    self.wake = wake
    self.handler = handler
  }

  /// Serves requests until the client closes, a reply ends the connection, or the server stops.
  mutating func run() {
    while true {
      switch readRequest() {
      case .closed: return
      case .refused(let response):
        _ = Socket.write(fd, response.serialized(keepAlive: false))
        return
      case .request(let request):
        guard serve(request) else { return }
      }
    }
  }

  /// Answers one request; false when the connection must end.
  private mutating func serve(_ request: HTTPRequest) -> Bool {
    switch handler(request) {
    case .drop:
      // The contract harness's `{kind: "drop"}`: the request was read whole, and the socket is
      // closed without a byte of answer.
      return false
    case .stall:
      holdUntilClosed(keepalive: nil)
      return false
    case .response(let response):
      let keepAlive = wantsKeepAlive(request) && response.header("Connection")?.lowercased() != "close"
      var answer = response
      answer.headers.removeAll { $0.name.lowercased() == "Connection".lowercased() }
      return Socket.write(fd, answer.serialized(keepAlive: keepAlive)) && keepAlive
    case .events(let stream):
      var head = "HTTP/1.1 \(stream.head.status) \(HTTPResponse.reason(stream.head.status))\r\n"
      for (name, value) in stream.head.headers { head += "\(name): \(value)\r\n" }
      head += "Cache-Control: no-cache\r\nConnection: close\r\n\r\n"
      guard Socket.write(fd, Array((head + stream.frames.joined()).utf8)) else { return false }
      if stream.hold { holdUntilClosed(keepalive: stream.more) }
      return false
    }
  }

  /// Holds the connection until the client closes it or the server stops; with `keepalive`, writes its frames
  /// (or a keepalive comment) about every 250 ms.
  private mutating func holdUntilClosed(keepalive: (@Sendable () -> [String])?) {
    while true {
      switch Socket.wait(fd, wake: wake, milliseconds: keepalive == nil ? -1 : 250) {
      case .woken: return
      case .readable:
        var discard: [UInt8] = []
        if Socket.read(fd, into: &discard) <= 0 { return }
      case .timedOut:
        guard let more = keepalive else { continue }
        let frames = more()
        let text = frames.isEmpty ? ": keepalive\n\n" : frames.joined()
        if !Socket.write(fd, Array(text.utf8)) { return }
      }
    }
  }

  private func wantsKeepAlive(_ request: HTTPRequest) -> Bool {
    let connection = request.header("Connection")?.lowercased() ?? ""
    if connection.contains("close") { return false }
    return !request.http10 || connection.contains("keep-alive")
  }

  /// Reads more bytes into the buffer; false when the client closed, an error came or the server stops.
  private mutating func fill() -> Bool {
    switch Socket.wait(fd, wake: wake, milliseconds: -1) {
    case .woken, .timedOut: return false
    case .readable: return Socket.read(fd, into: &buffer) > 0
    }
  }

  private mutating func readRequest() -> Read {
    // The head.
    var headEnd: Int?
    var searchFrom = 0
    while headEnd == nil {
      headEnd = Self.find([13, 10, 13, 10], in: buffer, from: searchFrom)
      if headEnd != nil { break }
      if buffer.count > HTTPServer.maxHead { return .refused(Self.refusal(431, "request_header_too_large")) }
      searchFrom = max(0, buffer.count - 3)
      if !fill() { return .closed }
    }
    let headBytes = buffer[0..<headEnd!]
    buffer.removeFirst(headEnd! + 4)
    let lines = String(decoding: headBytes, as: UTF8.self).components(separatedBy: "\r\n")
    let requestLine = lines[0].split(separator: " ")
    guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
      return .refused(Self.refusal(400, "bad_request"))
    }
    var headers: [(name: String, value: String)] = []
    for line in lines.dropFirst() where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":") else { return .refused(Self.refusal(400, "bad_request")) }
      headers.append(
        (
          String(line[..<colon]).trimmingSpaces(),
          String(line[line.index(after: colon)...]).trimmingSpaces()
        ))
    }
    var request = HTTPRequest(
      method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: [])
    request.http10 = requestLine[2] == "HTTP/1.0"

    // The body.
    let chunked = request.header("Transfer-Encoding")?.lowercased().contains("chunked") ?? false
    let length = Int(request.header("Content-Length") ?? "0") ?? -1
    if !chunked && length < 0 { return .refused(Self.refusal(400, "bad_request")) }
    if length > HTTPServer.maxBody { return .refused(Self.refusal(413, "request_too_large")) }
    if request.header("Expect")?.lowercased() == "100-continue" && buffer.isEmpty && (chunked || length > 0) {
      guard Socket.write(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return .closed }
    }
    if chunked {
      switch readChunkedBody() {
      case .success(let body): request.body = body
      case .failure(let failed): return failed.read
      }
    } else {
      while buffer.count < length {
        if !fill() { return .closed }
      }
      request.body = Array(buffer[0..<length])
      buffer.removeFirst(length)
    }
    return .request(request)
  }

  private struct Failed: Error {
    let read: Read
  }

  private mutating func readChunkedBody() -> Result<[UInt8], Failed> {
    var body: [UInt8] = []
    while true {
      guard let line = readLine() else { return .failure(Failed(read: .closed)) }
      let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
      guard let size = Int(sizeText.trimmingSpaces(), radix: 16), size >= 0 else {
        return .failure(Failed(read: .refused(Self.refusal(400, "bad_request"))))
      }
      if size == 0 {
        while let trailer = readLine(), !trailer.isEmpty {}
        return .success(body)
      }
      if body.count + size > HTTPServer.maxBody {
        return .failure(Failed(read: .refused(Self.refusal(413, "request_too_large"))))
      }
      while buffer.count < size + 2 {
        if !fill() { return .failure(Failed(read: .closed)) }
      }
      body.append(contentsOf: buffer[0..<size])
      buffer.removeFirst(size + 2)
    }
  }

  /// Reads one CRLF-ended line (without the CRLF); nil when the connection ended first.
  private mutating func readLine() -> String? {
    var from = 0
    while true {
      if let end = Self.find([13, 10], in: buffer, from: from) {
        let line = String(decoding: buffer[0..<end], as: UTF8.self)
        buffer.removeFirst(end + 2)
        return line
      }
      if buffer.count > HTTPServer.maxHead { return nil }
      from = max(0, buffer.count - 1)
      if !fill() { return nil }
    }
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
    var i = from
    let last = haystack.count - needle.count
    while i <= last {
      if haystack[i] == needle[0] {
        var j = 1
        while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
        if j == needle.count { return i }
      }
      i += 1
    }
    return nil
  }

  private static func refusal(_ status: Int, _ code: String) -> HTTPResponse {
    HTTPResponse(
      status: status,
      json: ["error": ["code": .string(code), "message": .string(HTTPResponse.reason(status))]])
  }
}
