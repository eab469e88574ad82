import FoundationEssentials

/// One HTTP request as the server read it off a connection.
struct HTTPRequest: Sendable {
  /// The method, as sent (`GET`, `PATCH`…).
  var method: String
  /// The request target exactly as sent, path and query.
  var target: String
  /// The header lines in the order sent.
  var headers: [(name: String, value: String)]
  /// The body bytes (de-chunked).
  var body: [UInt8]
  /// Whether the request line said `HTTP/1.0` (no keep-alive unless asked for).
  var http10 = false

  /// The raw (still percent-encoded) path of the target.
  var rawPath: String {
    if let q = target.firstIndex(of: "?") { return String(target[..<q]) }
    return target
  }

  /// The raw query string (after `?`), or "".
  var rawQuery: String {
    if let q = target.firstIndex(of: "?") { return String(target[target.index(after: q)...]) }
    return ""
  }

  /// The path's segments, each percent-decoded (`/items/a%20b` → `["items", "a b"]`).
  var segments: [String] {
    rawPath.split(separator: "/", omittingEmptySubsequences: true).map { HTTPRequest.percentDecode(String($0)) }
  }

  /// The percent-decoded path.
  var path: String { "/" + segments.joined(separator: "/") }

  /// The query's parameters in order, decoded (`+` read as a space).
  var queryItems: [(name: String, value: String)] {
    rawQuery.split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let decode = { (s: Substring) in HTTPRequest.percentDecode(String(s.replacing("+", with: " "))) }
      return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
    }
  }

  /// The first value of the query parameter `name`, or nil.
  func query(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }

  /// The first value of the header `name` (case-insensitive), or nil.
  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The key of an `Authorization: Bearer <key>` header, or nil.
  var bearer: String? {
    guard let auth = header("Authorization") else { return nil }
    let parts = auth.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return parts[1].trimmingSpaces()
  }

  /// Decodes `%XX` escapes; an invalid escape is kept as written.
  static func percentDecode(_ s: String) -> String {
    guard s.contains("%") else { return s }
    return s.percentDecoded() ?? s
  }
}
