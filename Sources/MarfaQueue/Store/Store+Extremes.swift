import FoundationEssentials

/// A pane's oldest write and largest streak, each one step along an order's index
/// (``StoreSchema/orderIndexes``): `ORDER BY key LIMIT 1` within the pane, never a scan of it.
/// A store an earlier build made, no writer having opened it since, lacks the indexes and is
/// read by a scan of the pane instead.
extension SQLite {
  /// The pane's figures (``PaneExtremes``).
  func extremes(of pane: QueuePane) throws -> PaneExtremes {
    var figures = PaneExtremes()
    let age = PaneOrder.age.sqlKey ?? "queued_at"
    let oldest = try text(
      "SELECT \(age) FROM queue WHERE \(pane.sqlTest) ORDER BY \(PaneOrder.age.orderBy()) LIMIT 1")
    figures.oldest = oldest.flatMap(Timestamp.date)
    let streak = PaneOrder.streak.sqlKey ?? "environmental_streak"
    let largest = try scalar(
      "SELECT \(streak) FROM queue WHERE \(pane.sqlTest) ORDER BY \(PaneOrder.streak.orderBy()) LIMIT 1")
    var found: StoreDamage?
    figures.largestStreak =
      StoredRange.read(
        largest, StoredRange.streak, clamping: true, place: "queue.environmental_streak (\(pane.name))",
        damage: &found) ?? 0
    note(found)
    return figures
  }
}
