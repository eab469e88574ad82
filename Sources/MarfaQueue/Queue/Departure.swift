/// Why a write left the queue, as the store records it for watchers in other processes
/// (`watch --plain --json` names it).
public enum Departure: String, Sendable, Codable, Hashable, CaseIterable {
  /// Withdrawn before it had an answer (``Queue/withdraw(_:)``).
  case withdrawn
  /// A refused write discarded (``Queue/discard(_:)``).
  case discarded
  /// An answered write taken or forgotten (``Queue/takeAnswered()``, ``Queue/forgetAnswered()``).
  case forgotten
}
