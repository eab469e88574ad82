/// One write in the queue: what it names, what it carries, and what became of it.
public struct QueuedWrite: Sendable, Codable, Hashable {
  /// The write's id (a UUIDv7 the queue minted).
  public var id: String
  /// What the write does.
  public var kind: WriteKind
  /// The row written; for an edge write, the edge's source.
  public var itemId: String?
  /// An edge write's target.
  public var targetId: String?
  /// The edge an edge write names.
  public var edgeId: String?
  /// An extension write's namespace.
  public var namespace: String?
  /// A tag write's tag.
  public var tag: String?
  /// The hash of the bytes an upload carries.
  public var blob: String?
  /// The version the write was made against.
  public var baseVersion: Int?
  /// Minted at queue time; changed only by a release.
  public var idempotencyKey: String
  /// Writes it cannot go without (and is refused with).
  public var dependsOn: [String]
  /// The earlier write to the same row or edge it goes out after.
  public var follows: String?
  /// The request body as sent or to be sent.
  public var body: JSONValue
  /// The instance's whole last answer, as text.
  public var answer: String?
  /// Nil until answered.
  public var verdict: Verdict?
  /// Held behind a write that has no answer yet (the contract's `awaiting_dependency`).
  public var waiting: Bool
  /// Counted refusals, 0 to ``QueueLimits/ceiling``.
  public var refusals: Int
  /// What the last environmental failure left behind.
  public var lastFailure: LastFailure?
  /// Drains in a row in which the write met an environmental failure.
  public var environmentalStreak: Int
  /// The instance the copy was filled from when the write was queued.
  public var instanceId: String?
  /// Whether the write was ever sent (tells the instance's refusal from the drain's).
  public var sent: Bool
  /// The conflicted copy an answer named.
  public var conflictedCopyId: String?
  /// Refused unsent because a write it waited for is gone: withdrawn (the seed's "the
  /// `<kind>` it waits for was withdrawn"), or taken out of the queue once refused. Such a
  /// write can never be sent, so it is never released (the store's `withdrawn_dependency`).
  package var dependencyGone: Bool
  /// Whether the last answer was replayed from the instance's record.
  public var replayed: Bool
  /// ISO-8601 time it was queued.
  public var queuedAt: String
  /// ISO-8601 time it was answered.
  public var answeredAt: String?
  /// What the store holds as the kind when it is none of the fifteen this build knows (empty
  /// when it holds none); nil when ``kind`` is what the store holds. Such a write is never sent
  /// (a drain refuses it unsent) and is shown as unreadable (``kindName``, ``kindWords``), never
  /// as ``kind``, which is then only a placeholder.
  public var unknownKind: String?
  /// The first number of its row out of range, when the store was damaged (``StoreDamage``);
  /// the value here is the nearest one it could be, or none.
  public var damage: StoreDamage?
  /// The stored answer's size in bytes when ``answer`` holds only its start (a screen's read,
  /// ``QueueLimits/shownAnswer``); nil when it is whole.
  public var answerBytes: Int?
  /// The stored payload's size in bytes when it was too large for a screen to read as the body
  /// (``QueueLimits/shownPayload``; ``body`` is then empty); nil when the body is whole.
  public var bodyBytes: Int?
  /// The write's kept attempts, newest first, when the read asked for them (a screen's read,
  /// ``Queue/shownWrite(_:)``); nil otherwise.
  public var attempts: WriteAttempts?

  /// Creates a queued write value (a value only: nothing is queued).
  public init(
    id: String, kind: WriteKind, itemId: String? = nil, targetId: String? = nil, edgeId: String? = nil,
    namespace: String? = nil, tag: String? = nil, blob: String? = nil, baseVersion: Int? = nil,
    idempotencyKey: String, dependsOn: [String] = [], follows: String? = nil, body: JSONValue = .object([]),
    answer: String? = nil, verdict: Verdict? = nil, waiting: Bool = false, refusals: Int = 0,
    lastFailure: LastFailure? = nil, environmentalStreak: Int = 0, instanceId: String? = nil,
    sent: Bool = false, conflictedCopyId: String? = nil, dependencyGone: Bool = false, replayed: Bool = false,
    queuedAt: String, answeredAt: String? = nil, unknownKind: String? = nil
  ) {
    self.id = id
    self.kind = kind
    self.itemId = itemId
    self.targetId = targetId
    self.edgeId = edgeId
    self.namespace = namespace
    self.tag = tag
    self.blob = blob
    self.baseVersion = baseVersion
    self.idempotencyKey = idempotencyKey
    self.dependsOn = dependsOn
    self.follows = follows
    self.body = body
    self.answer = answer
    self.verdict = verdict
    self.waiting = waiting
    self.refusals = refusals
    self.lastFailure = lastFailure
    self.environmentalStreak = environmentalStreak
    self.instanceId = instanceId
    self.sent = sent
    self.conflictedCopyId = conflictedCopyId
    self.dependencyGone = dependencyGone
    self.replayed = replayed
    self.queuedAt = queuedAt
    self.answeredAt = answeredAt
    self.unknownKind = unknownKind
  }

  /// The pane a person finds this write in.
  public var pane: QueuePane { verdict?.name.pane ?? .waiting }

  /// The rows the write names, in order (``RowName``).
  public var rowNames: [RowName] {
    RowName.list(itemId: itemId, targetId: targetId, edgeId: edgeId, namespace: namespace, tag: tag, blob: blob)
  }

  /// The rows the write names, in words: `item 01… → 02…`, `edge e1`, `item x #tag`.
  public var rowsText: String { RowName.words(rowNames) }
}
