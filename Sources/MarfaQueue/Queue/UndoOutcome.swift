/// What ``Queue/undo(_:)`` did with a departed write.
public enum UndoOutcome: Sendable, Codable {
  /// Put back exactly as it was, in its place in the send order.
  case restored(DepartedWrite)
  /// Not put back, and why; the store is as it was.
  case refused(UndoObstacle)
}
