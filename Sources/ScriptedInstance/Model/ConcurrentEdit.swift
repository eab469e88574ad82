/// An edit another writer makes to an item, moving its version on (a scenario applies these before the first write).
public struct ConcurrentEdit: Sendable, Hashable {
  /// The item edited.
  public var itemId: String
  /// Properties set (null removes one); none → the version does not move.
  public var properties: [String: ScriptedJSON]
  /// A new state (`trashed`…), if any.
  public var state: String?
  /// Drop every snapshot but the newest, so a write based on an older version meets `ancestor_unavailable`.
  package var forgetHistory: Bool

  /// An edit of `itemId`.
  public init(
    itemId: String, properties: [String: ScriptedJSON] = [:], state: String? = nil, forgetHistory: Bool = false
  ) {
    self.itemId = itemId
    self.properties = properties
    self.state = state
    self.forgetHistory = forgetHistory
  }
}
