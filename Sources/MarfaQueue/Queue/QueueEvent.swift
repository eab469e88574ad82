import FoundationEssentials

/// One thing done to the queue that is not a drain and takes no write out (those are the
/// history's and the archive's): a release, an undo, a key given, a fill, and the instance
/// changing under the copy. Kept in the store, the newest ``QueueEvent/kept``
/// (``Queue/events(limit:since:)``); never a key.
public struct QueueEvent: Sendable, Hashable, Codable {
  /// What happened.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Writes released to be sent again (`count`, `reason` for a release by reason).
    case release
    /// Departed writes put back (`count`, `detail` the departure undone).
    case undo
    /// A release laid back (`count` laid back; `detail` how many went out since).
    case undoRelease = "undo_release"
    /// Another key given (never the key).
    case keyChanged = "key_changed"
    /// The copy filled from the instance (`detail` its instance id).
    case filled
    /// The copy found another instance at its address (`detail`: `was → now`).
    case instanceChanged = "instance_changed"
  }

  /// How many events the store keeps, the oldest out first.
  public static let kept = 10_000

  /// The event's number in the store, rising.
  public var number: Int
  /// What happened.
  public var kind: Kind
  /// When.
  public var at: Date
  /// The program that did it (`verdicts`, or the app embedding `MarfaQueue`), when kept.
  public var program: String?
  /// Its mode (`tui`, `drain`, …), when kept.
  public var mode: String?
  /// Its process id, when kept.
  public var pid: Int?
  /// The machine it ran on, when kept.
  public var host: String?
  /// How many writes it touched, where it touched writes.
  public var count: Int?
  /// The blocked reason a release by reason named.
  public var reason: String?
  /// What else it says (the departure undone, the instance ids).
  public var detail: String?

  /// Creates an event value.
  public init(
    number: Int, kind: Kind, at: Date, program: String? = nil, mode: String? = nil, pid: Int? = nil,
    host: String? = nil, count: Int? = nil, reason: String? = nil, detail: String? = nil
  ) {
    self.number = number
    self.kind = kind
    self.at = at
    self.program = program
    self.mode = mode
    self.pid = pid
    self.host = host
    self.count = count
    self.reason = reason
    self.detail = detail
  }
}
