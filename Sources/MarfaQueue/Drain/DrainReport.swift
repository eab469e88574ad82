/// What one drain pass did: every write it came to lands in exactly one of the five counts,
/// except writes a refused credential parks.
public struct DrainReport: Sendable, Codable, Hashable {
  /// Writes the instance answered, whatever the answer.
  public var answered: Int
  /// Writes held behind one they depend on or follow.
  public var held: Int
  /// Writes an environmental failure met, and everything after it in the pass.
  public var undelivered: Int
  /// Writes settled without a request.
  public var unsent: Int
  /// Writes whose request could not be made.
  public var unmade: Int
  /// A verdict entry for each write sent or settled unsent: every one from ``Queue/drain()``,
  /// the last ones only from a drain that keeps a bounded list (``verdictsOmitted`` says how
  /// many earlier ones were left out).
  public var verdicts: [DrainVerdict]
  /// How many verdict entries, the earliest, were left out of ``verdicts`` (the queue's rows hold them).
  public var verdictsOmitted: Int = 0
  /// How many entries of the whole pass (left out or not) reached each verdict, by wire name.
  public var verdictCounts: [String: Int] = [:]
  /// When the pass started (ISO-8601); nil until known.
  public var startedAt: String?
  /// When the pass ended (ISO-8601); nil until known.
  public var endedAt: String?
  /// Why the pass ended before the queue was through.
  public var unavailable: String?
  /// The refused key that stopped the queue.
  public var stopped: String?
  /// Sources the key does not claim.
  public var unclaimedSources: [String]
  /// The longest `Retry-After` of the pass, capped at 300 seconds.
  public var retryAfterSeconds: Int?

  /// The longest wait a drain passes on.
  package static let retryAfterCap = 300

  /// How many verdict entries a bounded report keeps (the store's last drain, `verdicts drain`).
  public static let keptVerdicts = 1_000

  /// Every verdict entry of the pass, listed or left out.
  package var verdictEntries: Int { verdicts.count + verdictsOmitted }

  /// Creates a report.
  public init(
    answered: Int = 0, held: Int = 0, undelivered: Int = 0, unsent: Int = 0, unmade: Int = 0,
    verdicts: [DrainVerdict] = [], unavailable: String? = nil, stopped: String? = nil,
    unclaimedSources: [String] = [], retryAfterSeconds: Int? = nil
  ) {
    self.answered = answered
    self.held = held
    self.undelivered = undelivered
    self.unsent = unsent
    self.unmade = unmade
    self.verdicts = verdicts
    self.unavailable = unavailable
    self.stopped = stopped
    self.unclaimedSources = unclaimedSources
    self.retryAfterSeconds = retryAfterSeconds
    for v in verdicts { if let name = v.verdict?.wireName { verdictCounts[name, default: 0] += 1 } }
  }
}

/// One write's outcome in a drain pass.
public struct DrainVerdict: Sendable, Codable, Hashable {
  /// The write's id.
  public var id: String
  /// What the write does.
  public var kind: WriteKind
  /// The row it wrote; for an edge write, the edge's source.
  public var itemId: String?
  /// The edge an edge write names.
  public var edgeId: String?
  /// Nil when the write met no answer (or a counted failure below the ceiling).
  public var verdict: Verdict?
  /// How many refusals the write has met, this one included.
  public var refusals: Int
  /// Whether the instance answered from its idempotency record.
  public var replayed: Bool
  /// The conflicted copy the answer named.
  public var conflictedCopyId: String?
  /// What the store holds as the kind when this build does not know it (``QueuedWrite/unknownKind``).
  public var unknownKind: String?

  /// Creates a drain verdict.
  public init(
    id: String, kind: WriteKind, itemId: String? = nil, edgeId: String? = nil, verdict: Verdict? = nil,
    refusals: Int = 0, replayed: Bool = false, conflictedCopyId: String? = nil, unknownKind: String? = nil
  ) {
    self.id = id
    self.kind = kind
    self.itemId = itemId
    self.edgeId = edgeId
    self.verdict = verdict
    self.refusals = refusals
    self.replayed = replayed
    self.conflictedCopyId = conflictedCopyId
    self.unknownKind = unknownKind
  }
}
