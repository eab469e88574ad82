/// What the in-memory model answers one endpoint: a status, a JSON body, and whether it changed anything.
struct ModelAnswer: Sendable {
  var status: Int
  var body: ScriptedJSON
  /// True when the write took effect (a replay or a refusal changes nothing).
  var applied = false

  /// A success.
  static func ok(_ body: ScriptedJSON, status: Int = 200) -> ModelAnswer {
    ModelAnswer(status: status, body: body, applied: true)
  }

  /// An error envelope `{"error":{code,message,details?}}` plus any extra top-level members.
  static func error(
    _ status: Int, _ code: String, _ message: String, details: ScriptedJSON? = nil,
    extra: [String: ScriptedJSON] = [:]
  ) -> ModelAnswer {
    var error: [String: ScriptedJSON] = ["code": .string(code), "message": .string(message)]
    if let details { error["details"] = details }
    if code == "version_conflict" || code == "ancestor_unavailable" { error["status"] = .number(Double(status)) }
    var body = extra
    body["error"] = .object(error)
    return ModelAnswer(status: status, body: .object(body))
  }

  /// `400 validation_error` naming each field and what is wrong with it.
  static func validation(_ errors: [(field: String, message: String)]) -> ModelAnswer {
    let list = errors.map { ScriptedJSON.object(["field": .string($0.field), "message": .string($0.message)]) }
    return error(400, "validation_error", "The request is not valid", details: ["errors": .array(list)])
  }

  /// `404 item_not_found`, with `details.trashed` for a trashed row.
  static func itemNotFound(_ id: String, trashed: Bool = false) -> ModelAnswer {
    error(404, "item_not_found", "No item \(id)", details: trashed ? ["trashed": true] : nil)
  }

  /// `404 edge_not_found`.
  static func edgeNotFound(_ id: String) -> ModelAnswer {
    error(404, "edge_not_found", "No edge \(id)")
  }
}
