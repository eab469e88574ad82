/// One generated write for ``StoreBulkInsert``: the queue's columns as stored, unchecked.
package struct BulkWrite: Sendable {
  package var id: String
  package var kind: WriteKind
  package var itemId: String?
  package var targetId: String?
  package var edgeId: String?
  package var namespace: String?
  package var tag: String?
  package var baseVersion: Int?
  package var idempotencyKey: String
  package var payload: String
  package var sent = false
  package var follows: String?
  /// The verdict's stored name (`accepted`, `blocked`, …), nil for none.
  package var verdict: String?
  package var reason: String?
  package var answer: String?
  package var conflictedCopyId: String?
  package var refusals = 0
  package var queuedAt: String
  package var answeredAt: String?
  package var instanceId: String?
  /// The refusal's wire JSON text.
  package var refusal: String?
  /// A JSON array of field names.
  package var mergedFields: String?
  package var replayed = false
  package var lastFailureStatus: Int?
  package var lastFailureText: String?
  package var environmentalStreak = 0
  package var waiting = false

  /// A write with no verdict, queued at `queuedAt`.
  package init(id: String, kind: WriteKind, idempotencyKey: String, payload: String, queuedAt: String) {
    self.id = id
    self.kind = kind
    self.idempotencyKey = idempotencyKey
    self.payload = payload
    self.queuedAt = queuedAt
  }

  /// The write's columns, by name.
  var columns: [(QueueColumn, SQLValue)] {
    [
      (.id, .text(id)), (.kind, .text(kind.rawValue)), (.itemId, .of(itemId)), (.targetId, .of(targetId)),
      (.edgeId, .of(edgeId)), (.namespace, .of(namespace)), (.tag, .of(tag)), (.baseVersion, .of(baseVersion)),
      (.idempotencyKey, .text(idempotencyKey)), (.payload, .text(payload)), (.sent, .int(sent ? 1 : 0)),
      (.follows, .of(follows)), (.verdict, .of(verdict)), (.reason, .of(reason)), (.answer, .of(answer)),
      (.conflictedCopyId, .of(conflictedCopyId)), (.refusals, .int(refusals)), (.queuedAt, .text(queuedAt)),
      (.answeredAt, .of(answeredAt)), (.instanceId, .of(instanceId)), (.refusal, .of(refusal)),
      (.mergedFields, .of(mergedFields)), (.replayed, .int(replayed ? 1 : 0)),
      (.lastFailureStatus, .of(lastFailureStatus)), (.lastFailureText, .of(lastFailureText)),
      (.environmentalStreak, .int(environmentalStreak)), (.waiting, .int(waiting ? 1 : 0)),
    ]
  }

  /// The columns ``columns`` names, in its order.
  static let columnOrder = BulkWrite(id: "", kind: .createItem, idempotencyKey: "", payload: "", queuedAt: "")
    .columns.map(\.0)
}
