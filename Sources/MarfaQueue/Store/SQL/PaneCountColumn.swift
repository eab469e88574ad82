/// The `pane_counts` table's columns (``StoreSchema/paneCounts``); a count of the queue by pane
/// is read through them too (`SELECT pane, count(*) AS n`).
enum PaneCountColumn: Int, SQLColumn {
  case pane, n
  static let table = "pane_counts"
}
