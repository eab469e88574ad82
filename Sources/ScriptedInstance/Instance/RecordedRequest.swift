/// One request the instance received, kept for a test to read.
public struct RecordedRequest: Sendable {
  /// The order of arrival, from 1.
  public let seq: Int
  /// The method.
  package let method: String
  /// The percent-decoded path, without the query.
  public let path: String
  /// The raw query string (after `?`), or "".
  public let query: String
  /// The header lines in the order sent.
  public let headers: [(name: String, value: String)]
  /// The body bytes.
  public let body: [UInt8]
  /// The status answered; nil for a dropped or stalled request.
  public internal(set) var status: Int?
  /// Whether the answer was replayed from an idempotency record.
  public internal(set) var replayed = false
  /// Whether a script rule answered it (a `normal` answer counts as the model's).
  public internal(set) var scripted = false

  /// The first value of the header `name` (case-insensitive), or nil.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The body as UTF-8 text.
  package var bodyText: String { String(decoding: body, as: UTF8.self) }

  /// The body read as JSON, or nil.
  public var json: ScriptedJSON? { try? ScriptedJSON(parsing: body) }

  /// The value of the query parameter `name`, or nil.
  package func queryValue(_ name: String) -> String? {
    HTTPRequest(method: method, target: "/?" + query, headers: [], body: []).query(name)
  }

  /// The `Idempotency-Key` header, or nil.
  public var idempotencyKey: String? { header("Idempotency-Key") }
}
