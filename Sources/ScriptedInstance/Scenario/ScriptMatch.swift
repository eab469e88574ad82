/// Which requests a script rule answers; every condition given must hold.
public struct ScriptMatch: Sendable, Hashable {
  /// The methods matched (`PATCH`…); empty matches any.
  package var methods: Set<String>
  /// The paths matched; nil matches any.
  public var path: PathPattern?
  /// A write id: the body's `id` member, or any path segment, equals it.
  package var writeId: String?
  /// Text the body contains.
  package var bodyContains: String?
  /// The key of `Authorization: Bearer <key>`.
  package var bearer: String?

  /// A match on any of the conditions given (none: every request).
  public init(
    method: String? = nil, methods: Set<String> = [], path: PathPattern? = nil, writeId: String? = nil,
    bodyContains: String? = nil, bearer: String? = nil
  ) {
    self.methods = Set((methods.union(method.map { [$0] } ?? [])).map { $0.uppercased() })
    self.path = path
    self.writeId = writeId
    self.bodyContains = bodyContains
    self.bearer = bearer
  }

  /// Every request.
  public static let any = ScriptMatch()

  /// Requests with this method and path.
  public static func route(_ method: String, _ path: PathPattern) -> ScriptMatch {
    ScriptMatch(method: method, path: path)
  }

  /// Requests naming this write id in the body's `id` or in the path.
  public static func write(_ id: String) -> ScriptMatch { ScriptMatch(writeId: id) }

  /// Whether `request` (with its body read as JSON, when it is) is one this rule answers.
  func matches(_ request: HTTPRequest, body: ScriptedJSON?) -> Bool {
    if !methods.isEmpty && !methods.contains(request.method.uppercased()) { return false }
    if let path, !path.matches(request.path) { return false }
    if let writeId, body?["id"]?.stringValue != writeId && !request.segments.contains(writeId) { return false }
    if let bodyContains, !String(decoding: request.body, as: UTF8.self).contains(bodyContains) { return false }
    if let bearer, request.bearer != bearer { return false }
    return true
  }
}
