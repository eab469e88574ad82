/// The store's side of a fill and a catch-up: the copy's rows beside the queue's waiting writes.
extension SQLite {
  /// Throws unless the copy's fill is complete: never filled ``QueueError/noCursor``, a fill
  /// under way or interrupted ``QueueError/hydrationIncomplete``, an expired copy
  /// ``QueueError/copyExpired(reason:)`` with the reason kept. What a drain and a catch-up ask
  /// before they touch the instance.
  func requireFilled() throws {
    switch FillState(rawValue: try meta(.fill) ?? FillState.never.rawValue) ?? .never {
    case .never: throw QueueError.noCursor
    case .underway: throw QueueError.hydrationIncomplete
    case .expired: throw QueueError.copyExpired(reason: try meta(.expiredReason) ?? "expired")
    case .complete: return
    }
  }

  /// Expires the copy for `reason`, durably: a drain and a catch-up then throw
  /// ``QueueError/copyExpired(reason:)`` with it until a fill refills the copy (its queue is kept).
  func expireCopy(reason: String) throws {
    try transaction(durable: true) {
      let was = try meta(.fill)
      try setMeta(.fill, FillState.expired.rawValue)
      try setMeta(.expiredReason, reason)
      if reason == "instance_changed", was != FillState.expired.rawValue {
        try record(.instanceChanged, by: nil, detail: "the copy expired: another instance answers at its address")
      }
    }
  }

  /// Drops every item row no pending write names (a fill reads them all again).
  func dropItemRowsNotBeneathWaitingWrites() throws {
    try query(
      """
      DELETE FROM rows WHERE kind = '\(RowKind.item.rawValue)'
        AND id NOT IN (SELECT item_id FROM queue WHERE \(Self.pendingPanes) AND item_id IS NOT NULL)
      """)
  }

  /// The writes a fill keeps the copy's rows beneath: unanswered, blocked, and dead (a release
  /// may yet send a dead one, so the copy keeps showing it).
  static let pendingPanes =
    "pane IN (\(QueuePane.waiting.rawValue), \(QueuePane.blocked.rawValue), \(QueuePane.dead.rawValue))"

  /// The `rows` kind a fill stages item rows under until it takes them all at its end.
  static let stagedFillKind = RowKind.filling
  /// The `rows` kind a fill stages edge rows under.
  static let stagedFillEdgeKind = RowKind.fillingEdge

  /// Stages one item row of a fill's page (the copy's own rows are untouched until the end).
  func stageFillRow(_ row: JSONValue) throws {
    guard let id = row["id"]?.stringValue else { return }
    try putRow(
      kind: SQLite.stagedFillKind, id: id, version: row["version"]?.intValue, state: row["state"]?.stringValue,
      body: row)
  }

  /// Stages one edge row a fill's page carried.
  func stageFillEdge(_ edge: JSONValue) throws {
    guard let id = edge["id"]?.stringValue else { return }
    try putRow(kind: SQLite.stagedFillEdgeKind, id: id, version: edge["version"]?.intValue, body: edge)
  }

  /// Drops what a fill staged (one that stopped, or was killed, before taking it).
  func dropStagedFillRows() throws {
    try query(
      "DELETE FROM rows WHERE kind IN (?, ?)",
      [.text(SQLite.stagedFillKind.rawValue), .text(SQLite.stagedFillEdgeKind.rawValue)])
  }

  /// The copy's item and edge rows become the staged ones, except the rows waiting writes were
  /// laid over, which keep what the copy has; the staged rows are then dropped.
  func takeStagedFillRows() throws {
    let beneath = "SELECT item_id FROM queue WHERE \(Self.pendingPanes) AND item_id IS NOT NULL"
    try dropItemRowsNotBeneathWaitingWrites()
    try query(
      """
      INSERT OR REPLACE INTO rows (kind, id, version, state, body)
        SELECT '\(RowKind.item.rawValue)', id, version, state, body FROM rows WHERE kind = ? AND id NOT IN (\(beneath))
      """, [.text(SQLite.stagedFillKind.rawValue)])
    // The edges the pages carried replace the copy's, but for those waiting writes were laid over.
    let edgesBeneath = "SELECT edge_id FROM queue WHERE \(Self.pendingPanes) AND edge_id IS NOT NULL"
    try query("DELETE FROM rows WHERE kind = '\(RowKind.edge.rawValue)' AND id NOT IN (\(edgesBeneath))")
    try query(
      """
      INSERT OR REPLACE INTO rows (kind, id, version, state, body)
        SELECT '\(RowKind.edge.rawValue)', id, version, state, body FROM rows WHERE kind = ? AND id NOT IN (\(edgesBeneath))
      """, [.text(SQLite.stagedFillEdgeKind.rawValue)])
    try dropStagedFillRows()
  }

  /// Writes queued before the copy knew its instance are meant for this one.
  func adoptInstance(_ instanceId: String) throws {
    try query("UPDATE queue SET instance_id = ? WHERE instance_id IS NULL", [.text(instanceId)])
  }

