/// An item the instance holds from the start.
public struct SeedItem: Sendable, Hashable {
  /// The item's id.
  public var id: String
  /// The item's type.
  public var type: String
  /// The properties of its current version.
  public var properties: [String: ScriptedJSON]
  /// The properties of earlier versions, oldest first: the item starts at version `history.count + 1`.
  public var history: [[String: ScriptedJSON]]
  /// `active`, `archived` or `trashed`.
  public var state: String
  /// The item's tier.
  public var tier: String
  /// The item's tags.
  public var tags: [String]
  /// The item's extensions by namespace.
  public var extensions: [String: ScriptedJSON]
  /// The natural key's source, if any.
  public var source: String?
  /// The natural key's id within its source, if any.
  public var sourceId: String?
  /// When the item happened, if it says.
  package var occurredAt: String?

  /// An item at version `history.count + 1`.
  public init(
    id: String, type: String, properties: [String: ScriptedJSON] = [:], history: [[String: ScriptedJSON]] = [],
    state: String = "active", tier: String = "standard", tags: [String] = [], extensions: [String: ScriptedJSON] = [:],
    source: String? = nil, sourceId: String? = nil, occurredAt: String? = nil
  ) {
    self.id = id
    self.type = type
    self.properties = properties
    self.history = history
    self.state = state
    self.tier = tier
    self.tags = tags
    self.extensions = extensions
    self.source = source
    self.sourceId = sourceId
    self.occurredAt = occurredAt
  }
}
