/// Reads the Marfa core's `queue` rows into ``QueuedWrite`` values: the one place that knows the
/// core's columns and what they hold (reference: marfa-core-store.md section 3).
///
/// Columns are read by name. What the core does not keep is left at its empty value here
/// (`lastFailure` nil, `environmentalStreak` 0, `instanceId` nil); a reader says so through the
/// store's kind, never by showing those as facts.
enum CoreQueueCodec {
  /// The columns read, in the order selected.
  static let columns = [
    "seq", "id", "kind", "item_id", "target_id", "edge_id", "namespace", "tag", "blob", "base_version",
    "idempotency_key", "payload", "sent", "depends_on", "follows", "verdict", "reason", "answer",
    "conflicted_copy_id", "refusals", "queued_at", "answered_at",
  ]
  /// The columns as an SQL list.
  static let selectList = columns.joined(separator: ", ")
  private static let position = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, Int32($0)) })

  /// A row's value by column name.
  struct NamedRow {
    let row: SQLite.Row
    func text(_ name: String) -> String? { row.text(CoreQueueCodec.position[name]!) }
    func int(_ name: String) -> Int? { row.int(CoreQueueCodec.position[name]!) }
  }

  /// The pane a core row sits in, as SQL over `verdict` and `reason`: `awaiting_dependency` is
  /// waiting, as the seed asks.
  static let paneSQL = """
    CASE WHEN verdict IS NULL OR (verdict = 'blocked' AND reason = 'awaiting_dependency') THEN 0
      WHEN verdict = 'blocked' THEN 2 WHEN verdict = 'dead' THEN 3 ELSE 1 END
    """

  /// The write a row holds (its send order beside it).
  static func write(from r: SQLite.Row) -> (seq: Int, write: QueuedWrite) {
    let row = NamedRow(row: r)
    let kind = WriteKind(rawValue: row.text("kind") ?? "") ?? .createItem
    let answer = row.text("answer")
    let verdictName = row.text("verdict")
    let reason = row.text("reason")
    let (verdict, waiting) = self.verdict(
      verdictName, reason: reason, answer: answer, conflictedCopy: row.text("conflicted_copy_id"))
    let write = QueuedWrite(
      id: row.text("id") ?? "", kind: kind, itemId: row.text("item_id"), targetId: row.text("target_id"),
      edgeId: row.text("edge_id"), namespace: row.text("namespace"), tag: row.text("tag"), blob: row.text("blob"),
      baseVersion: row.int("base_version"), idempotencyKey: row.text("idempotency_key") ?? "",
      dependsOn: idList(row.text("depends_on")), follows: row.text("follows"),
      body: JSONValue.parse(row.text("payload") ?? "") ?? .null, answer: answer, verdict: verdict, waiting: waiting,
      refusals: row.int("refusals") ?? 0, sent: (row.int("sent") ?? 0) != 0,
      conflictedCopyId: row.text("conflicted_copy_id"), queuedAt: row.text("queued_at") ?? "",
      answeredAt: row.text("answered_at"))
    return (row.int("seq") ?? 0, write)
  }

  /// `depends_on`: a JSON array of queue ids, or NULL.
  static func idList(_ text: String?) -> [String] {
    guard let text, let array = JSONValue.parse(text)?.arrayValue else { return [] }
    return array.compactMap(\.stringValue)
  }

  /// The verdict a row's `verdict`, `reason` and `answer` say (reference 3, "Verdicts" and "A
  /// refusal"), and whether the write waits behind another.
  static func verdict(_ name: String?, reason: String?, answer: String?, conflictedCopy: String?) -> (Verdict?, Bool) {
    let envelope = answer.flatMap { JSONValue.parse($0) }
    let resolution = envelope?["conflict_resolution"]
    let fields = resolution?["fields"]?.arrayValue?.compactMap(\.stringValue) ?? []
    switch name {
    case nil: return (nil, false)
    case "accepted": return (.accepted, false)
    case "merged": return (.merged(fields: fields), false)
    case "conflicted":
      let sibling = conflictedCopy ?? resolution?["conflicted_copy_id"]?.stringValue ?? ""
      return (.conflicted(siblingId: sibling, fields: fields), false)
    case "refused":
      return (.refused(refusal(reason: reason ?? "refused", envelope: envelope)), false)
    case "dead": return (.dead, false)
    case "blocked":
      if reason == "awaiting_dependency" { return (nil, true) }
      guard let blocked = reason.flatMap(BlockedReason.init(rawValue:)) else {
        // The core refuses to read a queue holding another reason; shown as written.
        return (
          .refused(Refusal(reason: "blocked \(reason ?? "without a reason") (a reason the core does not write)")), false
        )
      }
      return (.blocked(reason: blocked, refusal: envelope.map { refusal(reason: reason ?? "", envelope: $0) }), false)
    default:
      return (.refused(Refusal(reason: "unknown verdict \(name ?? "")")), false)
    }
  }

  /// A refusal out of the stored answer: code and message from `error`, fields from
  /// `error.details.errors`, trashed from `error.details.trashed` or an acknowledged trashed
  /// item, the grant from `error.details.grant`.
  static func refusal(reason: String, envelope: JSONValue?) -> Refusal {
    let acknowledgedTrashed =
      envelope?["acknowledged"]?.boolValue == true && envelope?["item"]?["state"]?.stringValue == "trashed"
    return Refusal(reason: reason, envelope: envelope, trashed: acknowledgedTrashed)
  }
}
