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

  /// Whether a write with no verdict names the item (its row then keeps the copy's values).
  func hasUnansweredWrite(item id: String) throws -> Bool {
    !(try ids("SELECT id FROM queue WHERE item_id = ? AND verdict IS NULL LIMIT 1", [.text(id)]).isEmpty)
  }
}
