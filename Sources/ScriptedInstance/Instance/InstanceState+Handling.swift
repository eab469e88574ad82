extension InstanceState {
  /// The endpoints whose `Idempotency-Key` the instance honours (contract 6.1).
  static func isKeyedDoor(_ method: String, _ segments: [String]) -> Bool {
    switch (method, segments.count) {
    case ("POST", 1): return segments[0] == "items" || segments[0] == "edges"
    case ("PATCH", 2), ("DELETE", 2): return segments[0] == "items" || segments[0] == "edges"
    case ("POST", 3): return segments[0] == "items" && ["purge", "transition", "restore"].contains(segments[2])
    default: return false
    }
  }

  /// Answers one request: records it, then a script rule, else the model behind auth and idempotency.
  mutating func handle(_ request: HTTPRequest) -> HTTPReply {
    if request.path.hasPrefix("/_scripted/") { return control(request) }

    let seq = (recorded.last?.seq ?? 0) + 1
    recorded.append(
      RecordedRequest(
        seq: seq, method: request.method, path: request.path, query: request.rawQuery, headers: request.headers,
        body: request.body))
    let index = recorded.count - 1
    let body = request.body.isEmpty ? nil : try? ScriptedJSON(parsing: request.body)
    if request.method != "GET" && !pendingEdits.isEmpty {
      for edit in pendingEdits { model.edit(edit) }
      pendingEdits = []
    }

    let scripted = takeScriptedAnswer(request, body: body)
    var answer = scripted ?? .normal
    if case .editFirst(let edit) = answer.kind {
      model.edit(edit)
      answer.kind = .normal
    }
    recorded[index].scripted = scripted != nil && answer.kind != .normal
    var response: HTTPResponse
    switch answer.kind {
    case .drop: return .drop
    case .stall: return .stall
    case .reply(let status, let text, let contentType):
      response = HTTPResponse(status: status, body: Array(text.utf8))
      if let contentType { response.headers.append(("Content-Type", contentType)) }
      if let code = (try? ScriptedJSON(parsing: text))?["error"]?["code"]?.stringValue {
        response.headers.append(("X-Error-Code", code))
      }
    case .replyBytes(let status, let bytes, let contentType):
      response = HTTPResponse(status: status, body: bytes)
      if let contentType { response.headers.append(("Content-Type", contentType)) }
    case .versionConflict, .ancestorUnavailable:
      response = Self.http(conflictEnvelope(answer.kind == .versionConflict, request, body: body))
    case .otherInstance(let id):
      response = HTTPResponse(status: 200, json: rootBody(instanceId: id))
    case .editFirst:
      preconditionFailure("an edit-first answer is answered as the model would")
    case .normal:
      switch modelReply(request, body: body, index: index) {
      case .response(let r): response = r
      case let other:
        recorded[index].status = 200
        return other
      }
    }
    response.headers.append(("X-Request-ID", "req-\(seq)"))
    switch answer.contract {
    case .standard: response.headers.append(("X-Marfa-Contract", ScriptedInstance.contract))
    case .absent: break
    case .values(let values): response.headers += values.map { ("X-Marfa-Contract", $0) }
    }
    if let seconds = answer.retryAfter { response.headers.append(("Retry-After", String(seconds))) }
    for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) { response.headers.append((name, value)) }
    recorded[index].status = response.status
    return .response(response)
  }

  /// The answer of the first rule that matches and has one left, used up by this call; nil when none does.
  private mutating func takeScriptedAnswer(_ request: HTTPRequest, body: ScriptedJSON?) -> ScriptedAnswer? {
    for i in rules.indices where rules[i].rule.match.matches(request, body: body) {
      let rule = rules[i]
      if rule.used < rule.rule.answers.count {
        rules[i].used += 1
        return rule.rule.answers[rule.used]
      }
      if rule.rule.repeatsLast, let last = rule.rule.answers.last { return last }
    }
    return nil
  }

  /// A `409 version_conflict` or `ancestor_unavailable` envelope naming the item's current row.
  private func conflictEnvelope(_ versionConflict: Bool, _ request: HTTPRequest, body: ScriptedJSON?) -> ModelAnswer {
    let segments = request.segments
    let id = segments.count >= 2 ? segments[1] : body?["id"]?.stringValue ?? ""
    let current: ScriptedJSON =
      segments.first == "edges"
      ? (model.edges[id]?.json ?? ["id": .string(id)]) : (model.items[id]?.summary ?? ["id": .string(id)])
    if versionConflict {
      return .error(
        409, "version_conflict", "\(id) changed since the version the write was based on", extra: ["current": current])
    }
    let requested = body?["version"]?.intValue ?? request.query("version").flatMap { Int($0) } ?? 0
    return .error(
      409, "ancestor_unavailable", "The version the write was based on is not available",
      extra: ["current": current, "requested_version": .number(Double(requested))])
  }

  /// The model's reply, behind the key check and the idempotency records.
  private mutating func modelReply(_ request: HTTPRequest, body: ScriptedJSON?, index: Int) -> HTTPReply {
    let segments = request.segments
    if !(request.method == "GET" && segments.isEmpty), let keys, !keys.contains(request.bearer ?? "") {
      return .response(Self.http(.error(401, "unauthorized", "The API key is not valid")))
    }
    if request.method == "GET" && segments.first == "events" { return eventsReply(request) }
    if request.method == "GET" && segments.count == 2 && segments[0] == "blobs" {
      let named = segments[1].hasPrefix("sha256:") ? segments[1] : "sha256:" + segments[1]
      guard let blob = model.blobs[named] else {
        return .response(Self.http(.error(404, "blob_not_found", "No blob \(segments[1])")))
      }
      return .response(HTTPResponse(status: 200, headers: [("Content-Type", blob.mimeType)], body: blob.bytes))
    }

    guard Self.isKeyedDoor(request.method, segments), let key = request.header("Idempotency-Key") else {
      let answer = route(request, body: body)
      if answer == nil { unscriptedSeqs.append(recorded[index].seq) }
      var response = Self.http(
        answer ?? .error(501, "not_scripted", "No route answers \(request.method) \(request.path)"))
      if request.method == "GET", let view = request.header("X-Marfa-Read-View") {
        response.headers += [("X-Marfa-Read-View", view), ("Cache-Control", "no-store")]
      }
      return .response(response)
    }
    guard (1...255).contains(key.utf8.count) else {
      return .response(Self.http(.validation([("Idempotency-Key", "must be 1 to 255 characters")])))
    }
    if let record = records[key] {
      guard record.method == request.method, record.path == request.path, record.requestBody == request.body else {
        return .response(
          Self.http(.error(422, "idempotency_key_reused", "The idempotency key was used with another request")))
      }
      records[key]?.replays += 1
      recorded[index].replayed = true
      var response = HTTPResponse(status: record.status, body: Array(record.answer.utf8))
      response.headers.append(("Content-Type", "application/json"))
      if let code = (try? ScriptedJSON(parsing: record.answer))?["error"]?["code"]?.stringValue {
        response.headers.append(("X-Error-Code", code))
      }
      response.headers.append(("Idempotency-Replayed", "true"))
      return .response(response)
    }
    let answer =
      route(request, body: body) ?? .error(501, "not_scripted", "No route answers \(request.method) \(request.path)")
    let response = Self.http(answer)
    if ![401, 403].contains(answer.status) && answer.status < 500 {
      records[key] = IdempotencyRecord(
        key: key, method: request.method, path: request.path, requestBody: request.body, status: answer.status,
        answer: String(decoding: response.body, as: UTF8.self))
    }
    if answer.applied { applied[key, default: 0] += 1 }
    return .response(response)
  }

  /// The model's answer at one endpoint, or nil when no endpoint has that method and path.
  private mutating func route(_ request: HTTPRequest, body: ScriptedJSON?) -> ModelAnswer? {
    let s = request.segments
    let json = body ?? (request.body.isEmpty ? .object([:]) : .null)
    switch (request.method, s.count, s.first ?? "") {
    case ("GET", 0, _): return ModelAnswer(status: 200, body: rootBody(instanceId: currentInstanceId))
    case ("GET", 1, "types"):
      return ModelAnswer(
        status: 200, body: ["data": .array(model.types.values.sorted { $0.name < $1.name }.map(\.json))])
    case ("GET", 1, "items"):
      let limit = min(max(Int(request.query("limit") ?? "") ?? 50, 1), 200)
      let cursor = request.query("cursor")
      guard cursor == nil || Int(cursor!) != nil else { return .validation([("cursor", "is not a cursor")]) }
      let types = request.query("type").map { Set($0.split(separator: ",").map(String.init)) }
      let include = request.query("include")?.split(separator: ",") ?? []
      return model.listItems(
        state: request.query("state"), types: types, limit: limit, after: cursor.flatMap { Int($0) } ?? 0,
        withEdges: include.contains("edges"))
    case ("POST", 1, "items"): return model.createItem(json)
    case ("GET", 2, "items"): return model.readItem(s[1])
    case ("PATCH", 2, "items"): return model.updateItem(s[1], json, conflictAuto: request.query("conflict") == "auto")
    case ("DELETE", 2, "items"): return model.deleteItem(s[1], version: request.query("version").flatMap { Int($0) })
    case ("POST", 3, "items") where s[2] == "restore": return model.setState(s[1], to: "active", event: "item.restored")
    case ("POST", 3, "items") where s[2] == "transition":
      return model.setState(s[1], to: json["state"]?.stringValue, event: "item.transitioned")
    case ("POST", 3, "items") where s[2] == "purge": return model.purgeItem(s[1])
    case ("PUT", 3, "items") where s[2] == "metadata", ("PATCH", 3, "items") where s[2] == "metadata":
      guard let tags = Self.strings(json["tags"]) else { return .validation([("tags", "must be an array of strings")]) }
      return model.changeTags(s[1], request.method == "PUT" ? .replace(tags) : .add(tags))
    case ("POST", 3, "items") where s[2] == "tags":
      guard let tags = Self.strings(json["tags"]) else { return .validation([("tags", "must be an array of strings")]) }
      return model.changeTags(s[1], .add(tags))
    case ("DELETE", 4, "items") where s[2] == "tags": return model.changeTags(s[1], .remove(s[3]))
    case ("PUT", 4, "items") where s[2] == "extensions":
      guard body != nil else { return .validation([("body", "must be JSON")]) }
      return model.setExtension(s[1], namespace: s[3], to: json)
    case ("DELETE", 4, "items") where s[2] == "extensions": return model.setExtension(s[1], namespace: s[3], to: nil)
    case ("POST", 1, "edges"): return model.createEdge(json)
    case ("GET", 2, "edges"): return model.readEdge(s[1])
    case ("PATCH", 2, "edges"): return model.updateEdge(s[1], json)
    case ("DELETE", 2, "edges"):
      return model.deleteEdge(s[1], version: request.query("version").flatMap { Int($0) } ?? json["version"]?.intValue)
    case ("POST", 1, "blobs"):
      let mime = request.header("Content-Type").flatMap { $0.isEmpty ? nil : $0 } ?? "application/octet-stream"
      return model.putBlob(request.body, mimeType: mime)
    default: return nil
    }
  }

  /// `GET /`: `{name, version, instance_id, contract, features}`, the contract as the number it is.
  func rootBody(instanceId: String) -> ScriptedJSON {
    [
      "name": "scripted-instance", "version": "1.0.0", "instance_id": .string(instanceId),
      "contract": .number(Double(ScriptedInstance.contract) ?? 0), "features": [],
    ]
  }

  /// A model answer as an HTTP response with `Content-Type` and `X-Error-Code`.
  static func http(_ answer: ModelAnswer) -> HTTPResponse {
    var response = HTTPResponse(status: answer.status, json: answer.body)
    if let code = answer.body["error"]?["code"]?.stringValue { response.headers.append(("X-Error-Code", code)) }
    return response
  }

  private static func strings(_ value: ScriptedJSON?) -> [String]? {
    guard let array = value?.arrayValue else { return nil }
    let strings = array.compactMap(\.stringValue)
    return strings.count == array.count ? strings : nil
  }
}
