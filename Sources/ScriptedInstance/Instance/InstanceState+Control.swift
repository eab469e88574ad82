extension InstanceState {
  /// The control endpoints under `/_scripted/`, for a test or tool in another process; never recorded or scripted.
  ///
  /// `GET /_scripted/requests`, `GET /_scripted/records`, `POST /_scripted/switch {instance_id, keep_data}`,
  /// `POST /_scripted/forget-events`.
  mutating func control(_ request: HTTPRequest) -> HTTPReply {
    let body = (try? ScriptedJSON(parsing: request.body)) ?? .object([:])
    var answer: ModelAnswer
    switch (request.method, request.path) {
    case ("GET", "/_scripted/requests"):
      let list = recorded.map { r -> ScriptedJSON in
        [
          "seq": .number(Double(r.seq)), "method": .string(r.method), "path": .string(r.path),
          "query": .string(r.query), "headers": .array(r.headers.map { [.string($0.name), .string($0.value)] }),
          "body": .string(r.bodyText), "status": r.status.map { .number(Double($0)) } ?? .null,
          "replayed": .bool(r.replayed), "scripted": .bool(r.scripted),
        ]
      }
      answer = ModelAnswer(status: 200, body: ["requests": .array(list)])
    case ("GET", "/_scripted/records"):
      let list = records.values.sorted { $0.key < $1.key }.map { r -> ScriptedJSON in
        [
          "key": .string(r.key), "method": .string(r.method), "path": .string(r.path),
          "status": .number(Double(r.status)), "replays": .number(Double(r.replays)),
          "applied": .number(Double(applied[r.key] ?? 0)),
        ]
      }
      answer = ModelAnswer(status: 200, body: ["records": .array(list)])
    case ("POST", "/_scripted/switch"):
      guard let id = body["instance_id"]?.stringValue, !id.isEmpty else {
        return .response(Self.http(.validation([("instance_id", "is required")])))
      }
      becomeInstance(id, keepData: body["keep_data"]?.boolValue ?? true)
      answer = ModelAnswer(status: 200, body: ["instance_id": .string(id)])
    case ("POST", "/_scripted/forget-events"):
      model.forgetEvents(before: model.headCursor)
      answer = ModelAnswer(status: 200, body: ["cursor": .string(String(model.headCursor))])
    default:
      answer = .error(404, "not_found", "No control route \(request.method) \(request.path)")
    }
    var response = Self.http(answer)
    response.headers.append(("X-Marfa-Contract", ScriptedInstance.contract))
    return .response(response)
  }
}
