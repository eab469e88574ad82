/// Why a ``WriteAction`` leaves a write alone, in the engine's words.
///
/// ``predicate`` reads after the write's name: `"01J… " + predicate` ("01J… is accepted; only a
/// refused write is discarded"), so a screen and a command line say the same sentence.
public enum ActionObstacle: Sendable, Hashable, Codable {
  /// The action never takes a write in this state (``QueuedWrite/stateWords``).
  case notFor(WriteAction, state: String)
  /// The instance itself refused the write: sent again, it would be refused the same way.
  case refusedByInstance
  /// The drain refused the write unsent because a write it waited for was withdrawn, or was
  /// taken out of the queue once refused: it can never be sent, so it is never released.
  case dependencyGone
  /// A refused write that carried content goes only by `discard(_:)`, never by a clearing.
  case carriesContent
  /// The drain refused the write unsent and it may go again (by a release): not cleared.
  case refusedUnsent
  /// A waiting write depends on it. Only the store can say this (the write alone does not
  /// know what depends on it): `discard(_:)` and the clearings check it there.
  case waitingDependant

  /// The reason as a predicate of the write: "is accepted; only …", "was refused by …".
  public var predicate: String {
    switch self {
    case .notFor(let action, let state):
      switch action {
      case .release:
        return "is \(state); only a blocked or dead write, or one the drain refused unsent, goes again"
      case .withdraw:
        let reasons = BlockedReason.allCases.filter(\.withdrawable).map(\.wireName)
        return
          "is \(state); only a write blocked \(reasons.dropLast().joined(separator: ", ")) or \(reasons.last ?? "") can be withdrawn"
      case .discard:
        return "is \(state); only a refused write is discarded"
      case .forget:
        return "is \(state); only an answered write can be forgotten"
      }
    case .refusedByInstance:
      return "was refused by the instance; sent again it would be refused the same way"
    case .dependencyGone:
      return "was refused unsent because a write it waited for is gone; it is never released"
    case .carriesContent:
      return "was refused and carried content; only a discard takes it out"
    case .refusedUnsent:
      return "was refused unsent by the drain and may go again; release it, or discard it"
    case .waitingDependant:
      return "has a waiting write that depends on it"
    }
  }
}
