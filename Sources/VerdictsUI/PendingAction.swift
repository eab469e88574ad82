/// An action waiting for the person's `y`.
public enum PendingAction: Sendable, Hashable {
  /// Withdraw these writes.
  case withdraw([String])
  /// Discard these writes.
  case discard([String])
  /// Release these writes (more than one).
  case release([String])
  /// Forget these answered writes (more than one).
  case forget([String])
  /// Take every answered write that may be cleared; `answered` is how many the pane holds.
  case take(answered: Int)

  /// The ids it acts on (none for a take, which the engine chooses).
  public var ids: [String] {
    switch self {
    case .withdraw(let ids), .discard(let ids), .release(let ids), .forget(let ids): return ids
    case .take: return []
    }
  }

  /// How many writes it acts on, at most.
  public var count: Int {
    if case .take(let answered) = self { return answered }
    return ids.count
  }

  /// The verb.
  public var verb: String {
    switch self {
    case .withdraw: return "withdraw"
    case .discard: return "discard"
    case .release: return "release"
    case .forget: return "forget"
    case .take: return "take"
    }
  }

  /// Whether it cannot be undone (drawn in the danger role).
  public var destructive: Bool {
    switch self {
    case .withdraw, .discard: return true
    case .release, .forget, .take: return false
    }
  }
}
