/// What `u` would put back: the writes the last discard, forget or take of this screen took out,
/// or the writes its last release put back to be sent again; and the action's name for the
/// status line.
package struct UndoOffer: Sendable, Hashable {
  /// `discard`, `forget`, `take` or `release`.
  public var action: String
  /// The writes it took out, or released.
  public var ids: [String]
  /// For a release, the store's number for it (``ReleaseBatch``): `u` lays its writes back as
  /// they were.
  public var releaseBatch: Int?

  /// Creates an offer.
  public init(action: String, ids: [String], releaseBatch: Int? = nil) {
    self.action = action
    self.ids = ids
    self.releaseBatch = releaseBatch
  }
}
