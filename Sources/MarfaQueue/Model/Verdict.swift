/// The instance's verdict on a write: a closed set of six. `nil` on a write means not answered.
public enum Verdict: Sendable, Codable, Hashable {
  /// The instance took the write.
  case accepted
  /// The instance applied the write over changes made since, field by field.
  case merged(fields: [String])
  /// The instance kept its own value and wrote the losing one to a sibling item.
  case conflicted(siblingId: String, fields: [String])
  /// The instance (or the drain) refused the write.
  case refused(Refusal)
  /// The write is stopped until something outside the queue changes.
  case blocked(reason: BlockedReason, refusal: Refusal? = nil)
  /// The write was refused ``QueueLimits/ceiling`` (five) times; it is never sent again unless released.
  case dead

  /// The verdict's name without what it carries.
  public var name: VerdictName {
    switch self {
    case .accepted: return .accepted
    case .merged: return .merged
    case .conflicted: return .conflicted
    case .refused: return .refused
    case .blocked: return .blocked
    case .dead: return .dead
    }
  }

  /// The contract's name for the verdict: `accepted`, `merged`, … `dead`.
  public var wireName: String { name.rawValue }

  /// The refusal the verdict carries, if any.
  public var refusal: Refusal? {
    switch self {
    case .refused(let r): return r
    case .blocked(_, let r): return r
    default: return nil
    }
  }

  /// The contract's `reason` for this verdict: the blocked reason, or the refusal's reason.
  package var wireReason: String? {
    switch self {
    case .blocked(let reason, _): return reason.wireName
    case .refused(let refusal): return refusal.reason
    default: return nil
    }
  }

  /// The fields a merge (or a conflict) resolved; empty for other verdicts.
  package var mergedFields: [String] {
    switch self {
    case .merged(let fields), .conflicted(_, let fields): return fields
    default: return []
    }
  }

  /// The blocked reason, if the write is blocked.
  public var blockedReason: BlockedReason? {
    if case .blocked(let reason, _) = self { return reason }
    return nil
  }

}
