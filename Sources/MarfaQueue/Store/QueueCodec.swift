/// The one place that maps a `queue` row to a ``QueuedWrite`` and back: every column read by
/// name (``QueueColumn``).
enum QueueCodec {
  /// The columns a write is read from.
  static let read: [QueueColumn] = QueueColumn.allCases.filter { ![.spentKeys, .payloadSha, .pane].contains($0) }

  /// ``read`` as an SQL list.
  static let selectList = QueueColumn.list(read)

  /// ``selectList`` with the body and the answer left out (each read as empty, under its own
  /// name): for lines and lists that never show them, at a fraction of the cost.
  static let summaryList = read.map { column -> String in
    switch column {
    case .payload: return "'{}' AS payload"
    case .answer: return "NULL AS answer"
    default: return column.name
    }
  }.joined(separator: ", ")

  /// The write in a row selected with ``selectList`` or ``summaryList``.
  static func write(from r: ColumnRow<QueueColumn>) -> QueuedWrite {
    let storedKind = r.text(.kind)
    let known = storedKind.flatMap(WriteKind.init(rawValue:))
    let reason = r.text(.reason)
    let refusal = r.text(.refusal).flatMap(JSONValue.parse).flatMap(Refusal.init(wireJSON:))
    let mergedFields = stringList(r.text(.mergedFields))
    let conflicted = r.text(.conflictedCopyId)
    let verdict: Verdict?
    switch r.text(.verdict).flatMap(VerdictName.init(rawValue:)) {
    case .accepted: verdict = .accepted
    case .merged: verdict = .merged(fields: mergedFields)
    case .conflicted: verdict = .conflicted(siblingId: conflicted ?? "", fields: mergedFields)
    case .refused: verdict = .refused(refusal ?? Refusal(reason: reason ?? "unknown"))
    case .blocked:
      verdict = .blocked(reason: BlockedReason(rawValue: reason ?? "") ?? .credentialRefused, refusal: refusal)
    case .dead: verdict = .dead
    case nil: verdict = nil
    }
    // Every number is checked against what it may be (``StoredRange``): one out of range is
    // read as the nearest it can be (or left out) and kept as the write's damage.
    let id = r.text(.id) ?? ""
    var damage: StoreDamage?
    func number(_ column: QueueColumn, _ range: ClosedRange<Int>, clamping: Bool) -> Int? {
      StoredRange.read(
        r.int(column), range, clamping: clamping, place: "queue.\(column.name) of …\(id.suffix(8))", damage: &damage)
    }
    let status = number(.lastFailureStatus, StoredRange.httpStatus, clamping: false)
    let text = r.text(.lastFailureText)
    let streak = number(.environmentalStreak, StoredRange.streak, clamping: true) ?? 0
    let refusals = number(.refusals, StoredRange.refusals, clamping: true) ?? 0
    let baseVersion = number(.baseVersion, StoredRange.version, clamping: false)
    let failure = status == nil && text == nil ? nil : LastFailure(status: status, text: text)
    var write = QueuedWrite(
      id: id, kind: known ?? .createItem, itemId: r.text(.itemId), targetId: r.text(.targetId),
      edgeId: r.text(.edgeId), namespace: r.text(.namespace), tag: r.text(.tag), blob: r.text(.blob),
      baseVersion: baseVersion, idempotencyKey: r.text(.idempotencyKey) ?? "",
      dependsOn: stringList(r.text(.dependsOn)), follows: r.text(.follows),
      body: body(r.text(.payload)), answer: r.text(.answer), verdict: verdict,
      waiting: r.bool(.waiting), refusals: refusals, lastFailure: failure,
      environmentalStreak: streak, instanceId: r.text(.instanceId), sent: r.bool(.sent),
      conflictedCopyId: conflicted, dependencyGone: r.bool(.withdrawnDependency), replayed: r.bool(.replayed),
      queuedAt: r.text(.queuedAt) ?? "", answeredAt: r.text(.answeredAt),
      unknownKind: known == nil ? storedKind ?? "" : nil)
    write.damage = damage
    return write
  }

  /// The write in a row, with its send order.
  static func sequenced(from r: ColumnRow<QueueColumn>) -> (Int, QueuedWrite) {
    (r.int(.seq) ?? 0, write(from: r))
  }

  /// A JSON array of strings as stored (`depends_on`, `merged_fields`); empty when absent.
  static func stringList(_ text: String?) -> [String] {
    // Most writes store none: an empty list is not parsed.
    guard let text, text != "[]" else { return [] }
    return JSONValue.parse(text)?.arrayValue?.compactMap(\.stringValue) ?? []
  }

  /// The body as stored; an empty object where none is (a summary reads `{}`, not parsed).
  static func body(_ text: String?) -> JSONValue {
    guard let text, text != "{}" else { return .object([]) }
    return JSONValue.parse(text) ?? .object([])
  }

  /// A list of strings as stored.
  static func stored(_ list: [String]) -> String { JSONValue.array(list.map(JSONValue.string)).text }
}
