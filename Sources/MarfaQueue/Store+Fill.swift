/// The store's side of a fill and a catch-up: the copy's rows beside the queue's waiting writes.
extension SQLite {
  /// The items the queue's waiting writes name: their rows keep what the writes laid over them.
  func itemsBeneathWaitingWrites() throws -> Set<String> {
    Set(
      try rows(
        "SELECT DISTINCT item_id FROM queue WHERE \(QueuePane.waiting.sqlTest) AND item_id IS NOT NULL",
        reading: QueueColumn.self
      ) { $0.text(.itemId) ?? "" })
  }

  /// Drops every item row no waiting write names (a fill reads them all again).
  func dropItemRowsNotBeneathWaitingWrites() throws {
    try query(
      """
      DELETE FROM rows WHERE kind = 'item'
        AND id NOT IN (SELECT item_id FROM queue WHERE \(QueuePane.waiting.sqlTest) AND item_id IS NOT NULL)
      """)
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
