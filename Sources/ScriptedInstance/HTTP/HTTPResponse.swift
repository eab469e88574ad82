/// One HTTP response with a complete body, written with `Content-Length`.
struct HTTPResponse: Sendable {
  /// The status code.
  var status: Int
  /// The header lines, in order; `Content-Length` and `Connection` are added when written.
  var headers: [(name: String, value: String)]
  /// The body bytes.
  var body: [UInt8]

  init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON answer.
  init(status: Int, json: ScriptedJSON) {
    self.init(status: status, headers: [("Content-Type", "application/json")], body: json.bytes)
  }

  /// The first value of the header `name` (case-insensitive), or nil.
  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The status line, headers and body ready for the wire.
  func serialized(keepAlive: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(HTTPResponse.reason(status))\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.count)\r\n"
    head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
    return Array(head.utf8) + body
  }

  /// The reason phrase for a status code.
  static func reason(_ status: Int) -> String {
    switch status {
    case 100: return "Continue"
    case 200: return "OK"
    case 201: return "Created"
    case 204: return "No Content"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 408: return "Request Timeout"
    case 409: return "Conflict"
    case 413: return "Content Too Large"
    case 422: return "Unprocessable Content"
    case 429: return "Too Many Requests"
    case 431: return "Request Header Fields Too Large"
    case 500: return "Internal Server Error"
    case 501: return "Not Implemented"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    default: return "Status"
    }
  }
}
