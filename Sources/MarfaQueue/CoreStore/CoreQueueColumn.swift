/// The Marfa core's `queue` columns this build reads (reference: marfa-core-store.md section 3),
/// named once.
enum CoreQueueColumn: Int, SQLColumn {
  case seq, id, kind, itemId, targetId, edgeId, namespace, tag, blob, baseVersion, idempotencyKey, payload, sent
  case dependsOn, follows, verdict, reason, answer, conflictedCopyId, refusals, queuedAt, answeredAt

  static let table = "queue"
}
