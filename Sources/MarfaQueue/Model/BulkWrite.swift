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

  /// Binds the write's columns, by name.
  func bind(_ column: inout ColumnBinder<QueueColumn>) {
    column(.id, .text(id))
    column(.kind, .text(kind.rawValue))
    column(.itemId, .of(itemId))
    column(.targetId, .of(targetId))
    column(.edgeId, .of(edgeId))
    column(.namespace, .of(namespace))
    column(.tag, .of(tag))
    column(.baseVersion, .of(baseVersion))
    column(.idempotencyKey, .text(idempotencyKey))
    column(.payload, .text(payload))
    column(.sent, .int(sent ? 1 : 0))
    column(.follows, .of(follows))
    column(.verdict, .of(verdict))
    column(.reason, .of(reason))
    column(.answer, .of(answer))
    column(.conflictedCopyId, .of(conflictedCopyId))
    column(.refusals, .int(refusals))
    column(.queuedAt, .text(queuedAt))
    column(.answeredAt, .of(answeredAt))
    column(.instanceId, .of(instanceId))
    column(.refusal, .of(refusal))
    column(.mergedFields, .of(mergedFields))
    column(.replayed, .int(replayed ? 1 : 0))
    column(.lastFailureStatus, .of(lastFailureStatus))
    column(.lastFailureText, .of(lastFailureText))
    column(.environmentalStreak, .int(environmentalStreak))
    column(.waiting, .int(waiting ? 1 : 0))
  }

  /// The columns ``bind(_:)`` names, in its order.
  static let columns: [QueueColumn] = {
    var recorder = ColumnBinder<QueueColumn>()
    BulkWrite(id: "", kind: .createItem, idempotencyKey: "", payload: "", queuedAt: "").bind(&recorder)
    return recorder.recorded
  }()
}
