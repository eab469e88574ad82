/// Why a write is stopped until something outside the queue changes.
///
/// The contract's seventh reason, `awaiting_dependency`, is not a case: such a write has
/// `waiting == true` and no verdict.
public enum BlockedReason: String, Sendable, Hashable, CaseIterable, Codable {
  case credentialRefused = "credential_refused"
  case keySpent = "key_spent"
  case ancestorUnavailable = "ancestor_unavailable"
  case conflictUnresolved = "conflict_unresolved"
  case failingAlone = "failing_alone"
  case instanceChanged = "instance_changed"

  /// The contract's snake_case name.
  public var wireName: String { rawValue }

  /// Whether `withdraw(_:)` may take a write blocked for this reason.
  package var withdrawable: Bool {
    switch self {
    case .ancestorUnavailable, .conflictUnresolved, .failingAlone, .instanceChanged: return true
    case .credentialRefused, .keySpent: return false
    }
  }
}
