/// One write a scenario asks a client to queue, as plain data the client turns into a queue call.
public struct ScenarioWrite: Sendable, Hashable {
  /// The contract's kind name: `create_item`, `update_item`, … `upload_blob`.
  public var kind: String
  /// The item written (for an edge write, the edge's source).
  public var itemId: String?
  /// The edge written, for edge writes.
  public var edgeId: String?
  /// The edge's target, for `create_edge`.
  public var targetId: String?
  /// The edge type, for `create_edge`.
  public var edgeType: String?
  /// The item type, for `create_item`.
  public var type: String?
  /// The properties as JSON object text, for creates and updates.
  public var properties: String?
  /// The version the write is based on (updates, deletes, edge updates).
  public var version: Int?
  /// Tags, for `replace_metadata` and `merge_metadata`.
  public var tags: [String]?
  /// One tag, for `add_tag` and `remove_tag`.
  public var tag: String?
  /// The extension namespace, for extension writes.
  public var namespace: String?
  /// The body as JSON text, for `write_extension`.
  public var body: String?
  /// The state, for `transition_item`.
  public var state: String?
  /// The bytes as UTF-8 text, for `upload_blob`.
  public var content: String?
  /// The MIME type, for `upload_blob`.
  public var mimeType: String?
  /// What the instance is scripted to make of it, in words (for a demo's caption).
  package var expect: String

  /// A write of `kind`; give the members the kind needs.
  public init(
    kind: String, itemId: String? = nil, edgeId: String? = nil, targetId: String? = nil, edgeType: String? = nil,
    type: String? = nil, properties: String? = nil, version: Int? = nil, tags: [String]? = nil, tag: String? = nil,
    namespace: String? = nil, body: String? = nil, state: String? = nil, content: String? = nil,
    mimeType: String? = nil, expect: String = ""
  ) {
    self.kind = kind
    self.itemId = itemId
    self.edgeId = edgeId
    self.targetId = targetId
    self.edgeType = edgeType
    self.type = type
    self.properties = properties
    self.version = version
    self.tags = tags
    self.tag = tag
    self.namespace = namespace
    self.body = body
    self.state = state
    self.content = content
    self.mimeType = mimeType
    self.expect = expect
  }
}
