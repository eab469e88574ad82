/// One item the instance holds, with its metadata and the properties of every version still kept.
struct ItemRecord: Sendable {
  /// The properties and type an item had at one version.
  struct Snapshot: Sendable {
    var type: String
    var properties: [String: ScriptedJSON]
  }

  var id: String
  var type: String
  var properties: [String: ScriptedJSON]
  var version: Int
  var state: String
  var tier: String
  var source: String?
  var sourceId: String?
  var occurredAt: String?
  var createdAt: String
  var updatedAt: String
  /// The order of creation, for listing and paging.
  var seq: Int
  var tags: [String] = []
  var extensions: [String: ScriptedJSON] = [:]
  /// Snapshots by version; a version missing here is unavailable as an ancestor.
  var snapshots: [Int: Snapshot] = [:]

  /// The item as the wire shows it.
  var json: ScriptedJSON {
    [
      "id": .string(id), "type": .string(type), "properties": .object(properties), "version": .number(Double(version)),
      "state": .string(state), "tier": .string(tier), "source": source.map { .string($0) } ?? .null,
      "source_id": sourceId.map { .string($0) } ?? .null, "occurred_at": occurredAt.map { .string($0) } ?? .null,
      "created_at": .string(createdAt), "updated_at": .string(updatedAt),
    ]
  }

  /// The metadata sidecar `{item_id, tags, extensions}`.
  var metadataJSON: ScriptedJSON {
    ["item_id": .string(id), "tags": .array(tags.map { .string($0) }), "extensions": .object(extensions)]
  }

  /// `{item, metadata}`.
  var withMetadata: ScriptedJSON { ["item": json, "metadata": metadataJSON] }

  /// The row as a conflict envelope names it: `{id, version, properties, type, tier, occurred_at, source_id}`.
  var summary: ScriptedJSON {
    [
      "id": .string(id), "version": .number(Double(version)), "properties": .object(properties),
      "type": .string(type), "tier": .string(tier), "occurred_at": occurredAt.map { .string($0) } ?? .null,
      "source_id": sourceId.map { .string($0) } ?? .null,
    ]
  }

  /// Keeps the current properties as the snapshot of the current version.
  mutating func keepSnapshot() {
    snapshots[version] = Snapshot(type: type, properties: properties)
  }
}
