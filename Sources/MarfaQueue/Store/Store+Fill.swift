/// The store's side of a fill and a catch-up: the copy's rows beside the queue's waiting writes.
extension SQLite {
  /// Drops every item row no waiting write names (a fill reads them all again).
  func dropItemRowsNotBeneathWaitingWrites() throws {
    try query(
      """
      DELETE FROM rows WHERE kind = 'item'
        AND id NOT IN (SELECT item_id FROM queue WHERE \(QueuePane.waiting.sqlTest) AND item_id IS NOT NULL)
      """)
  }

  /// The `rows` kind a fill stages item rows under until it takes them all at its end.
  static let stagedFillKind = "filling"

  /// Stages one item row of a fill's page (the copy's own rows are untouched until the end).
  func stageFillRow(_ row: JSONValue) throws {
    guard let id = row["id"]?.stringValue else { return }
    try putRow(
      kind: SQLite.stagedFillKind, id: id, version: row["version"]?.intValue, state: row["state"]?.stringValue,
      body: row)
  }

  /// Drops what a fill staged (one that stopped, or was killed, before taking it).
  func dropStagedFillRows() throws {
    try query("DELETE FROM rows WHERE kind = ?", [.text(SQLite.stagedFillKind)])
  }

  /// The copy's item rows become the staged ones, except the rows waiting writes were laid over,
  /// which keep what the copy has; the staged rows are then dropped.
  func takeStagedFillRows() throws {
    let beneath = "SELECT item_id FROM queue WHERE \(QueuePane.waiting.sqlTest) AND item_id IS NOT NULL"
    try dropItemRowsNotBeneathWaitingWrites()
    try query(
      """
      INSERT OR REPLACE INTO rows (kind, id, version, state, body)
        SELECT 'item', id, version, state, body FROM rows WHERE kind = ? AND id NOT IN (\(beneath))
      """, [.text(SQLite.stagedFillKind)])
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
