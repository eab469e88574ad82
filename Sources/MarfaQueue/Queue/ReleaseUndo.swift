import FoundationEssentials

/// A release call's writes, as the store keeps what it replaced (``Queue/lastRelease()``).
public struct ReleaseBatch: Sendable, Hashable, Codable {
  /// The batch's number in the store.
  public var number: Int
  /// The writes it released, in send order.
  public var ids: [String]

  /// Creates a batch value.
  public init(number: Int, ids: [String]) {
    self.number = number
    self.ids = ids
  }
}

/// What an undo of a release did (``Queue/undoRelease(_:)``).
public struct ReleaseUndo: Sendable, Hashable, Codable {
  /// The writes laid back as they were before the release.
  public var restored: [String]
  /// The writes left as they are: sent, answered or gone since the release.
  public var changedSince: [String]

  /// Creates an outcome value.
  public init(restored: [String], changedSince: [String]) {
    self.restored = restored
    self.changedSince = changedSince
  }
}
