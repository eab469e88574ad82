/// One edge the instance holds.
struct EdgeRecord: Sendable {
  var id: String
  var sourceId: String
  var targetId: String
  var edgeType: String
  var properties: [String: ScriptedJSON]
  var version: Int
  var createdAt: String
  var updatedAt: String
  var seq: Int

  /// The edge as the wire shows it.
  var json: ScriptedJSON {
    [
      "id": .string(id), "source_id": .string(sourceId), "target_id": .string(targetId),
      "edge_type": .string(edgeType), "properties": .object(properties), "version": .number(Double(version)),
      "created_at": .string(createdAt), "updated_at": .string(updatedAt),
    ]
  }
}
