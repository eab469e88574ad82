/// Whether a ``WriteAction`` may take a write: allowed, or not, with what stands in the way.
public enum ActionPermission: Sendable, Hashable {
  /// The action may take the write.
  case allowed
  /// The action leaves the write alone, for this reason.
  case notAllowed(ActionObstacle)

  /// Whether the action may take the write.
  public var isAllowed: Bool { self == .allowed }

  /// What stands in the way, or nil when the action is allowed.
  public var obstacle: ActionObstacle? {
    if case .notAllowed(let obstacle) = self { return obstacle }
    return nil
  }
}
