/// A verdict's name alone, as the contract and the store's `verdict` column spell it: the six
/// cases of ``Verdict`` without what they carry.
///
/// The store's SQL is written from these (``sql``, ``sqlList(_:)``), never from string literals.
public enum VerdictName: String, Sendable, Codable, Hashable, CaseIterable {
  case accepted
  case merged
  case conflicted
  case refused
  case blocked
  case dead

  /// The pane a write with this verdict sits in (a write with no verdict sits in ``QueuePane/waiting``).
  public var pane: QueuePane {
    switch self {
    case .accepted, .merged, .conflicted, .refused: return .answered
    case .blocked: return .blocked
    case .dead: return .dead
    }
  }

  /// The verdicts under which a write is still outstanding, as no verdict is: it is not through,
  /// so what depends on it waits and it cannot be cleared (``QueuedWrite/isOutstanding``).
  static let outstanding: [VerdictName] = [.blocked, .dead]
}
