/// Queueing a write: its key, its dependencies, the row it names, stored durably.
extension SQLite {
  /// The copy's row of this kind and id: its version and body.
  func row(kind: RowKind, id: String) throws -> (version: Int?, body: JSONValue)? {
    var out: (Int?, JSONValue)?
    try query(
      "SELECT version, body FROM rows WHERE kind = ? AND id = ?", [.text(kind.rawValue), .text(id)],
      reading: CopyRowColumn.self
    ) { r in
      out = (r.int(.version), r.text(.body).flatMap(JSONValue.parse) ?? .object([]))
    }
    return out
  }

  /// Puts a row into the copy; `bodyText`, when given, is stored as the body (the same value as
  /// the instance sent it), else `body` is written.
  func putRow(kind: RowKind, id: String, version: Int?, state: String? = nil, body: JSONValue, bodyText: String? = nil)
    throws
  {
    try query(
      SQLite.putRowSQL,
      [.text(kind.rawValue), .text(id), .of(version), .of(state), .text(bodyText ?? body.text)])
  }

  /// ``putRow(kind:id:version:state:body:bodyText:)``'s statement, its text made once: the drain
  /// runs it for every answered row, and text made once is found by its address, not its bytes.
  static let putRowSQL =
    "INSERT OR REPLACE INTO \(CopyRowColumn.table) (\(CopyRowColumn.list([.kind, .id, .version, .state, .body])))"
    + " VALUES (?, ?, ?, ?, ?)"

  /// The unanswered (or blocked or dead) create of this item or edge, which a write to it waits on.
  func pendingCreate(of id: String, edge: Bool) throws -> String? {
    let kind = edge ? WriteKind.createEdge.rawValue : WriteKind.createItem.rawValue
    let column = edge ? "edge_id" : "item_id"
    return try ids(
      """
      SELECT id FROM queue WHERE \(column) = ? AND kind = ? AND (\(SQLite.outstanding())
        OR id IN (SELECT id FROM read_backs WHERE kind = '\(SQLite.landingKind)'))
      ORDER BY seq DESC LIMIT 1
      """, [.text(id), .text(kind)]
    ).first
  }

  /// The latest earlier write to the same row or edge that has no verdict or is refused, blocked or dead.
  func writeAhead(item: String?, edge: String?) throws -> String? {
    if let edge {
      return try ids(
        "SELECT id FROM queue WHERE edge_id = ? AND \(SQLite.outstanding(orRefused: true)) ORDER BY seq DESC LIMIT 1",
        [.text(edge)]
      ).first
    }
    guard let item else { return nil }
    let edgeWrite = WriteKind.sqlOneOf("kind", WriteKind.allCases.filter(\.isEdgeWrite))
    // A create carrying the natural key of the row the copy holds is a write to that row too.
    return try ids(
      """
      SELECT id FROM (
        SELECT id, seq FROM queue WHERE item_id = ? AND NOT \(edgeWrite) AND \(SQLite.outstanding(orRefused: true))
        UNION ALL
        SELECT q.id, q.seq FROM queue q JOIN rows r ON r.kind = 'item' AND r.id = ?
        WHERE q.kind = \(WriteKind.createItem.sql) AND q.item_id <> r.id AND \(SQLite.outstanding("q", orRefused: true))
          AND json_extract(q.payload, '$.source') = json_extract(r.body, '$.source')
          AND json_extract(q.payload, '$.source_id') = json_extract(r.body, '$.source_id')
      ) ORDER BY seq DESC LIMIT 1
      """, [.text(item), .text(item)]
    ).first
  }

