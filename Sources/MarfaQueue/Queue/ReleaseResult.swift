/// What a release did to one write (``Queue/release(ids:)``).
public enum ReleaseResult: Sendable, Codable, Hashable {
  /// Sent again on the next drain under a fresh key; `count` is how many writes went back in
  /// all (the writes the drain refused unsent because of it go with it).
  case released(count: Int)
  /// Left alone: ``QueuedWrite/allows(_:)`` does not let it go again, for this reason.
  case notAllowed(ActionObstacle)
  /// The queue holds no write with this id.
  case notFound

  /// Whether the write was released.
  public var isReleased: Bool {
    if case .released = self { return true }
    return false
  }
}
