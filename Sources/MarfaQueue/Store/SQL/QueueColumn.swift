/// The `queue` table's columns (``StoreSchema/create``), named once.
///
/// The order is the order of ``QueueCodec/selectList``; every reader reads by name, so no code
/// depends on a column's place.
enum QueueColumn: Int, SQLColumn {
  case id, kind, itemId, targetId, edgeId, namespace, tag, blob, baseVersion, idempotencyKey, payload
  case sent, dependsOn, follows, verdict, reason, answer, conflictedCopyId, refusals, queuedAt, answeredAt
  case instanceId, refusal, mergedFields, replayed, lastFailureStatus, lastFailureText
  case environmentalStreak, waiting, seq, withdrawnDependency
  /// Kept, never read into a write: the keys a release retired, the payload's checksum
  /// (``SQLite/payloadDamage(of:)`` reads it), the pane generated from the verdict.
  case spentKeys, payloadSha, pane

  static let table = "queue"
}
