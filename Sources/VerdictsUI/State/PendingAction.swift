import MarfaQueue

/// An action waiting for the person's `y`.
package enum PendingAction: Sendable, Hashable {
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
  /// Release every write blocked for `reason`; `count` is how many the store counted when the
  /// menu opened (nil: not counted yet).
  case releaseReason(BlockedReason, count: Int?)
  /// Fill the copy again from the instance `from` (its URL, when known): it expired, or a fill
  /// was interrupted, and no drain goes until it is filled.
  case fill(from: String?)

  /// How many writes a confirmation lists before `and N more`.
  static let listedInDialog = 3

  /// Whether the engine chooses the writes (a take, a release by reason): the dialog lists the
  /// first few as read from the store (``UIState/dialogExamples``).
  public var engineChooses: Bool {
    switch self {
    case .take, .releaseReason: return true
    default: return false
    }
  }

  /// The ids it acts on (none for a take or a release by reason, which the engine chooses).
  public var ids: [String] {
    switch self {
    case .withdraw(let ids), .discard(let ids), .release(let ids), .forget(let ids): return ids
    case .take, .releaseReason, .fill: return []
    }
  }

  /// How many writes it acts on, at most.
  public var count: Int {
    switch self {
    case .take(let answered): return answered
    case .releaseReason(_, let count): return count ?? 0
    default: return ids.count
    }
  }

  /// The verb.
  public var verb: String {
    switch self {
    case .withdraw: return "withdraw"
    case .discard: return "discard"
    case .release, .releaseReason: return "release"
    case .forget: return "forget"
    case .take: return "take"
    case .fill: return "fill"
    }
  }

  /// Whether it cannot be undone (drawn in the danger role).
  public var destructive: Bool {
    switch self {
    case .withdraw, .discard: return true
    case .release, .forget, .take, .releaseReason, .fill: return false
    }
  }
}
