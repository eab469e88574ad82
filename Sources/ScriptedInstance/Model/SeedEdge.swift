/// An edge the instance holds from the start.
public struct SeedEdge: Sendable, Hashable {
  /// The edge's id.
  public var id: String
  /// The item the edge starts from.
  public var sourceId: String
  /// The item the edge points to.
  public var targetId: String
  /// The edge's type.
  public var edgeType: String
  /// The edge's properties.
  public var properties: [String: ScriptedJSON]

  /// An edge at version 1.
  public init(
    id: String, sourceId: String, targetId: String, edgeType: String, properties: [String: ScriptedJSON] = [:]
  ) {
    self.id = id
    self.sourceId = sourceId
    self.targetId = targetId
    self.edgeType = edgeType
    self.properties = properties
  }
}
