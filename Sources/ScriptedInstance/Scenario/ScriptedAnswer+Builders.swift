extension ScriptedAnswer {
  /// The model answers.
  package static let normal = ScriptedAnswer(.normal)
  /// The connection is closed without an answer.
  public static let drop = ScriptedAnswer(.drop)
  /// No answer ever comes.
  package static let stall = ScriptedAnswer(.stall)

  /// Any status with a body (JSON by default).
  public static func status(_ status: Int, body: String = "", contentType: String? = "application/json")
    -> ScriptedAnswer
  {
    ScriptedAnswer(.reply(status: status, body: body, contentType: contentType))
  }

  /// Any status with these exact body bytes (which need not be UTF-8 or JSON).
  public static func bytes(_ status: Int, _ body: [UInt8], contentType: String? = "application/json") -> ScriptedAnswer
  {
    ScriptedAnswer(.replyBytes(status: status, body: body, contentType: contentType))
  }

  /// Any status with a JSON body.
  public static func json(_ status: Int, _ body: ScriptedJSON) -> ScriptedAnswer {
    .status(status, body: body.text)
  }

  /// An error envelope `{"error":{code,message,details?}}` with `X-Error-Code`.
  public static func error(_ status: Int, code: String, message: String, details: ScriptedJSON? = nil) -> ScriptedAnswer
  {
    let answer = ModelAnswer.error(status, code, message, details: details)
    return ScriptedAnswer(.reply(status: status, body: answer.body.text, contentType: "application/json"))
  }

  /// `401 unauthorized`: the key is refused.
  public static let unauthorized = error(401, code: "unauthorized", message: "The API key is not valid")

  /// `403 type_not_permitted` with `details.grant {kind, name, level}`.
  package static func missingGrant(kind: String = "type", name: String, level: String = "write") -> ScriptedAnswer {
    error(
      403, code: "type_not_permitted", message: "The key may not \(level) \(kind) \(name)",
      details: ["grant": ["kind": .string(kind), "name": .string(name), "level": .string(level)]])
  }

  /// `403 forbidden` with `details: {source}`: the key does not claim that source.
  package static func unclaimedSource(_ source: String) -> ScriptedAnswer {
    error(
      403, code: "forbidden", message: "The key does not claim source \(source)", details: ["source": .string(source)])
  }

  /// `400 validation_error` with `details.errors [{field, message}]`.
  package static func validation(_ errors: [(field: String, message: String)]) -> ScriptedAnswer {
    let answer = ModelAnswer.validation(errors)
    return ScriptedAnswer(.reply(status: 400, body: answer.body.text, contentType: "application/json"))
  }

  /// `409 version_conflict`, naming the current row.
  package static let versionConflict = ScriptedAnswer(.versionConflict)
  /// `409 ancestor_unavailable`, naming the current row and the requested version.
  public static let ancestorUnavailable = ScriptedAnswer(.ancestorUnavailable)

  /// `422 idempotency_key_reused`.
  package static let keyReused = error(
    422, code: "idempotency_key_reused", message: "The idempotency key was used with another request")

  /// `409 idempotency_key_in_flight`.
  public static let inFlight = error(
    409, code: "idempotency_key_in_flight", message: "A request with this idempotency key is still running")

  /// `200` whose body is not the endpoint's shape (`not json`).
  package static let unreadable2xx = status(200, body: "not json")

  /// `500 internal_error`, exactly as the contract words it.
  package static let serverFault = status(
    500, body: #"{"error":{"code":"internal_error","message":"Internal server error"}}"#)

  /// `429 rate_limited` with `Retry-After: seconds`.
  package static func rateLimited(seconds: Int) -> ScriptedAnswer {
    error(429, code: "rate_limited", message: "Too many requests").retrying(after: seconds)
  }

  /// A gateway's HTML page with this status and no contract header.
  package static func gatewayPage(status: Int = 502) -> ScriptedAnswer {
    let reason = HTTPResponse.reason(status)
    let page =
      "<html><head><title>\(status) \(reason)</title></head><body><h1>\(status) \(reason)</h1><hr>gateway</body></html>"
    return ScriptedAnswer(.reply(status: status, body: page, contentType: "text/html"), contract: .absent)
  }

  /// The root naming another instance id.
  package static func otherInstance(_ id: String) -> ScriptedAnswer { ScriptedAnswer(.otherInstance(id)) }

  /// This answer without the contract header.
  package func withoutContract() -> ScriptedAnswer {
    var a = self
    a.contract = .absent
    return a
  }

  /// This answer with these contract header lines instead.
  public func contract(_ values: String...) -> ScriptedAnswer {
    var a = self
    a.contract = .values(values)
    return a
  }

  /// This answer with `Retry-After: seconds`.
  public func retrying(after seconds: Int) -> ScriptedAnswer {
    var a = self
    a.retryAfter = seconds
    return a
  }

  /// This answer with one more header.
  public func header(_ name: String, _ value: String) -> ScriptedAnswer {
    var a = self
    a.headers[name] = value
    return a
  }
}