  /// Takes a row a catch-up brought, keeping what the queue still holds over it: a row the
  /// device's own create has not landed yet stays as the copy has it, a later row the copy holds
  /// is kept, and the writes still pending on it (unanswered, blocked or dead: a release may yet
  /// send them) are laid back over the instance's row, in the order they were queued: a dead
  /// create's properties, then the edits'.
  func takeRowUnderPendingWrites(kind: RowKind, _ row: JSONValue) throws {
    guard let id = row["id"]?.stringValue else { return }
    let column = kind == .edge ? "edge_id" : "item_id"
    let create: WriteKind = kind == .edge ? .createEdge : .createItem
    let unanswered = "(verdict IS NULL OR verdict = \(VerdictName.blocked.sql))"
    let creates = try ids(
      "SELECT id FROM queue WHERE \(column) = ? AND kind = \(create.sql) AND \(unanswered) LIMIT 1", [.text(id)])
    if !creates.isEmpty { return }
    if let held = try self.row(kind: kind, id: id), let mine = held.version, let theirs = row["version"]?.intValue,
      mine > theirs
    {
      return
    }
    let pending = try pendingPayloads(kind: kind, id: id)
    guard !pending.isEmpty else { return try takeRow(kind: kind, row) }
    try takeRow(kind: kind, row.setting("properties", Self.laying(pending, over: row["properties"])))
  }

  /// The payloads of the creates and edits of this row still pending (unanswered, blocked or
  /// dead), in the order they were queued.
  func pendingPayloads(kind: RowKind, id: String) throws -> [JSONValue] {
    let column = kind == .edge ? "edge_id" : "item_id"
    let kinds: [WriteKind] = kind == .edge ? [.createEdge, .updateEdge] : [.createItem, .updateItem]
    var payloads: [JSONValue] = []
    try query(
      """
      SELECT payload FROM queue WHERE \(column) = ? AND \(WriteKind.sqlOneOf("kind", kinds))
        AND (verdict IS NULL OR verdict IN (\(VerdictName.blocked.sql), \(VerdictName.dead.sql))) ORDER BY seq
      """, [.text(id)]
    ) { r in if let p = r.text(0).flatMap(JSONValue.parse) { payloads.append(p) } }
    return payloads
  }

  /// `properties` with each payload's laid over in turn: a whole (`replace`) edit's stand alone.
  static func laying(_ payloads: [JSONValue], over properties: JSONValue?) -> JSONValue {
    var props = properties ?? .object([])
    for payload in payloads {
      let carried = payload["properties"] ?? .object([])
      if payload["properties_mode"]?.stringValue == "replace" {
        props = carried
      } else {
        for (k, v) in carried.objectValue ?? [] { props = props.setting(k, v) }
      }
    }
    return props
  }

  /// Shows the row of this device's own create that has not landed (unanswered, blocked or dead)
  /// as those writes make it: the create's properties with the edits still pending laid over. A
  /// write refused unsent, or released, changes what is pending; nothing when no such create is.
  func relayOwnCreate(kind: RowKind, id: String) throws {
    let column = kind == .edge ? "edge_id" : "item_id"
    let create: WriteKind = kind == .edge ? .createEdge : .createItem
    let pendingCreate = try ids(
      """
      SELECT id FROM queue WHERE \(column) = ? AND kind = \(create.sql)
        AND (verdict IS NULL OR verdict IN (\(VerdictName.blocked.sql), \(VerdictName.dead.sql))) LIMIT 1
      """, [.text(id)])
    guard !pendingCreate.isEmpty, let held = try row(kind: kind, id: id) else { return }
    let props = Self.laying(try pendingPayloads(kind: kind, id: id), over: .object([]))
    try putRow(
      kind: kind, id: id, version: held.version, state: held.body["state"]?.stringValue,
      body: held.body.setting("properties", props))
  }

  /// Whether the copy holds this row at a later state than `row`: a higher version, or the same
  /// version stamped later (`updated_at`). A read-back that old would roll the copy back under a
  /// change whose event is already behind the cursor.
  func holdsNewer(kind: RowKind, than row: JSONValue) throws -> Bool {
    guard let id = row["id"]?.stringValue, let held = try self.row(kind: kind, id: id) else { return false }
    let theirs = row["version"]?.intValue
    if let mine = held.version, let theirs, mine != theirs { return mine > theirs }
    guard let mine = held.body["updated_at"]?.stringValue.flatMap(Timestamp.date),
      let read = row["updated_at"]?.stringValue.flatMap(Timestamp.date)
    else { return false }
    return mine > read
  }

  /// Puts back the properties a refused edit was made against (what the row showed before it),
  /// with the edits of the row queued after it and still pending laid over: where a read-back
  /// cannot be taken, the refused edit still leaves the copy. Nothing for a write that is no edit
  /// or whose read was not kept.
  func putBackEditRead(_ w: QueuedWrite) throws {
    guard w.kind == .updateItem || w.kind == .updateEdge, keepsEditReads(),
      let rowId = w.kind.rowId(item: w.itemId, edge: w.edgeId), let held = try row(kind: w.kind.rowKind, id: rowId)
    else { return }
    var read: JSONValue?
    try query("SELECT properties FROM edit_reads WHERE id = ?", [.text(w.id)]) { r in
      read = r.text(0).flatMap(JSONValue.parse)
    }
    guard let read, let seq = try seq(of: w.id) else { return }
    let column = w.kind.rowKind == .edge ? "edge_id" : "item_id"
    var after: [JSONValue] = []
    try query(
      """
      SELECT payload FROM queue WHERE \(column) = ? AND kind = \(w.kind.sql) AND seq > ?
        AND (verdict IS NULL OR verdict IN (\(VerdictName.blocked.sql), \(VerdictName.dead.sql))) ORDER BY seq
      """, [.text(rowId), .int(seq)]
    ) { r in if let p = r.text(0).flatMap(JSONValue.parse) { after.append(p) } }
    try putRow(
      kind: w.kind.rowKind, id: rowId, version: held.version, state: held.body["state"]?.stringValue,
      body: held.body.setting("properties", Self.laying(after, over: read)))
  }
}
