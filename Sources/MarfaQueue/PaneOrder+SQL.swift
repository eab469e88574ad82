/// A ``PaneOrder`` in the store's SQL: the column each order reads, its `ORDER BY` (forwards and
/// backwards, for pages read from the end of a pane) and the test for "comes before" (for a
/// write's position). Each order has an index that serves its `ORDER BY` within a pane
/// (``StoreSchema/orderIndexes``), so a page is a walk along an index, never a sort of the pane.
extension PaneOrder {
  /// The column the order reads in `pane`; nil for the send order alone.
  func column(in pane: QueuePane) -> QueueColumn? {
    switch self {
    case .sendOrder, .newestFirst: return nil
    case .age: return pane == .waiting ? .queuedAt : .answeredAt
    case .streak: return .environmentalStreak
    case .reason: return pane == .blocked ? .reason : .verdict
    case .kind: return .kind
    }
  }

  /// The `ORDER BY` list (without the words) for `pane`; `backwards` reverses every term.
  func orderBy(in pane: QueuePane, backwards: Bool = false) -> String {
    var seqDown = self == .newestFirst
    var keyDown = descending
    if backwards {
      seqDown.toggle()
      keyDown.toggle()
    }
    let seq = seqDown ? "seq DESC" : "seq"
    guard let column = column(in: pane) else { return seq }
    return "\(column.name)\(keyDown ? " DESC" : ""), \(seq)"
  }

  /// The SQL test (and its values) for "comes before the write with this key and send order" in
  /// `pane`, NULL keys ordered as SQLite orders them (first going up, last going down).
  func before(key: OrderKey?, seq: Int, in pane: QueuePane) -> (String, [SQLValue]) {
    let seqTest = self == .newestFirst ? "seq > ?" : "seq < ?"
    guard let column = column(in: pane)?.name else { return (seqTest, [.int(seq)]) }
    switch (key, descending) {
    case (let k?, false):
      return ("(\(column) < ? OR \(column) IS NULL OR (\(column) = ? AND \(seqTest)))", [k.sql, k.sql, .int(seq)])
    case (let k?, true):
      return ("(\(column) > ? OR (\(column) = ? AND \(seqTest)))", [k.sql, k.sql, .int(seq)])
    case (nil, false):
      return ("(\(column) IS NULL AND \(seqTest))", [.int(seq)])
    case (nil, true):
      return ("(\(column) IS NOT NULL OR \(seqTest))", [.int(seq)])
    }
  }
}