  /// Queues the draft; the caller runs this inside a durable transaction.
  func enqueue(_ draft: WriteDraft, now: String) throws -> QueuedWrite {
    // What goes in a request path is checked before anything is stored (the command line
    // refuses it earlier still, with exit 2).
    for part in [draft.itemId, draft.edgeId, draft.targetId, draft.tag, draft.namespace].compactMap({ $0 }) {
      if let problem = WriteRequest.segmentProblem(part) { throw QueueError.invalid(message: problem) }
    }
    var depends: [String] = draft.waitsOn
    switch draft.kind {
    case .createItem, .uploadBlob:
      break
    case .createEdge:
      for end in [draft.itemId, draft.targetId].compactMap({ $0 }) {
        if let create = try pendingCreate(of: end, edge: false), !depends.contains(create) { depends.append(create) }
      }
    case .updateEdge, .deleteEdge:
      if let edge = draft.edgeId, let create = try pendingCreate(of: edge, edge: true) { depends.append(create) }
    default:
      if let item = draft.itemId, let create = try pendingCreate(of: item, edge: false) { depends.append(create) }
    }
    let follows: String?
    switch draft.kind {
    case .createItem:
      // A create carrying a natural key goes after the writes still waiting on the row it names.
      let body = draft.body(nil)
      if body["id"] == nil, let source = body["source"]?.stringValue,
        let sourceId = body["source_id"]?.stringValue, let named = try rowNamed(source: source, sourceId: sourceId)
      {
        follows = try writeAhead(item: named, edge: nil)
      } else {
        follows = nil
      }
    case .uploadBlob, .createEdge: follows = nil
    case .updateEdge, .deleteEdge: follows = try writeAhead(item: nil, edge: draft.edgeId)
    default: follows = try writeAhead(item: draft.itemId, edge: nil)
    }

    var baseVersion: Int?
    if draft.needsVersion {
      let rowKind = draft.kind.rowKind
      let rowId = draft.kind.rowId(item: draft.itemId, edge: draft.edgeId)
      if let named = draft.namedVersion {
        // A version the copy holds; said to be read (`--as-read`), one the copy has held: from 1
        // up to the one it holds. Never one the copy never showed (0, or past its own).
        if let rowId, let held = try row(kind: rowKind, id: rowId), let v = held.version, v != named {
          guard draft.asRead else {
            throw QueueError.invalid(
              message:
                "the copy holds \(rowKind) \(rowId) at version \(v), not \(named); pass --as-read if the edit was made against \(named)"
            )
          }
          guard (1...max(1, v)).contains(named), v > 0 else {
            throw QueueError.invalid(
              message: "the copy holds \(rowKind) \(rowId) at version \(v) and never showed version \(named), "
                + "so no edit was read there")
          }
        }
        baseVersion = named
      } else {
        guard let rowId, let held = try row(kind: rowKind, id: rowId) else {
          throw QueueError.invalid(
            message:
              "the copy holds no \(rowKind) \(rowId ?? ""); name the version it was read at (--version N)"
          )
        }
        baseVersion = held.version ?? 0
      }
    } else if let named = draft.namedVersion {
      // A create made conditional on the version it was based on keeps it, on the wire and here.
      baseVersion = named
    }

    let instance = try meta(.instanceId)
    let id = Identifiers.uuid7()
    let key = Identifiers.key()
    let body = draft.body(baseVersion)
    let payload = body.text
    // With the payload's checksum, where the store keeps them (one made by an earlier build that
    // could not be upgraded does not).
    let checksummed = keepsPayloadChecksums()
    var columns: [(QueueColumn, SQLValue)] = [
      (.id, .text(id)), (.kind, .text(draft.kind.rawValue)), (.itemId, .of(draft.itemId)),
      (.targetId, .of(draft.targetId)), (.edgeId, .of(draft.edgeId)), (.namespace, .of(draft.namespace)),
      (.tag, .of(draft.tag)), (.blob, .of(draft.blob)), (.baseVersion, .of(baseVersion)),
      (.idempotencyKey, .text(key)), (.payload, .text(payload)), (.dependsOn, .text(QueueCodec.stored(depends))),
      (.follows, .of(follows)), (.queuedAt, .text(now)), (.instanceId, .of(instance)),
    ]
    if checksummed { columns.append((.payloadSha, .text(SQLite.payloadChecksum(payload)))) }
    try insert(columns)
    for d in depends {
      try insert([(QueueDepColumn.id, .text(id)), (.onId, .text(d))], or: "IGNORE")
    }
    if let lay = draft.layRow {
      let rowKind = draft.kind.rowKind
      if let rowId = draft.kind.rowId(item: draft.itemId, edge: draft.edgeId) {
        let current = try row(kind: rowKind, id: rowId)
        if draft.kind == .updateItem || draft.kind == .updateEdge {
          try keepEditRead(id, properties: current?.body["properties"] ?? .object([]))
        }
        if let laid = lay(current?.body) {
          let version =
            draft.kind == .createItem || draft.kind == .createEdge ? (current?.version ?? 0) : current?.version
          try putRow(kind: rowKind, id: rowId, version: version, body: laid)
        }
      }
    }
    guard let written = try write(id: id) else {
      throw QueueError.store(path: path, message: "the queued write vanished")
    }
    return written
  }
}
