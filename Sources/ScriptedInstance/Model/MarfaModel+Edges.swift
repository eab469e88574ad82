import MarfaWire

extension MarfaModel {
  /// `POST /edges`: a new edge (201), a repeat of the same edge (200 `acknowledged`), or a refusal.
  mutating func createEdge(_ body: ScriptedJSON) -> ModelAnswer {
    guard let fields = body.objectValue else { return .validation([("body", "must be a JSON object")]) }
    var errors: [(field: String, message: String)] = []
    for name in ["source_id", "target_id", "edge_type"] where (fields[name]?.stringValue ?? "").isEmpty {
      errors.append((name, "is required"))
    }
    if let p = fields["properties"], p.objectValue == nil { errors.append(("properties", "must be an object")) }
    if !errors.isEmpty { return .validation(errors) }
    let sourceId = fields["source_id"]!.stringValue!
    let targetId = fields["target_id"]!.stringValue!
    let edgeType = fields["edge_type"]!.stringValue!
    for end in [sourceId, targetId] where items[end] == nil { return .itemNotFound(end) }
    if let id = fields["id"]?.stringValue, let existing = edges[id] {
      guard existing.sourceId == sourceId, existing.targetId == targetId, existing.edgeType == edgeType else {
        return .error(409, "id_reused", "The id \(id) already names another edge", details: ["id": .string(id)])
      }
      return ModelAnswer(status: 200, body: ["edge": existing.json, "acknowledged": true])
    }
    let now = Timestamp.now()
    let edge = EdgeRecord(
      id: fields["id"]?.stringValue ?? mintId(), sourceId: sourceId, targetId: targetId, edgeType: edgeType,
      properties: Self.applying(fields["properties"]?.objectValue ?? [:], to: [:]), version: 1, createdAt: now,
      updatedAt: now, seq: nextOrder())
    edges[edge.id] = edge
    logEdge("edge.created", edge)
    return .ok(["edge": edge.json], status: 201)
  }

  /// `PATCH /edges/{id}`: properties and at most one moved end, at the edge's current version.
  mutating func updateEdge(_ id: String, _ body: ScriptedJSON) -> ModelAnswer {
    guard var edge = edges[id] else { return .edgeNotFound(id) }
    guard let fields = body.objectValue else { return .validation([("body", "must be a JSON object")]) }
    guard let version = fields["version"]?.intValue else { return .validation([("version", "is required")]) }
    guard version == edge.version else {
      return .error(
        409, "version_conflict", "Edge \(id) is at version \(edge.version), not \(version)",
        extra: ["current": edge.json])
    }
    let newSource = fields["source_id"]?.stringValue
    let newTarget = fields["target_id"]?.stringValue
    if newSource != nil && newTarget != nil { return .validation([("target_id", "an edge moves one end at a time")]) }
    for end in [newSource, newTarget].compactMap({ $0 }) where items[end] == nil { return .itemNotFound(end) }
    edge.sourceId = newSource ?? edge.sourceId
    edge.targetId = newTarget ?? edge.targetId
    edge.properties = Self.applying(fields["properties"]?.objectValue ?? [:], to: edge.properties)
    edge.version += 1
    edge.updatedAt = Timestamp.now()
    edges[id] = edge
    logEdge("edge.updated", edge)
    return .ok(["edge": edge.json])
  }

  /// `DELETE /edges/{id}`: the edge is gone (a `version` given must be the current one).
  mutating func deleteEdge(_ id: String, version: Int?) -> ModelAnswer {
    guard let edge = edges[id] else { return .edgeNotFound(id) }
    if let version, version != edge.version {
      return .error(
        409, "version_conflict", "Edge \(id) is at version \(edge.version), not \(version)",
        extra: ["current": edge.json])
    }
    edges[id] = nil
    logEdge("edge.deleted", edge)
    return .ok(["ok": true])
  }

  /// `GET /edges/{id}`: `{edge}`.
  func readEdge(_ id: String) -> ModelAnswer {
    guard let edge = edges[id] else { return .edgeNotFound(id) }
    return ModelAnswer(status: 200, body: ["edge": edge.json])
  }
}
