/// Why a departed write cannot be put back (``Queue/undo(_:)``).
public enum UndoObstacle: Sendable, Codable, Hashable {
  /// It was withdrawn: its row was put back as the instance holds it and the writes waiting on
  /// it were refused, so putting it back would not be what the person saw.
  case withdrawn
  /// A write with its id is in the queue (it was put back already).
  case inQueue
  /// A write queued after it names the same row (item, edge or blob): put back, it would be
  /// sent, or read, in front of that write's base.
  case queuedSince(id: String)
  /// A write it depends on or follows left the queue after it, and it could still be sent: it
  /// would wait on a write that is no longer there.
  case dependencyLeft(id: String)

  /// Why, as a sentence to follow the write's id (`w-1 cannot be put back: …`).
  public var predicate: String {
    switch self {
    case .withdrawn:
      return "was withdrawn: its row was reset from the instance and the writes waiting on it were refused; "
        + "its content stays readable (verdicts show ID, verdicts departed --json)"
    case .inQueue: return "is in the queue"
    case .queuedSince(let id): return "\(id) was queued since on the same row"
    case .dependencyLeft(let id): return "\(id), which it waits for, left the queue since"
    }
  }
}
