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
      try setMeta(.fill, FillState.expired.rawValue)
      try setMeta(.expiredReason, reason)
    }
  }

  /// Drops every item row no waiting write names (a fill reads them all again).
  func dropItemRowsNotBeneathWaitingWrites() throws {
    try query(
      """
      DELETE FROM rows WHERE kind = '\(RowKind.item.rawValue)'
        AND id NOT IN (SELECT item_id FROM queue WHERE \(QueuePane.waiting.sqlTest) AND item_id IS NOT NULL)
      """)
  }

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
    let beneath = "SELECT item_id FROM queue WHERE \(QueuePane.waiting.sqlTest) AND item_id IS NOT NULL"
    try dropItemRowsNotBeneathWaitingWrites()
    try query(
      """
      INSERT OR REPLACE INTO rows (kind, id, version, state, body)
        SELECT '\(RowKind.item.rawValue)', id, version, state, body FROM rows WHERE kind = ? AND id NOT IN (\(beneath))
      """, [.text(SQLite.stagedFillKind.rawValue)])
    // The edges the pages carried replace the copy's, but for those waiting writes were laid over.
    let edgesBeneath = "SELECT edge_id FROM queue WHERE \(QueuePane.waiting.sqlTest) AND edge_id IS NOT NULL"
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
  /// is kept, and the edits still pending on it (unanswered, blocked or dead: a release may yet
  /// send them) are laid back over the instance's row, in the order they were queued.
  func takeRowUnderPendingWrites(kind: RowKind, _ row: JSONValue) throws {
    guard let id = row["id"]?.stringValue else { return }
    let column = kind == .edge ? "edge_id" : "item_id"
    let pending = "(verdict IS NULL OR verdict IN ('\(VerdictName.blocked.rawValue)', '\(VerdictName.dead.rawValue)'))"
    let create: WriteKind = kind == .edge ? .createEdge : .createItem
    let update: WriteKind = kind == .edge ? .updateEdge : .updateItem
    let creates = try ids(
      "SELECT id FROM queue WHERE \(column) = ? AND kind = \(create.sql) AND \(pending) LIMIT 1", [.text(id)])
    if !creates.isEmpty { return }
    if let held = try self.row(kind: kind, id: id), let mine = held.version, let theirs = row["version"]?.intValue,
      mine > theirs
    {
      return
    }
    var edits: [JSONValue] = []
    try query(
      "SELECT payload FROM queue WHERE \(column) = ? AND kind = \(update.sql) AND \(pending) ORDER BY seq",
      [.text(id)]
    ) { r in if let p = r.text(0).flatMap(JSONValue.parse) { edits.append(p) } }
    guard !edits.isEmpty else { return try takeRow(kind: kind, row) }
    var props = row["properties"] ?? .object([])
    for edit in edits {
      let carried = edit["properties"] ?? .object([])
      if edit["properties_mode"]?.stringValue == "replace" {
        props = carried
      } else {
        for (k, v) in carried.objectValue ?? [] { props = props.setting(k, v) }
      }
    }
    try takeRow(kind: kind, row.setting("properties", props))
  }
}
