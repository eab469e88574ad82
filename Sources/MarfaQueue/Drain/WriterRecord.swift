import FoundationEssentials

/// Who holds a store's writer role and what it is doing, as the writer publishes it in the store
/// (the `meta` row `writer`) and a watcher reads it (``WorkingCopy/writer()``).
///
/// Never holds the key: only whether the instance refused it.
public struct WriterRecord: Sendable, Codable, Hashable {
  /// Whether the writer that published the record is still there.
  public enum State: String, Sendable, Hashable, Codable {
    /// It holds the writer lock now.
    case live
    /// It closed the store cleanly (``WriterRecord/closedAt``).
    case closed
    /// Its record says open, but no process holds the writer lock: it ended without closing
    /// (killed, crashed, or a library user that never called `close()`).
    case gone
  }

  /// The program, e.g. `verdicts` or the app embedding `MarfaQueue`.
  public var program: String
  /// What it runs as: `tui`, `drain`, `queue`, `library`, …
  public var mode: String
  /// Its process id (0 when unknown: a writer of an earlier build publishes nothing).
  public var pid: Int32
  /// The host it runs on.
  public var host: String
  /// When it took the writer role.
  public var startedAt: Date
  /// When it last wrote this record.
  public var updatedAt: Date
  /// When it closed the store, if it did.
  public var closedAt: Date?
  /// Whether it drains on its own (auto-drain).
  public var autoDrain: Bool
  /// Whether the instance refused its key (the key itself is never published).
  public var keyRefused: Bool
  /// The drain in progress, if one runs.
  public var drain: DrainProgress?
  /// When its last drain ended, and what it came to.
  public var lastDrain: DrainProgress?
  /// What it last met of the instance: reachable or not, since when, and the next automatic try.
  public var instance: InstanceContact?
  /// How often it refreshes ``updatedAt`` while it lives (its heartbeat), in seconds; nil for a
  /// writer of an earlier build, which wrote its record only when something changed.
  public var heartbeatSeconds: Int?
  /// Alive, closed or gone, as the reader found it (not stored: read from the writer lock).
  public var state: State = .live
  /// Whether this is no record of the writer's but the lock's holder as the kernel names it
  /// (``program`` is its command name, ``pid`` its id, 0 when unknown): a writer that took the
  /// role a moment ago and has not published yet, or one of an earlier build (not stored).
  public var unpublished = false

  /// Creates a record.
  public init(
    program: String, mode: String, pid: Int32, host: String, startedAt: Date, updatedAt: Date? = nil,
    closedAt: Date? = nil, autoDrain: Bool = false, keyRefused: Bool = false, drain: DrainProgress? = nil,
    lastDrain: DrainProgress? = nil, state: State = .live
  ) {
    self.program = program
    self.mode = mode
    self.pid = pid
    self.host = host
    self.startedAt = startedAt
    self.updatedAt = updatedAt ?? startedAt
    self.closedAt = closedAt
    self.autoDrain = autoDrain
    self.keyRefused = keyRefused
    self.drain = drain
    self.lastDrain = lastDrain
    self.state = state
  }

  /// How long a live writer's drain may go without coming to another write before watchers say
  /// it is stalled (docs/rules.md "The writer's record").
  public static let stallSeconds: Double = 30

  /// How often a writer refreshes its record while it lives, when nothing else wrote it.
  public static let heartbeat: Duration = .seconds(60)

  /// Whether the drain in progress has not moved for ``stallSeconds`` as of `now` (a live writer
  /// only: a stopped process, or one stuck in a call that does not return).
  public func stalled(now: Date) -> Bool {
    guard state == .live, let d = drain else { return false }
    return now.timeIntervalSince(d.movedAt ?? d.startedAt) >= Self.stallSeconds
  }

  /// Whether a live writer that promised a heartbeat has missed two of them and more as of `now`
  /// (it is stopped, or hangs); false for a writer that promised none.
  public func silent(now: Date) -> Bool {
    guard state == .live, let beat = heartbeatSeconds, beat > 0 else { return false }
    return now.timeIntervalSince(updatedAt) >= Double(2 * beat) + Self.stallSeconds
  }

  /// How far a drain is, as its writer last said.
  public struct DrainProgress: Sendable, Hashable, Codable {
    /// When the pass began.
    public var startedAt: Date
    /// When it ended (nil while it runs).
    public var endedAt: Date?
    /// The writes waiting when it began.
    public var total: Int
    /// Writes the pass came to so far (sent, or settled without a request).
    public var sent: Int
    /// Writes the instance answered so far.
    public var answered: Int
    /// Verdicts so far, by wire name (`accepted`, `refused`, …).
    public var verdicts: [String: Int]
    /// When the pass last came to a write (nil until it did, and in records of earlier builds).
    public var movedAt: Date?

    /// Writes not yet come to.
    public var left: Int { max(0, total - sent) }

    /// Writes come to per second since the pass began, as of `now` (nil in the first moment).
    public func rate(now: Date) -> Double? {
      let span = (endedAt ?? now).timeIntervalSince(startedAt)
      guard span >= 0.2, sent > 0 else { return nil }
      return Double(sent) / span
    }

    /// Seconds left at the rate so far (nil when no rate yet).
    public func secondsLeft(now: Date) -> Double? {
      guard let r = rate(now: now), r > 0 else { return nil }
      return Double(left) / r
    }

    /// Creates a progress.
    public init(
      startedAt: Date, endedAt: Date? = nil, total: Int, sent: Int = 0, answered: Int = 0,
      verdicts: [String: Int] = [:],
      movedAt: Date? = nil
    ) {
      self.startedAt = startedAt
      self.endedAt = endedAt
      self.total = total
      self.sent = sent
      self.answered = answered
      self.verdicts = verdicts
      self.movedAt = movedAt
    }
  }
}
