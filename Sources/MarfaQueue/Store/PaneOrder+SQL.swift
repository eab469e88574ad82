/// A ``PaneOrder`` in the store's SQL: the value each order reads, its `ORDER BY` (forwards and
/// backwards, for pages read from the end of a pane) and the test for "comes before" (for a
/// write's position). Each order has an index that serves its `ORDER BY` within a pane
/// (``StoreSchema/orderIndexes``), so a page is a walk along an index, never a sort of the pane.
extension PaneOrder {
  /// The SQL value the order reads (the same text as its index's, so SQLite matches them);
  /// nil for the send order alone.
  var sqlKey: String? {
    switch self {
    case .sendOrder, .newestFirst: return nil
    // A write never answered (Waiting) is as old as its queueing.
    case .age: return "coalesce(answered_at, queued_at)"
    case .streak: return "environmental_streak"
    // Blocked by its reason; the panes without reasons by verdict name.
    case .reason: return "CASE WHEN verdict = \(VerdictName.blocked.sql) THEN reason ELSE verdict END"
    case .kind: return "kind"
    }
  }

  /// The `ORDER BY` list (without the words); `backwards` reverses every term.
  func orderBy(backwards: Bool = false) -> String {
    var seqDown = self == .newestFirst
    var keyDown = descending
    if backwards {
      seqDown.toggle()
      keyDown.toggle()
    }
    let seq = seqDown ? "seq DESC" : "seq"
    guard let key = sqlKey else { return seq }
    return "\(key)\(keyDown ? " DESC" : ""), \(seq)"
  }

  /// The SQL test (and its values) for "comes before the write with this key and send order",
  /// NULL keys ordered as SQLite orders them (first going up, last going down).
  func before(key: OrderKey?, seq: Int) -> (String, [SQLValue]) {
    let seqTest = self == .newestFirst ? "seq > ?" : "seq < ?"
    guard let column = sqlKey.map({ "(\($0))" }) else { return (seqTest, [.int(seq)]) }
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
