/// An action waiting for the person's `y`.
public enum PendingAction: Sendable, Hashable {
  /// Withdraw these writes.
  case withdraw([String])
  /// Discard these writes.
  case discard([String])

  /// The ids it acts on.
  public var ids: [String] {
    switch self {
    case .withdraw(let ids), .discard(let ids): return ids
    }
  }

  /// The verb.
  public var verb: String {
    switch self {
    case .withdraw: return "withdraw"
    case .discard: return "discard"
    }
  }
}
