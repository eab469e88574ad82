/// What `u` would put back: the writes the last discard, forget or take of this screen took out,
/// and the action's name for the status line.
package struct UndoOffer: Sendable, Hashable {
  /// `discard`, `forget` or `take`.
  public var action: String
  /// The writes it took out.
  public var ids: [String]

  /// Creates an offer.
  public init(action: String, ids: [String]) {
    self.action = action
    self.ids = ids
  }
}
