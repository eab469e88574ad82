/// Reads the Marfa core's `queue` rows into ``QueuedWrite`` values: the one place that knows the
/// core's columns and what they hold (reference: marfa-core-store.md section 3).
///
/// Columns are read by name (``CoreQueueColumn``). What the core does not keep is left at its empty value here
/// (`lastFailure` nil, `environmentalStreak` 0, `instanceId` nil); a reader says so through the
/// store's kind, never by showing those as facts.
enum CoreQueueCodec {
  /// The columns read, as an SQL list.
  static let selectList = CoreQueueColumn.all

  /// The pane a core row sits in, as SQL over `verdict` and `reason`: `awaiting_dependency` is
  /// waiting, as the seed asks.
  static let paneSQL = """
    CASE WHEN verdict IS NULL OR (verdict = 'blocked' AND reason = 'awaiting_dependency') THEN 0
      WHEN verdict = 'blocked' THEN 2 WHEN verdict = 'dead' THEN 3 ELSE 1 END
    """

  /// The write a row holds (its send order beside it).
  static func write(from row: ColumnRow<CoreQueueColumn>) -> (seq: Int, write: QueuedWrite) {
    let storedKind = row.text(.kind)
    let known = storedKind.flatMap(WriteKind.init(rawValue:))
    let answer = row.text(.answer)
    let verdictName = row.text(.verdict)
    let reason = row.text(.reason)
    let (verdict, waiting) = self.verdict(
      verdictName, reason: reason, answer: answer, conflictedCopy: row.text(.conflictedCopyId))
    // Numbers out of range are read as the nearest they can be, or left out (``StoredRange``).
    let id = row.text(.id) ?? ""
    var damage: StoreDamage?
    let refusals = StoredRange.read(
      row.int(.refusals), StoredRange.refusals, clamping: true, place: "queue.refusals of …\(id.suffix(8))",
      damage: &damage)
    let baseVersion = StoredRange.read(
      row.int(.baseVersion), StoredRange.version, clamping: false, place: "queue.base_version of …\(id.suffix(8))",
      damage: &damage)
    var write = QueuedWrite(
      id: id, kind: known ?? .createItem, itemId: row.text(.itemId), targetId: row.text(.targetId),
      edgeId: row.text(.edgeId), namespace: row.text(.namespace), tag: row.text(.tag), blob: row.text(.blob),
      baseVersion: baseVersion, idempotencyKey: row.text(.idempotencyKey) ?? "",
      dependsOn: idList(row.text(.dependsOn)), follows: row.text(.follows),
      body: JSONValue.parse(row.text(.payload) ?? "") ?? .null, answer: answer, verdict: verdict, waiting: waiting,
      refusals: refusals ?? 0, sent: (row.int(.sent) ?? 0) != 0,
      conflictedCopyId: row.text(.conflictedCopyId), queuedAt: row.text(.queuedAt) ?? "",
      answeredAt: row.text(.answeredAt), unknownKind: known == nil ? storedKind ?? "" : nil)
    write.damage = damage
    return (row.int(.seq) ?? 0, write)
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
