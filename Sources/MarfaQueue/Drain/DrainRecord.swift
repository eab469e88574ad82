import FoundationEssentials

/// One drain as the store's history keeps it: a bounded row, not its report (docs/rules.md
/// "The drains before this one"). The store keeps the last ``kept``.
public struct DrainRecord: Sendable, Codable, Hashable {
  /// Why a drain ended.
  public enum Ending: String, Sendable, Hashable, Codable, CaseIterable {
    /// It came to every write it could.
    case finished
    /// The instance could not be reached or an environmental failure ended it (``DrainRecord/why``).
    case unavailable
    /// The instance refused the key: the queue was parked.
    case stopped
    /// It ended with an error of its own (a full disk, the store replaced, a broken contract).
    case failed
    /// It was asked to stop (Ctrl-C, SIGTERM, SIGHUP, the screen's stop) and did: what it
    /// answered before is kept, nothing more was sent (``DrainRecord/why`` says who asked).
    case interrupted
    /// Its process ended before the drain did (killed, crashed, the machine stopped): the counts
    /// are those of its last commit. Never stored: told on reading a record with no end whose
    /// process no longer holds the writer role.
    case cutShort = "cut_short"
    /// It has no end: it runs now, or its process ended before it did.
    case open
  }

  /// How many drains a store keeps.
  public static let kept = 500

  /// Its number, growing with every drain the store ran.
  public var number: Int
  /// When it began.
  public var startedAt: Date
  /// When it ended; nil while it runs or when its process ended first.
  public var endedAt: Date?
  /// Who ran it, as its writer's record names it.
  public var program: String
  /// What it ran as: `tui`, `drain`, `queue`, `library`, …
  public var mode: String
  /// The process that ran it.
  public var pid: Int
  /// The host that process ran on.
  public var host: String
  /// The report's counts.
  public var answered: Int
  /// Writes held behind an unanswered one.
  public var held: Int
  /// Writes an environmental failure met, and everything after it in the pass.
  public var undelivered: Int
  /// Writes settled without a request.
  public var unsent: Int
  /// Writes whose request could not be made.
  public var unmade: Int
  /// How many writes reached each verdict, by wire name.
  public var verdicts: [String: Int]
  /// Why it ended.
  public var ending: Ending
  /// What it said of its end: the `unavailable` text, the refused key, the error (sanitized when shown).
  public var why: String?
  /// The longest `Retry-After` it met, in seconds.
  public var retryAfterSeconds: Int?

  /// Creates a record.
  public init(
    number: Int, startedAt: Date, endedAt: Date? = nil, program: String = "", mode: String = "", pid: Int = 0,
    host: String = "", answered: Int = 0, held: Int = 0, undelivered: Int = 0, unsent: Int = 0, unmade: Int = 0,
    verdicts: [String: Int] = [:], ending: Ending = .open, why: String? = nil, retryAfterSeconds: Int? = nil
  ) {
    self.number = number
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.program = program
    self.mode = mode
    self.pid = pid
    self.host = host
    self.answered = answered
    self.held = held
    self.undelivered = undelivered
    self.unsent = unsent
    self.unmade = unmade
    self.verdicts = verdicts
    self.ending = ending
    self.why = why
    self.retryAfterSeconds = retryAfterSeconds
  }

  /// Every write it came to.
  package var cameTo: Int { answered + held + undelivered + unsent + unmade }

  /// Writes answered per second, from start to end: only writes that were sent and answered
  /// count (a write held, undelivered or never sent is not a write a second); nil without an
  /// end, in its first moment, or when it answered none.
  public var writesPerSecond: Double? {
    guard let endedAt, answered > 0 else { return nil }
    let span = endedAt.timeIntervalSince(startedAt)
    guard span >= 0.001 else { return nil }
    return Double(answered) / span
  }
}
